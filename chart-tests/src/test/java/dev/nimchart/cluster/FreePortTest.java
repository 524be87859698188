package dev.nimchart.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortTest {

    private static final Path LOCK_DIR = Path.of(System.getProperty("java.io.tmpdir"), "nim-llm-chart-ports");

    @Test
    void aPortIsHandedOutOnceAndNothingListensOnItYet() {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            ports.add(FreePort.take());
        }
        assertThat(ports).as("twenty ports taken").hasSize(20).noneMatch(FreePort::listening);
        assertThat(ports).as("each port's lock file").allSatisfy(p -> assertThat(LOCK_DIR.resolve(Integer.toString(p))).isRegularFile());
    }

    /** A port another JVM holds is not this JVM's to take; once that JVM is gone, it is. Port 1 is never handed out. */
    @Test
    void aPortAnotherJvmHoldsIsSkippedUntilThatJvmEnds(@TempDir Path dir) throws Exception {
        Path holder = Files.writeString(dir.resolve("Holder.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                public class Holder {
                    public static void main(String[] a) throws Exception {
                        Files.createDirectories(Path.of(a[0]));
                        FileChannel c = FileChannel.open(Path.of(a[0], "1"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                        System.out.println(c.tryLock() != null ? "locked" : "busy");
                        System.in.read();
                    }
                }
                """);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process other = new ProcessBuilder(java, holder.toString(), LOCK_DIR.toString()).redirectErrorStream(true).start();
        try {
            String first = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(first).as("the other JVM's lock on port 1").isEqualTo("locked");
            assertThat(FreePort.lockAcrossJvms(1)).as("port 1 while the other JVM holds it").isNull();
        } finally {
            other.destroyForcibly().waitFor();
        }
        FileLock lock = FreePort.lockAcrossJvms(1);
        assertThat(lock).as("port 1 once the other JVM is gone").isNotNull();
        lock.channel().close();
    }
}
