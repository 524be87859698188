package dev.nimchart.chart.offline;

import dev.nimchart.chart.repository.Examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.checks.RuntimeContractCheck;
import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.startup.ProxyReaders;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pod's own runtime contract, offline, on every example: no two containers of a pod bind one port at the same time
 * and no selector of the release takes in another object's pods ({@link RuntimeContractCheck}, which the judge applies
 * to every rendered file); no container sets a variable twice (the kubelet would keep the last); the variables the chart
 * derives say what their keys say in every NIM container and in the pre-fill Job; and every in-cluster address a NIM
 * container dials goes directly, never through the proxy, for Python's requests and for curl ({@link ProxyReaders}).
 * The start-up tier checks the same on the running pods (docs/tiers.md).
 */
class RuntimeContractTest {


    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void noTwoContainersOfAPodBindOnePortAndEverySelectorKeepsToItsOwnPods(Path file) {
        Example e = Example.of(file);
        assertThat(RuntimeContractCheck.problems(e.manifest)).as(e.name()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void noContainerSetsAVariableTwice(Path file) {
        Example e = Example.of(file);
        SoftAssertions soft = new SoftAssertions();
        for (EmbeddedPods p : EmbeddedPods.in(e.manifest)) {
            for (KubeObject c : containers(p.pod())) {
                List<String> names = c.list("env").stream().map(v -> String.valueOf(v.at("name"))).toList();
                soft.assertThat(names).as("%s: %s %s container %s", e.name(), p.owner(), p.path(), c.at("name")).doesNotHaveDuplicates();
            }
        }
        soft.assertAll();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void derivedVariablesSayWhatTheirKeysSayInEveryNimContainerAndThePrefillJob(Path file) {
        Example e = Example.of(file);
        SoftAssertions soft = new SoftAssertions();
        List<Map<String, KubeObject>> envs = new ArrayList<>();
        for (PodTemplate t : e.templates) {
            Map<String, KubeObject> env = PodTemplate.env(t.nim());
            envs.add(env);
            String where = e.name() + ": the " + t.role();
            if (!t.role().equals("launcher")) {
                soft.assertThat(value(env, "NIM_CACHE_PATH")).as(where).isEqualTo(e.text("model.nimCache"));
                soft.assertThat(value(env, "NIM_MODEL_PATH")).as("%s: NIM_MODEL_PATH is modelSource.uri", where)
                        .isEqualTo(e.text("modelSource.uri").isEmpty() ? null : e.text("modelSource.uri"));
            }
            if (List.of("server", "leader").contains(t.role())) {
                soft.assertThat(value(env, "NIM_SERVER_PORT")).as(where).isEqualTo(String.valueOf(e.integer("model.openaiPort")));
                soft.assertThat(value(env, "NIM_HEALTH_PORT")).as("%s: NIM_HEALTH_PORT is model.healthPort", where)
                        .isEqualTo(e.integer("model.healthPort") > 0 ? String.valueOf(e.integer("model.healthPort")) : null);
            }
            for (String[] pair : new String[][] {{"HTTP_PROXY", "http_proxy", "proxy.httpProxy"}, {"HTTPS_PROXY", "https_proxy", "proxy.httpsProxy"}}) {
                String expected = e.text(pair[2]).isEmpty() ? null : e.text(pair[2]);
                soft.assertThat(value(env, pair[0])).as("%s: %s is %s", where, pair[0], pair[2]).isEqualTo(expected);
                soft.assertThat(value(env, pair[1])).as("%s: %s is %s", where, pair[1], pair[2]).isEqualTo(expected);
            }
            soft.assertThat(value(env, "no_proxy")).as("%s: no_proxy and NO_PROXY agree", where).isEqualTo(value(env, "NO_PROXY"));
        }
        for (KubeObject job : e.manifest.ofKind("Job")) {
            KubeObject prefill = job.list("spec.template.spec.containers").get(0);
            Map<String, KubeObject> jobEnv = PodTemplate.env(prefill);
            for (Map<String, KubeObject> env : envs.subList(0, Math.min(1, envs.size()))) {
                for (Map.Entry<String, KubeObject> v : jobEnv.entrySet()) {
                    if (env.containsKey(v.getKey()) && !v.getKey().equals("NO_PROXY") && !v.getKey().equals("no_proxy")) {
                        soft.assertThat(v.getValue().raw()).as("%s: the pre-fill Job's %s is the NIM pods'", e.name(), v.getKey())
                                .isEqualTo(env.get(v.getKey()).raw());
                    }
                }
            }
            List<String> mounts = prefill.list("volumeMounts").stream().map(m -> String.valueOf(m.at("mountPath"))).toList();
            String home = value(jobEnv, "HOME");
            soft.assertThat(home).as("%s: the pre-fill Job's HOME is home.path", e.name()).isEqualTo(e.text("home.path"));
            soft.assertThat(mounts).as("%s: the pre-fill Job mounts its HOME", e.name()).contains(home);
        }
        soft.assertAll();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyInClusterAddressANimContainerDialsGoesDirectly(Path file) {
        Example e = Example.of(file);
        List<String> hosts = new ArrayList<>(List.of("localhost", "127.0.0.1"));
        String ns = ChartUnderTest.NAMESPACE;
        for (KubeObject sts : e.manifest.ofKind("StatefulSet")) {
            hosts.add(sts.name() + "-0." + sts.at("spec.serviceName") + "." + ns);
        }
        // The Services a NIM container may dial: all of the release's but the endpoint picker's (only the gateway dials it).
        for (KubeObject svc : e.manifest.ofKind("Service").stream().filter(s -> !Example.endpointPicker(s)).toList()) {
            hosts.addAll(List.of(svc.name(), svc.name() + "." + ns, svc.name() + "." + ns + ".svc", svc.name() + "." + ns + ".svc.cluster.local"));
        }
        SoftAssertions soft = new SoftAssertions();
        for (PodTemplate t : e.templates) {
            Map<String, String> env = literalEnv(t.nim(), e);
            List<String> dialed = new ArrayList<>(hosts);
            for (String name : List.of("MASTER_ADDR", "NIM_LEADER_IP_ADDRESS", "LWS_LEADER_ADDRESS")) {
                if (env.get(name) != null) {
                    dialed.add(env.get(name));
                }
            }
            soft.assertThat(ProxyReaders.proxiedHosts(env, dialed)).as("%s: the %s's in-cluster addresses through a proxy", e.name(), t.role())
                    .isEmpty();
        }
        soft.assertAll();
    }

    /**
     * The container's literal variables, {@code $(LWS_LEADER_ADDRESS)} as the LeaderWorkerSet webhook sets it
     * ({@code <lws>-<group>.<lws>.<namespace>}) and expanded as the kubelet would.
     */
    private static Map<String, String> literalEnv(KubeObject container, Example e) {
        Map<String, String> env = new LinkedHashMap<>();
        e.manifest.ofKind("LeaderWorkerSet").stream().findFirst()
                .ifPresent(lws -> env.put("LWS_LEADER_ADDRESS", lws.name() + "-0." + lws.name() + "." + ChartUnderTest.NAMESPACE));
        for (KubeObject v : container.list("env")) {
            if (v.at("value") != null) {
                env.put(String.valueOf(v.at("name")), dev.nimchart.startup.KubeletEnv.expand(v.at("value").toString(), env));
            }
        }
        return env;
    }

    private static String value(Map<String, KubeObject> env, String name) {
        KubeObject v = env.get(name);
        return v == null || v.at("value") == null ? null : v.at("value").toString();
    }

    private static List<KubeObject> containers(KubeObject pod) {
        List<KubeObject> out = new ArrayList<>(pod.list("spec.initContainers"));
        out.addAll(pod.list("spec.containers"));
        return out;
    }
}
