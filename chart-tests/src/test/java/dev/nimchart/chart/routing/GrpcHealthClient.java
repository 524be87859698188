package dev.nimchart.chart.routing;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kubelet's side of a {@code grpc} probe: one {@code grpc.health.v1.Health/Check} call in plain text (the kubelet's
 * gRPC probes never use TLS) with the probe's {@code service}, answering the status by its name in
 * grpc/health/v1/health.proto ({@code SERVING}, {@code NOT_SERVING}, {@code SERVICE_UNKNOWN}) or the call's failure
 * ({@code UNAVAILABLE: ...}). The messages are written by field number (HealthCheckRequest service 1; HealthCheckResponse
 * status 1), as ExtProcClient writes its own.
 */
final class GrpcHealthClient {

    private static final String[] STATUS = {"UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"};

    private static final RawBytesMarshaller BYTES = RawBytesMarshaller.INSTANCE;

    private static final MethodDescriptor<byte[], byte[]> CHECK = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("grpc.health.v1.Health/Check")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private GrpcHealthClient() {
    }

    /** The answer of the health service at {@code 127.0.0.1:port} for {@code service}, within {@code timeout}. */
    static String check(int port, String service, Duration timeout) {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        CompletableFuture<String> result = new CompletableFuture<>();
        try {
            ClientCall<byte[], byte[]> call = channel.newCall(CHECK, CallOptions.DEFAULT.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS));
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onMessage(byte[] answer) {
                    int status = answer.length >= 2 && answer[0] == 0x08 ? answer[1] : 0;
                    result.complete(status >= 0 && status < STATUS.length ? STATUS[status] : "status " + status);
                }

                @Override
                public void onClose(Status status, Metadata trailers) {
                    result.complete(status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription()));
                }
            }, new Metadata());
            call.sendMessage(request(service));
            call.halfClose();
            call.request(1);
            return result.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (ExecutionException | TimeoutException e) {
            return "no answer: " + e;
        } finally {
            channel.shutdownNow();
        }
    }

    /** HealthCheckRequest{service}: field 1, length-delimited (empty service: an empty message). */
    static byte[] request(String service) {
        byte[] text = service.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (text.length > 0) {
            out.write(0x0A);
            int n = text.length;
            while (n >= 0x80) {
                out.write((n & 0x7F) | 0x80);
                n >>>= 7;
            }
            out.write(n);
            out.writeBytes(text);
        }
        return out.toByteArray();
    }
}
