package dev.nimchart.cluster;

import dev.nimchart.settings.Settings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Installs the CustomResourceDefinitions the chart targets (LeaderWorkerSet, MPIJob, ServiceMonitor), as
 * ci/fetch-crds.sh copied them from the Go module cache at the versions pinned in ci/go.mod, and waits until the API
 * server serves them.
 */
public final class CrdInstaller {

    public static final String CRDS_DIR = "nim.crds.dir";
    private static final long ESTABLISH_TIMEOUT_MS = 30_000;

    private CrdInstaller() {
    }

    /**
     * The CRD directory of {@link Settings#crdsDir()} (-D{@value #CRDS_DIR}), else {@code crds/} of the work directory,
     * filled by the settings' builder (this repository's ci/fetch-crds.sh) when it does not exist yet.
     */
    public static Path crdsDir(Settings settings, java.util.function.Consumer<String> progress) {
        Path dir = settings.crdsDir().orElse(settings.workDir().resolve("crds"));
        if (!Files.isDirectory(dir)) {
            BinaryAssets.of(settings).crds(dir, progress);
        }
        return dir;
    }

    /** Creates every CRD of the directory (an existing one is left alone) and returns their names once established. */
    public static List<String> install(KubeApi api, Path dir) {
        List<String> names = new ArrayList<>();
        for (KubeObject crd : read(dir)) {
            KubeApi.Response created = api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict", crd.raw());
            // An API server starved of CPU answers 504 ("request did not complete within requested timeout") or 429 and
            // may still store the CRD: ask again, twice at most (a 409 then says it is there).
            for (int again = 0; again < 2 && (created.code() == 504 || created.code() == 429 || created.code() == 503); again++) {
                LocalProcess.sleep(2000);
                created = api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict", crd.raw());
            }
            if (!created.ok() && created.code() != 409) {
                throw new IllegalStateException("cannot install the CRD " + crd.name() + " from " + dir + ": " + created.message());
            }
            names.add(crd.name());
        }
        for (String name : names) {
            awaitEstablished(api, name);
        }
        return names;
    }

    /** The CRDs of the directory that the API server serves already (on a cluster the harness may not install them on). */
    public static List<String> served(KubeApi api, Path dir) {
        List<String> names = new ArrayList<>();
        for (KubeObject crd : read(dir)) {
            if (api.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd.name()).ok()) {
                names.add(crd.name());
            }
        }
        return names;
    }

    /** The names of the CRDs in the directory. */
    public static List<String> names(Path dir) {
        return read(dir).stream().map(KubeObject::name).toList();
    }

    private static List<KubeObject> read(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<KubeObject> crds = new ArrayList<>();
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                crds.addAll(RenderedManifest.parse(Files.readString(f)).ofKind("CustomResourceDefinition"));
            }
            if (crds.isEmpty()) {
                throw new IllegalStateException("no CustomResourceDefinition in " + dir + ": give Settings.withCrdsDir a directory of CRD YAML files,"
                        + " or none, for the settings' binary source to fetch them (BinarySource.crds)");
            }
            return crds;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the CRDs in " + dir, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void awaitEstablished(KubeApi api, String name) {
        boolean served = Poll.upTo(java.time.Duration.ofMillis(ESTABLISH_TIMEOUT_MS)).every(100).until(() -> {
            KubeObject crd = new KubeObject(KubeApi.require(api.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name), "read the CRD " + name));
            boolean established = crd.list("status.conditions").stream()
                    .anyMatch(c -> "Established".equals(c.at("type")) && "True".equals(c.at("status")));
            // Established comes first; the custom resources' storage may still be initializing for a moment after.
            return established && api.get(servedPath(crd) + "?limit=1").ok();
        });
        if (!served) {
            throw new IllegalStateException("the CRD " + name + " was not established within " + ESTABLISH_TIMEOUT_MS + " ms");
        }
    }

    /** The cluster-wide collection of the CRD's storage version: /apis/GROUP/VERSION/PLURAL. */
    private static String servedPath(KubeObject crd) {
        String version = crd.list("spec.versions").stream().filter(v -> Boolean.TRUE.equals(v.at("storage")))
                .map(v -> v.at("name").toString()).findFirst().orElseThrow();
        return "/apis/" + crd.at("spec.group") + "/" + version + "/" + crd.at("spec.names.plural");
    }
}
