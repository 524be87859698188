package dev.nimchart.controllers;

/** The controller tier could not be built, started or kept running; the message says which process and why. */
public final class ControllerTierException extends RuntimeException {

    public ControllerTierException(String message) {
        super(message);
    }

    public ControllerTierException(String message, Throwable cause) {
        super(message, cause);
    }
}
