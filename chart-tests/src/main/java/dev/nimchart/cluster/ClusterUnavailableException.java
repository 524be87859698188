package dev.nimchart.cluster;

/** No cluster could be started; the message says what was tried and how to get one. */
public final class ClusterUnavailableException extends RuntimeException {

    public ClusterUnavailableException(String message) {
        super(message);
    }

    public ClusterUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
