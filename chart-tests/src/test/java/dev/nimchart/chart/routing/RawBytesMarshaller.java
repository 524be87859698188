package dev.nimchart.chart.routing;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A gRPC marshaller that passes a message's bytes as they are: the tests' gRPC clients (ext-proc, health) encode and
 * decode their protobuf messages themselves, so they need no generated classes.
 */
final class RawBytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {

    static final RawBytesMarshaller INSTANCE = new RawBytesMarshaller();

    private RawBytesMarshaller() {
    }

    @Override
    public InputStream stream(byte[] value) {
        return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
        try {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
