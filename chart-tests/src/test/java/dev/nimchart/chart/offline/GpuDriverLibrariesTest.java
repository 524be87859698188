package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU check's bundle on a host that finds the NVIDIA driver's library only through LD_LIBRARY_PATH (many clouds'
 * GPU images: /usr/local/nvidia/lib64): DIR/run's executor (pod-run.py) finds the directory and writes the pod's own
 * dynamic loader cache into its /etc overlay with that directory added, as the NVIDIA container runtime's ldcache hook
 * does, so a process with the pod's own environment finds {@code libcuda.so.1}; every library the host's cache names
 * stays in it (the host's ld.so.conf is read, not only the loader's trusted directories). The driver library here is a minimal ELF shared object whose SONAME is libcuda.so.1 (no GPU, no C
 * compiler needed); ldconfig reads nothing else of it.
 */
class GpuDriverLibrariesTest {

    @Test
    void aDriverFoundOnlyThroughLdLibraryPathIsPutIntoThePodsLoaderCacheBesideTheHostsLibraries(@TempDir Path tmp) throws Exception {
        Path driver = Files.createDirectories(tmp.resolve("nvidia/lib64"));
        Files.write(driver.resolve("libcuda.so.1"), sharedObject("libcuda.so.1"));
        Path pod = Files.createDirectories(tmp.resolve("pod/etc-upper")).getParent();
        Path podRun = Path.of(GpuDriverLibrariesTest.class.getResource("/dev/nimchart/startup/pod-run.py").toURI());
        String script = """
                import importlib.util, sys
                spec = importlib.util.spec_from_file_location("pod_run", sys.argv[1])
                m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
                found = m.driver_library_dir()
                print("found:", found)
                print("inject:", m.inject_driver_libraries(sys.argv[2], found) if found else "not attempted")
                """;
        ScriptRun host = ScriptRun.of(List.of("ldconfig", "-p"), tmp, null, Map.of());
        Assumptions.assumeFalse(host.output().contains("libcuda.so.1 "), "this host's loader cache names libcuda.so.1 already");
        ScriptRun r = ScriptRun.of(List.of("python3", "-c", script, podRun.toString(), pod.toString()), tmp, null,
                Map.of("LD_LIBRARY_PATH", driver.toString()));
        assertThat(r.exit()).as("pod-run.py's functions:%n%s", r.output()).isZero();
        assertThat(r.output()).as("the driver's directory, found through LD_LIBRARY_PATH").contains("found: " + driver)
                .contains("inject: None");
        Path cache = pod.resolve("etc-upper/ld.so.cache");
        String listed = ScriptRun.of(List.of("ldconfig", "-p", "-C", cache.toString()), tmp, null, Map.of()).output();
        assertThat(listed).as("the pod's loader cache").contains("libcuda.so.1 (libc6,x86-64) => " + driver.resolve("libcuda.so.1"));
        assertThat(entries(listed)).as("the pod's loader cache keeps every library the host's cache names (its ld.so.conf included)")
                .containsAll(entries(host.output()));
        assertThat(Files.readString(pod.resolve("etc-upper/ld.so.conf.d/000-nvidia-driver.conf")).strip()).isEqualTo(driver.toString());

        ScriptRun none = ScriptRun.of(List.of("python3", "-c", script, podRun.toString(), pod.toString()), tmp, null,
                Map.of("LD_LIBRARY_PATH", tmp.toString()));
        assertThat(none.output()).as("no driver library anywhere it looks").contains("found: None");
    }

    /** The entries of {@code ldconfig -p}'s listing: "soname (flags) => path". */
    private static List<String> entries(String listing) {
        return listing.lines().map(String::strip).filter(l -> l.contains(" => ")).toList();
    }

    /** The smallest x86-64 ELF shared object ldconfig lists: one loadable segment, a dynamic section with a SONAME. */
    static byte[] sharedObject(String soname) {
        byte[] strtab = ("\0" + soname + "\0").getBytes(StandardCharsets.US_ASCII);
        int dynamic = 64 + 2 * 56;
        int strings = dynamic + 4 * 16;
        int total = strings + strtab.length;
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}).put(new byte[8]);     // 64-bit, little-endian, version 1
        b.putShort((short) 3).putShort((short) 62).putInt(1);                       // ET_DYN, EM_X86_64, EV_CURRENT
        b.putLong(0).putLong(64).putLong(0).putInt(0);                              // entry, program headers, no sections, flags
        b.putShort((short) 64).putShort((short) 56).putShort((short) 2);            // header size, program header size and count
        b.putShort((short) 64).putShort((short) 0).putShort((short) 0);             // no section headers
        b.putInt(1).putInt(4).putLong(0).putLong(0).putLong(0).putLong(total).putLong(total).putLong(0x1000);      // PT_LOAD, R
        b.putInt(2).putInt(6).putLong(dynamic).putLong(dynamic).putLong(dynamic).putLong(64).putLong(64).putLong(8); // PT_DYNAMIC
        b.putLong(14).putLong(1).putLong(5).putLong(strings).putLong(10).putLong(strtab.length).putLong(0).putLong(0); // SONAME, STRTAB, STRSZ, NULL
        b.put(strtab);
        return b.array();
    }
}
