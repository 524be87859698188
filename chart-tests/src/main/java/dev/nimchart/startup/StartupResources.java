package dev.nimchart.startup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** The start-up tier's scripts (this package's resources: the sandbox, the executor, the stand-ins) written out to run. */
final class StartupResources {

    private StartupResources() {
    }

    /** The resource {@code name} written to {@code target}. */
    static Path copy(String name, Path target) throws IOException {
        try (InputStream in = StartupResources.class.getResourceAsStream(name)) {
            Files.write(target, in.readAllBytes());
        }
        return target;
    }

    /** The resource {@code name} written to {@code target}, executable (rwxr-xr-x). */
    static Path executable(String name, Path target) throws IOException {
        return executable(copy(name, target));
    }

    /** Makes {@code file} executable (rwxr-xr-x). */
    static Path executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The resource {@code name} written to {@code target} with {@code interpreter} in its first line. */
    static Path withInterpreter(String name, Path target, Path interpreter) throws IOException {
        try (InputStream in = StartupResources.class.getResourceAsStream(name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Files.writeString(target, text.replaceFirst("^#!.*", "#!" + interpreter));
        }
        return target;
    }
}
