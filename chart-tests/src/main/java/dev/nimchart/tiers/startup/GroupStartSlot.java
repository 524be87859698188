package dev.nimchart.tiers.startup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * One group start at a time on a machine: the test JVMs of one build (and of other checkouts) take turns starting and
 * checking a group's processes, the part of the suite whose timings are a real program's own (Ray registers a node
 * within 30 s or gives up; a startup probe has its timeout), while their other classes run on. On the 2-core machine, five
 * JVMs starting Ray groups and sshd at once drove the load to 32 and a Ray worker past Ray's own 30 s. A file lock the
 * operating system releases when the JVM ends, however it ends; beside the Ray installation, one place per machine.
 */
final class GroupStartSlot implements AutoCloseable {

    /** The threads of one JVM queue here first: a file lock is held per JVM, and a second one from the same JVM would fail. */
    private static final java.util.concurrent.locks.ReentrantLock IN_THIS_JVM = new java.util.concurrent.locks.ReentrantLock();

    private final FileChannel channel;
    private final FileLock lock;

    private GroupStartSlot(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits for the machine's slot (saying so when another JVM holds it) and takes it. */
    static GroupStartSlot take(Path file, Consumer<String> progress) {
        IN_THIS_JVM.lock();
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                progress.accept("another group start runs on this machine (" + file + "); waiting for it to finish");
                lock = channel.lock();
            }
            return new GroupStartSlot(channel, lock);
        } catch (IOException | RuntimeException e) {
            IN_THIS_JVM.unlock();
            throw e instanceof IOException io ? new UncheckedIOException("cannot take the start-up tier's machine slot " + file + ": "
                    + io.getMessage(), io) : (RuntimeException) e;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            IN_THIS_JVM.unlock();
        }
    }
}
