package dev.nimchart.chart.routing;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gateway's side of Envoy's external processing protocol ({@code envoy.service.ext_proc.v3.ExternalProcessor/Process},
 * a bidirectional gRPC stream over HTTP/2), as a gateway implementing the Gateway API Inference Extension speaks it to an
 * endpoint picker: it sends a request's headers and then its body with end of stream, and reads the picker's answer to
 * the headers, whose header mutation sets {@value #DESTINATION} to the chosen endpoint ({@code ip:port}) and whose
 * dynamic metadata carries the same under {@code envoy.lb}. The messages are written and read with protobuf's wire
 * format by their field numbers (envoy's api protos: ProcessingRequest request_headers 2, request_body 4;
 * ProcessingResponse request_headers 1, request_body 3, dynamic_metadata 8; HttpHeaders headers 1, end_of_stream 3;
 * HttpBody body 1, end_of_stream 2; HeaderMap headers 1; HeaderValue key 1, value 2, raw_value 3; CommonResponse
 * header_mutation 2; HeaderMutation set_headers 1; HeaderValueOption header 1): no generated envoy classes are on Maven
 * Central in a version this project can pin, and these few fields are all the exchange needs.
 */
public final class ExtProcClient implements AutoCloseable {

    public static final String DESTINATION = "x-gateway-destination-endpoint";
    static final String METHOD = "envoy.service.ext_proc.v3.ExternalProcessor/Process";

    private static final RawBytesMarshaller BYTES = RawBytesMarshaller.INSTANCE;
    private static final MethodDescriptor<byte[], byte[]> PROCESS = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.BIDI_STREAMING).setFullMethodName(METHOD)
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    /** The picker's answer to one request: the header it set, the endpoint in its dynamic metadata, and how long it took. */
    public record Decision(String header, String metadataEndpoint, Map<String, String> setHeaders, Duration latency) {
        /** The chosen endpoint ({@code ip:port}) from the header the gateway routes on. */
        public String endpoint() {
            return header;
        }

        /** The chosen endpoint's IP. */
        public String ip() {
            return header == null ? null : header.substring(0, header.lastIndexOf(':'));
        }
    }

    private final ManagedChannel channel;

    /**
     * A client of the picker at {@code host:port}: over TLS when {@code tls} (the picker's default, {@code
     * --secure-serving}, with a certificate it makes itself at start: a gateway accepts it unverified, as GAIE v1.5.0's chart has Istio
     * do), else plain h2c.
     */
    public ExtProcClient(String host, int port, boolean tls) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(host, port);
        if (tls) {
            try {
                builder.sslContext(GrpcSslContexts.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build());
            } catch (javax.net.ssl.SSLException e) {
                throw new IllegalStateException("cannot make the TLS context of the ext-proc client", e);
            }
        } else {
            builder.usePlaintext();
        }
        this.channel = builder.build();
    }

    /**
     * Asks for an endpoint for an OpenAI chat completion request to {@code path} with {@code body}: sends the headers a
     * gateway forwards ({@code :method}, {@code :path}, {@code :authority}, {@code content-type}, {@code x-request-id})
     * and then the body, and waits up to {@code timeout} for the answer to the headers.
     */
    public Decision pick(String authority, String path, String body, String requestId, Duration timeout) {
        CompletableFuture<Decision> result = new CompletableFuture<>();
        ClientCall<byte[], byte[]> call = channel.newCall(PROCESS, CallOptions.DEFAULT.withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS));
        long[] start = new long[1];
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(byte[] message) {
                try {
                    Decision d = headersAnswer(message, System.nanoTime() - start[0]);
                    if (d != null) {
                        result.complete(d);
                    }
                } catch (InvalidProtocolBufferException | RuntimeException e) {
                    result.completeExceptionally(e);
                }
                call.request(1);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                if (!result.isDone()) {
                    result.completeExceptionally(new IllegalStateException("the endpoint picker closed the stream without an answer to the"
                            + " request headers: " + status + (status.getDescription() == null ? "" : " " + status.getDescription())));
                }
            }
        }, new Metadata());
        call.request(1);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":method", "POST");
        headers.put(":scheme", "http");
        headers.put(":authority", authority);
        headers.put(":path", path);
        headers.put("content-type", "application/json");
        headers.put("content-length", Integer.toString(body.getBytes(StandardCharsets.UTF_8).length));
        headers.put("x-request-id", requestId);
        start[0] = System.nanoTime();
        call.sendMessage(requestHeaders(headers));
        call.sendMessage(requestBody(body.getBytes(StandardCharsets.UTF_8)));
        try {
            return result.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the endpoint picker within " + timeout, e);
        } finally {
            call.halfClose();
        }
    }

    @Override
    public void close() {
        channel.shutdownNow();
        try {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** ProcessingRequest{request_headers: HttpHeaders{headers: HeaderMap{headers: [HeaderValue{key, raw_value}]}}}, as Envoy sends them. */
    static byte[] requestHeaders(Map<String, String> headers) {
        List<byte[]> values = new ArrayList<>();
        for (Map.Entry<String, String> h : headers.entrySet()) {
            values.add(message(out -> {
                out.writeString(1, h.getKey());
                out.writeByteArray(3, h.getValue().getBytes(StandardCharsets.UTF_8));
            }));
        }
        byte[] map = message(out -> {
            for (byte[] v : values) {
                out.writeByteArray(1, v);
            }
        });
        byte[] httpHeaders = message(out -> {
            out.writeByteArray(1, map);
            out.writeBool(3, false);
        });
        return message(out -> out.writeByteArray(2, httpHeaders));
    }

    /** ProcessingRequest{request_body: HttpBody{body, end_of_stream: true}}. */
    static byte[] requestBody(byte[] body) {
        byte[] httpBody = message(out -> {
            out.writeByteArray(1, body);
            out.writeBool(2, true);
        });
        return message(out -> out.writeByteArray(4, httpBody));
    }

    /** The decision in a ProcessingResponse answering the request headers (field 1), else null (another answer). */
    static Decision headersAnswer(byte[] message, long nanos) throws InvalidProtocolBufferException {
        UnknownFieldSet response = UnknownFieldSet.parseFrom(message);
        if (!response.hasField(1)) {
            return null;
        }
        Map<String, String> set = new LinkedHashMap<>();
        for (UnknownFieldSet headersResponse : nested(response, 1)) {
            for (UnknownFieldSet common : nested(headersResponse, 1)) {
                for (UnknownFieldSet mutation : nested(common, 2)) {
                    for (UnknownFieldSet option : nested(mutation, 1)) {
                        for (UnknownFieldSet header : nested(option, 1)) {
                            String key = string(header, 1);
                            String raw = string(header, 3);
                            set.put(key, raw != null && !raw.isEmpty() ? raw : string(header, 2));
                        }
                    }
                }
            }
        }
        String metadata = null;
        for (UnknownFieldSet struct : nested(response, 8)) {
            UnknownFieldSet lb = structField(struct, "envoy.lb");
            if (lb != null) {
                for (UnknownFieldSet inner : nested(lb, 5)) {
                    UnknownFieldSet value = structField(inner, DESTINATION);
                    if (value != null) {
                        metadata = string(value, 3);
                    }
                }
            }
        }
        return new Decision(set.get(DESTINATION), metadata, set, Duration.ofNanos(nanos));
    }

    /** The google.protobuf.Value under {@code key} in a google.protobuf.Struct (fields: map entries {key 1, value 2}). */
    private static UnknownFieldSet structField(UnknownFieldSet struct, String key) throws InvalidProtocolBufferException {
        for (UnknownFieldSet entry : nested(struct, 1)) {
            if (key.equals(string(entry, 1))) {
                List<UnknownFieldSet> value = nested(entry, 2);
                return value.isEmpty() ? null : value.get(0);
            }
        }
        return null;
    }

    private static List<UnknownFieldSet> nested(UnknownFieldSet set, int field) throws InvalidProtocolBufferException {
        List<UnknownFieldSet> out = new ArrayList<>();
        if (set.hasField(field)) {
            for (ByteString bytes : set.getField(field).getLengthDelimitedList()) {
                out.add(UnknownFieldSet.parseFrom(bytes));
            }
        }
        return out;
    }

    private static String string(UnknownFieldSet set, int field) {
        if (!set.hasField(field) || set.getField(field).getLengthDelimitedList().isEmpty()) {
            return null;
        }
        return set.getField(field).getLengthDelimitedList().get(0).toStringUtf8();
    }

    private interface Writer {
        void write(CodedOutputStream out) throws IOException;
    }

    private static byte[] message(Writer writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            writer.write(out);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
