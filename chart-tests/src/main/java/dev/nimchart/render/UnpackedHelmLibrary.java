package dev.nimchart.render;

import com.marcnuri.helm.jni.HelmLib;
import com.marcnuri.helm.jni.NativeLibrary;
import com.sun.jna.Native;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ServiceLoader;

/**
 * helm-java's native library (Helm itself, 98 MB for linux-amd64), unpacked once into a directory and loaded from
 * there by every later JVM, instead of copied out of its jar into a new temporary directory by each one, as helm-java
 * does. For a short-lived command that copy is a large part of its start: {@code ci/check-chart.sh}'s launcher
 * registers this class as helm-java's {@link NativeLibrary} (a service entry in the launcher's jar, which comes first
 * on its classpath) and names the directory with {@code -Dnim.helm.library.dir}, which the command's settings carry
 * ({@code Settings.helmLibraryDir()}) to the first {@code ChartRenderer}, which passes it here ({@link #unpackInto}).
 * Without that directory, and in every other JVM (no service entry), Helm is loaded as helm-java loads it. The platform's own library (the jar helm-java
 * found for this machine) is what is unpacked, into a directory named after that jar, its size and time, so a new
 * helm-java version unpacks anew.
 */
public final class UnpackedHelmLibrary implements NativeLibrary {

    /**
     * Where the library is unpacked: the {@code Settings.helmLibraryDir()} of the first renderer made
     * ({@link #unpackInto}), as helm-java's service loader makes this object itself and Helm loads once per process.
     */
    private static volatile java.util.Optional<Path> directory;

    private final NativeLibrary platform;

    public UnpackedHelmLibrary() {
        platform = ServiceLoader.load(NativeLibrary.class, UnpackedHelmLibrary.class.getClassLoader()).stream()
                .filter(p -> p.type() != UnpackedHelmLibrary.class).findFirst().map(ServiceLoader.Provider::get)
                .orElseThrow(() -> new IllegalStateException("no helm-java native library for this platform on the classpath "
                        + "(com.marcnuri.helm-java:linux-amd64, darwin-arm64, ...)"));
    }

    @Override
    public String getBinaryName() {
        return platform.getBinaryName();
    }

    /**
     * Unpacks the library into this directory when helm-java loads it (empty: helm-java's own load); the first call of
     * the process decides, as helm-java loads Helm once. Each {@code ChartRenderer} passes its settings' directory.
     */
    public static synchronized void unpackInto(java.util.Optional<Path> dir) {
        if (directory == null) {
            directory = dir;
        }
    }

    @Override
    public HelmLib load() {
        java.util.Optional<Path> dir = directory == null ? java.util.Optional.empty() : directory;
        Path jar = platformJar();
        if (dir.isEmpty() || jar == null) {
            return platform.load();
        }
        Path file = unpacked(dir.get(), jar);
        HelmLib lib = Native.load(file.toString(), HelmLib.class);
        // as helm-java's own load: repository servers a test started stop with the JVM
        Runtime.getRuntime().addShutdownHook(new Thread(lib::RepoServerStopAll));
        return lib;
    }

    /** The jar the platform's library comes from, or null when it is not a plain file. */
    private Path platformJar() {
        CodeSource source = platform.getClass().getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path jar = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(jar) ? jar : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The library under dir, unpacked from the platform's jar unless an earlier JVM did (atomically: whole or absent). */
    private Path unpacked(Path dir, Path jar) {
        try {
            Path home = dir.resolve(jar.getFileName() + "-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis());
            Path file = home.resolve(getBinaryName());
            if (Files.isRegularFile(file)) {
                return file;
            }
            Files.createDirectories(home);
            Path partial = Files.createTempFile(home, getBinaryName(), ".partial");
            try (InputStream in = platform.getClass().getResourceAsStream("/" + getBinaryName())) {
                if (in == null) {
                    throw new IllegalStateException(jar + " holds no " + getBinaryName());
                }
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(partial);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack Helm's native library from " + jar + " into " + dir, e);
        }
    }
}
