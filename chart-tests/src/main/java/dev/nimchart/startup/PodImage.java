package dev.nimchart.startup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The image's own files as each pod of a run sees them: its users ({@link ImageModel}: the pod's /etc/passwd and
 * /etc/group, its home directories), the stand-in for NIM's server at the image's program paths ({@code nim-standin.py},
 * or a real engine's program), the stand-ins' modules, NIM's cache download command, the Ray programs of a NIM 2.x/3.x
 * image when the run has Ray, and the image's entrypoint.
 */
final class PodImage {

    /** The image the pods run (its users, homes and ENV HOME). */
    static final ImageModel IMAGE = ImageModel.NIM;
    /** Where the stand-in stands in for the image's programs. */
    static final List<String> STANDIN_PATHS = List.of("nim/start_server.sh", "nim/start-mpi-cluster.sh", "nim/llm/.venv/bin/python3");

    private final Path standin;
    private final String servedModel;
    private final Path engineCaches;
    private final Path nimApi;
    private final Path downloadStandin;
    private final Path rayDir;
    private final Path rayStandin;

    /**
     * The image's files written once into {@code workDir}, with {@code server} as NIM's server and {@code rayDir} the Ray
     * installation its {@code ray} and {@code nim-serve-ray} run (null: the image has neither program).
     */
    PodImage(Path workDir, PodGroupRun.Server server, Path rayDir) throws IOException {
        this.standin = server.program() != null ? server.program()
                : StartupResources.executable("nim-standin.py", workDir.resolve("nim-standin.py"));
        this.servedModel = server.servedModel();
        this.engineCaches = StartupResources.executable("engine_caches.py", workDir.resolve("engine_caches.py"));
        this.nimApi = StartupResources.executable("nim_api.py", workDir.resolve("nim_api.py"));
        this.downloadStandin = StartupResources.executable("download-to-cache.py", workDir.resolve("download-to-cache.py"));
        this.rayDir = rayDir;
        // The Ray stand-in with the Ray environment's python as its interpreter.
        this.rayStandin = rayDir == null ? null
                : StartupResources.withInterpreter("nim-serve-ray.py", workDir.resolve("nim-serve-ray"), rayDir.resolve("bin/python3"));
    }

    /** The image's users in the pod's {@code etc} (passwd with an entry for {@code uid} only if the image declares it). */
    static void writeUsers(Path etc, long uid) throws IOException {
        Files.writeString(etc.resolve("passwd"), IMAGE.passwd(Files.readAllLines(Path.of("/etc/passwd")), uid));
    }

    /** The image's files in the pod's directory {@code dir}: its users for {@code uid}, homes, programs and entrypoint. */
    void writeInto(Path dir, long uid) throws IOException {
        Path etc = dir.resolve("etc-upper");
        // The image's users and home directories (ImageModel): a uid it does not declare has no passwd entry.
        writeUsers(etc, uid);
        Files.writeString(etc.resolve("group"), IMAGE.group(Files.readAllLines(Path.of("/etc/group"))));
        Files.writeString(dir.resolve("image-homes"), IMAGE.homeDirectories());
        for (String path : STANDIN_PATHS) {
            Path target = dir.resolve("opt").resolve(path);
            Files.createDirectories(target.getParent());
            Files.copy(standin, target);
            StartupResources.executable(target);
        }
        // The stand-ins' modules (engine cache paths: engine_caches.py; NIM's HTTP API: nim_api.py), in the image's files.
        Path standinLib = Files.createDirectories(dir.resolve("opt/nim/standin"));
        Files.copy(engineCaches, standinLib.resolve("engine_caches.py"));
        Files.copy(nimApi, standinLib.resolve("nim_api.py"));
        if (servedModel != null) {
            Files.writeString(standinLib.resolve("served-model"), servedModel);
        }
        // A NIM 2.x/3.x image's programs on its PATH: nim-serve-ray (the stand-in, running the real Ray) and ray.
        Path bin = Files.createDirectories(dir.resolve("opt/nim/bin"));
        Files.copy(downloadStandin, bin.resolve("download-to-cache")); // NIM's cache download command (download-to-cache.py)
        StartupResources.executable(bin.resolve("download-to-cache"));
        if (rayDir != null) {
            Files.copy(rayStandin, bin.resolve("nim-serve-ray"));
            Files.writeString(bin.resolve("ray"), "#!/bin/sh\nexec " + rayDir.resolve("bin/ray") + " \"$@\"\n");
            for (String program : List.of("nim-serve-ray", "ray")) {
                StartupResources.executable(bin.resolve(program));
            }
        }
        // The image's entrypoint runs its arguments (the CUDA images' entrypoint prints a banner, then execs them).
        Path entrypoint = dir.resolve("opt").resolve(ContainerCommand.IMAGE_ENTRYPOINT.get(0).substring("/opt/".length()));
        Files.createDirectories(entrypoint.getParent());
        Files.writeString(entrypoint, "#!/bin/bash\nexec \"$@\"\n");
        StartupResources.executable(entrypoint);
    }
}
