package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The /etc/hosts the start-up tier gives every pod of a namespace, standing in for cluster DNS where the pods dial by
 * name: each pod IP with the names the namespace's headless Services publish for it, as {@link ObjectDns} answers them.
 */
final class EtcHosts {

    private EtcHosts() {
    }

    /** /etc/hosts of every pod: each pod IP with the names the namespace's headless Services publish for it. */
    static String of(NamespaceState state) {
        ObjectDns dns = new ObjectDns(state);
        StringBuilder out = new StringBuilder("127.0.0.1\tlocalhost\n");
        for (KubeObject pod : state.livePods()) {
            Object ip = pod.at("status.podIP");
            Object subdomain = pod.at("spec.subdomain");
            if (ip == null || subdomain == null) {
                continue;
            }
            String host = hostName(pod);
            List<String> names = new ArrayList<>();
            for (String suffix : List.of(".svc.cluster.local", ".svc", "")) {
                String name = host + "." + subdomain + "." + pod.namespace() + suffix;
                if (dns.resolve(name).filter(("Pod/" + pod.name())::equals).isPresent()) {
                    names.add(name);
                }
            }
            // Headless Services with this pod alone behind them answer its address under their own name.
            for (KubeObject svc : state.all("Service")) {
                for (String suffix : List.of(".svc.cluster.local", ".svc")) {
                    String name = svc.name() + "." + pod.namespace() + suffix;
                    if ("None".equals(svc.at("spec.clusterIP")) && dns.resolve(name).filter(("Pod/" + pod.name())::equals).isPresent()) {
                        names.add(name);
                    }
                }
            }
            if (!names.isEmpty()) {
                out.append(ip).append('\t').append(String.join(" ", names)).append('\n');
            }
        }
        return out.toString();
    }

    /** The pod's host name: spec.hostname, else its name. */
    static String hostName(KubeObject pod) {
        return pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
    }
}
