package dev.nimchart.cluster;

/**
 * Every address the controller tier records in objects, all from 198.18.0.0/15 (reserved for benchmarking), so that a
 * later tier that dials them inside network namespaces of its own never reaches a real network.
 */
public final class TierAddresses {

    /** Service ClusterIPs (kube-apiserver {@code --service-cluster-ip-range}); the kubernetes Service gets the first. */
    public static final String SERVICE_RANGE = "198.19.0.0/16";
    public static final String KUBERNETES_SERVICE_IP = "198.19.0.1";
    /** Pod IPs kwok hands out ({@code --cidr}). */
    public static final String POD_RANGE = "198.18.0.1/17";
    /** The fake nodes' InternalIP (kwok {@code --node-ip}). */
    public static final String NODE_IP = "198.18.200.1";
    /** The API server's advertised address (recorded only; the server listens on 127.0.0.1). */
    public static final String ADVERTISE_ADDRESS = "198.18.200.2";

    private TierAddresses() {
    }
}
