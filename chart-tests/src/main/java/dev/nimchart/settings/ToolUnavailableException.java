package dev.nimchart.settings;

/** A program or tool a tier needs could not be had; the message says what was tried and how to get it. */
public class ToolUnavailableException extends RuntimeException {

    public ToolUnavailableException(String message) {
        super(message);
    }

    public ToolUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
