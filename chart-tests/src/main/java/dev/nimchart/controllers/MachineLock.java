package dev.nimchart.controllers;

import dev.nimchart.cluster.MachineFileLock;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * One controller tier at a time on a machine, for an mpi-operator build that binds port 8080 on every interface, as
 * upstream v0.8.0 does (see {@link MpiOperatorProcess}): a second tier (another build, another checkout) would fail.
 * The lock is a file lock the operating system releases when the JVM ends, however it ends. Builds of
 * ci/build-controllers.sh need none ({@link #notNeeded()}).
 */
final class MachineLock implements AutoCloseable {

    /** The file lock, or null where no lock is needed. */
    private final MachineFileLock lock;

    private MachineLock(MachineFileLock lock) {
        this.lock = lock;
    }

    /** No lock: the tier's programs clash with no other tier's. */
    static MachineLock notNeeded() {
        return new MachineLock(null);
    }

    /** The machine lock when this tier's mpi-operator needs port 8080, else none. */
    static MachineLock forTier(ControllerBinaries binaries, Path file, Consumer<String> progress) {
        return MpiOperatorProcess.healthAddressSettable(binaries) ? notNeeded() : acquire(file, progress);
    }

    /** Takes the lock of this file ({@code Settings.controllerLock()}: one path for every checkout of a machine). */
    private static MachineLock acquire(Path file, Consumer<String> progress) {
        try {
            return new MachineLock(MachineFileLock.take(file, "another controller tier runs on this machine (" + file
                    + "); waiting for it to finish", progress));
        } catch (UncheckedIOException e) {
            throw new ControllerTierException("cannot take the controller tier's machine lock " + file + ": " + e.getCause().getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (lock != null) {
            lock.close();
        }
    }
}
