package dev.nimchart.controllers;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * One controller tier at a time on a machine, for an mpi-operator build that binds port 8080 on every interface, as
 * upstream v0.8.0 does (see {@link MpiOperatorProcess}): a second tier (another build, another checkout) would fail.
 * The lock is a file lock the operating system releases when the JVM ends, however it ends. Builds of
 * ci/build-controllers.sh need none ({@link #notNeeded()}).
 */
final class MachineLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private MachineLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** No lock: the tier's programs clash with no other tier's. */
    static MachineLock notNeeded() {
        return new MachineLock(null, null);
    }

    /** The machine lock when this tier's mpi-operator needs port 8080, else none. */
    static MachineLock forTier(ControllerBinaries binaries, Path file, Consumer<String> progress) {
        return MpiOperatorProcess.healthAddressSettable(binaries) ? notNeeded() : acquire(file, progress);
    }

    /** Takes the lock of this file ({@code Settings.controllerLock()}: one path for every checkout of a machine). */
    private static MachineLock acquire(Path file, Consumer<String> progress) {
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                progress.accept("another controller tier runs on this machine (" + file + "); waiting for it to finish");
                lock = channel.lock();
            }
            return new MachineLock(channel, lock);
        } catch (IOException e) {
            throw new ControllerTierException("cannot take the controller tier's machine lock " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (channel == null) {
            return;
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the operating system releases the lock with the process anyway
        }
    }
}
