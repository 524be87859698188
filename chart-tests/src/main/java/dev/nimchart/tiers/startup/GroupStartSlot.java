package dev.nimchart.tiers.startup;

import dev.nimchart.cluster.MachineFileLock;
import java.nio.file.Path;
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

    private final MachineFileLock lock;

    private GroupStartSlot(MachineFileLock lock) {
        this.lock = lock;
    }

    /** Waits for the machine's slot (saying so when another JVM holds it) and takes it. */
    static GroupStartSlot take(Path file, Consumer<String> progress) {
        IN_THIS_JVM.lock();
        try {
            return new GroupStartSlot(MachineFileLock.take(file, "another group start runs on this machine (" + file
                    + "); waiting for it to finish", progress));
        } catch (RuntimeException e) {
            IN_THIS_JVM.unlock();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            lock.close();
        } finally {
            IN_THIS_JVM.unlock();
        }
    }
}
