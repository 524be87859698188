package dev.nimchart.checks;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.KeyPath;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Ingress;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V2HorizontalPodAutoscaler;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks that a rendered object is what the Kubernetes API accepts: built-in kinds must deserialize strictly into
 * their client-java model (no unknown field, every required field) with correctly typed scalars; for the custom
 * kinds the chart uses, the embedded pod templates get the same check and the whole object goes to a pluggable
 * custom-resource validator. Every object's name, label and annotation syntax, and each pod's mounts and names, are checked as the API server does.
 */
public final class StrictModelCheck {

    private static final Map<String, Class<?>> MODELS = Map.ofEntries(
            Map.entry("v1/ConfigMap", V1ConfigMap.class),
            Map.entry("v1/PersistentVolumeClaim", V1PersistentVolumeClaim.class),
            Map.entry("v1/Pod", V1Pod.class),
            Map.entry("v1/Secret", V1Secret.class),
            Map.entry("v1/Service", V1Service.class),
            Map.entry("v1/ServiceAccount", V1ServiceAccount.class),
            Map.entry("apps/v1/Deployment", V1Deployment.class),
            Map.entry("apps/v1/StatefulSet", V1StatefulSet.class),
            Map.entry("networking.k8s.io/v1/Ingress", V1Ingress.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", V1NetworkPolicy.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", V2HorizontalPodAutoscaler.class),
            Map.entry("policy/v1/PodDisruptionBudget", V1PodDisruptionBudget.class),
            Map.entry("resource.k8s.io/v1/ResourceClaimTemplate", io.kubernetes.client.openapi.models.V1ResourceClaimTemplate.class),
            Map.entry("rbac.authorization.k8s.io/v1/Role", V1Role.class),
            Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", V1RoleBinding.class));

    private static final String LEADER_WORKER_SET = "leaderworkerset.x-k8s.io/v1/LeaderWorkerSet";
    private static final String MPI_JOB = "kubeflow.org/v2beta1/MPIJob";
    private static final String SERVICE_MONITOR = "monitoring.coreos.com/v1/ServiceMonitor";
    private static final String COMPUTE_DOMAIN = "resource.nvidia.com/v1beta1/ComputeDomain";

    private static final java.util.Set<String> PINNED_CUSTOM_KINDS = java.util.Set.of(LEADER_WORKER_SET, MPI_JOB,
            SERVICE_MONITOR, COMPUTE_DOMAIN);

    private final Function<KubeObject, List<String>> customResourceValidator;
    private final BiPredicate<String, String> customResource;

    /** A check whose custom-resource validator finds no problems. */
    public StrictModelCheck() {
        this(object -> List.of(), (apiVersion, kind) -> false);
    }

    private StrictModelCheck(Function<KubeObject, List<String>> customResourceValidator,
            BiPredicate<String, String> customResource) {
        this.customResourceValidator = customResourceValidator;
        this.customResource = customResource;
    }

    /**
     * A copy that also runs {@code validator} (for example a CRD-schema validator) on LeaderWorkerSet, MPIJob,
     * ServiceMonitor and ComputeDomain objects; it returns the problems it finds, empty when the object is valid.
     */
    public StrictModelCheck withCustomResourceValidator(Function<KubeObject, List<String>> validator) {
        return new StrictModelCheck(Objects.requireNonNull(validator), (apiVersion, kind) -> false);
    }

    /**
     * A copy that runs {@code validator} on every object whose apiVersion and kind {@code isCustomResource} accepts (the
     * CRDs of the chart's {@code crds/} and the harness's pins), besides the four custom kinds of the pins.
     */
    public StrictModelCheck withCustomResources(BiPredicate<String, String> isCustomResource,
            Function<KubeObject, List<String>> validator) {
        return new StrictModelCheck(Objects.requireNonNull(validator), Objects.requireNonNull(isCustomResource));
    }

    /**
     * The client-java model of a built-in kind: every kind of the API server's OpenAPI that client-java is generated
     * from (DaemonSet, Job, CronJob, ClusterRole, IngressClass, webhook configurations, ...), found by its group, version
     * and kind; empty for a kind it does not model.
     */
    static java.util.Optional<Class<?>> builtInModel(String apiVersion, String kind) {
        Class<?> known = MODELS.get(apiVersion + "/" + kind);
        if (known != null) {
            return java.util.Optional.of(known);
        }
        if (!served(apiVersion, kind)) {
            return java.util.Optional.empty();
        }
        Class<?> found;
        try {
            found = io.kubernetes.client.util.ModelMapper.getApiTypeClass(apiVersion, kind);
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
        if (found == null || !found.getPackageName().equals(V1Pod.class.getPackageName())) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(found);
    }

    /**
     * Whether the group and version of {@code apiVersion} serve {@code kind}, read from client-java's API class of that
     * group and version (generated from the same OpenAPI: {@code AppsV1Api} for apps/v1, {@code CoreV1Api} for v1,
     * {@code RbacAuthorizationV1Api} for rbac.authorization.k8s.io/v1), which has a create method for every kind it
     * serves. ModelMapper alone ignores the group ({@code v1 Deployment} and {@code apps/v1 ClusterRole} resolve), so an
     * object the API server refuses would pass without this.
     */
    static boolean served(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "core" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        if (group.isEmpty() || version.isEmpty() || kind == null || kind.isEmpty()) {
            return false;
        }
        StringBuilder api = new StringBuilder("io.kubernetes.client.openapi.apis.");
        for (String part : group.replaceAll("\\.k8s\\.io$", "").split("\\.")) {
            if (part.isEmpty()) {
                return false;
            }
            api.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        api.append(Character.toUpperCase(version.charAt(0))).append(version.substring(1)).append("Api");
        try {
            return java.util.Arrays.stream(Class.forName(api.toString()).getMethods())
                    .anyMatch(m -> m.getName().equals("create" + kind) || m.getName().equals("createNamespaced" + kind));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** @throws ModelViolation naming the object and every problem found */
    public void check(KubeObject object) {
        String type = object.apiVersion() + "/" + object.kind();
        List<String> problems = new ArrayList<>();
        java.util.Optional<Class<?>> model;
        if (MODELS.containsKey(type)) {
            problems.addAll(modelProblems(object.raw(), MODELS.get(type), ""));
        } else if (PINNED_CUSTOM_KINDS.contains(type) || customResource.test(object.apiVersion(), object.kind())) {
            podTemplates(object).forEach((path, template) ->
                    problems.addAll(modelProblems(template, V1PodTemplateSpec.class, path)));
            problems.addAll(customResourceValidator.apply(object));
        } else if ((model = builtInModel(object.apiVersion(), object.kind())).isPresent()) {
            problems.addAll(modelProblems(object.raw(), model.get(), ""));
        } else {
            problems.add("no model for " + type + ": neither a kind the Kubernetes API serves (client-java's models)"
                    + " nor a CRD of the chart's crds/ or the harness's pinned CRDs");
        }
        problems.addAll(ObjectMetaCheck.problems(object));
        problems.addAll(PodSpecCheck.problems(object));
        if (!problems.isEmpty()) {
            throw new ModelViolation(object, problems);
        }
    }

    /** The pod templates a custom resource embeds, by dotted path. */
    private static Map<String, Object> podTemplates(KubeObject object) {
        Map<String, Object> templates = new LinkedHashMap<>();
        if (object.kind().equals("LeaderWorkerSet")) {
            for (String path : List.of("spec.leaderWorkerTemplate.leaderTemplate", "spec.leaderWorkerTemplate.workerTemplate")) {
                if (object.at(path) != null) {
                    templates.put(path, object.at(path));
                }
            }
        } else if (object.kind().equals("MPIJob") && object.at("spec.mpiReplicaSpecs") instanceof Map<?, ?> replicaSpecs) {
            replicaSpecs.keySet().forEach(replicaType -> {
                String path = KeyPath.child("spec.mpiReplicaSpecs", String.valueOf(replicaType)) + ".template";
                if (object.at(path) != null) {
                    templates.put(path, object.at(path));
                }
            });
        }
        return templates;
    }

    /** Problems of {@code value} read as {@code model}: the model's own strict parse, then scalar types. */
    private static List<String> modelProblems(Object value, Class<?> model, String path) {
        List<String> problems = new ArrayList<>();
        String prefix = path.isEmpty() ? "" : path + ": ";
        try {
            model.getMethod("fromJson", String.class).invoke(null, JsonMapper.shared().writeValueAsString(value));
        } catch (InvocationTargetException e) {
            problems.add(prefix + withoutJsonDump(Objects.toString(e.getCause().getMessage(), e.getCause().toString())));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(model + " has no fromJson(String)", e);
        }
        problems.addAll(ScalarTypeCheck.problems(value, model, path));
        return problems;
    }

    /** client-java appends the whole offending JSON to its messages; the object's name says enough. */
    private static String withoutJsonDump(String message) {
        return message.replaceFirst("(?s)(\\. JSON: |: )[\\[{].*$", "");
    }
}
