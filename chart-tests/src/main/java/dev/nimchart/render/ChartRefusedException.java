package dev.nimchart.render;

/** Helm refused to render the chart; the message is Helm's own error text. */
public class ChartRefusedException extends RuntimeException {

    public ChartRefusedException(String helmMessage, Throwable cause) {
        super(helmMessage, cause);
    }
}
