package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A container's securityContext as pod-sandbox.sh applies it, one file each in the container's directory:
 * {@code read-only-root} (readOnlyRootFilesystem), {@code bounding-set} (the capabilities, for setpriv) and
 * {@code no-new-privs} (allowPrivilegeEscalation false).
 */
final class ContainerSecurity {

    private ContainerSecurity() {
    }

    /** Writes the container's security files into {@code cdir} (removing those a setting no longer asks for). */
    static void write(Path cdir, KubeObject container) throws IOException {
        marker(cdir.resolve("read-only-root"), Boolean.TRUE.equals(container.at("securityContext.readOnlyRootFilesystem")));
        Files.writeString(cdir.resolve("bounding-set"), boundingSet(container));
        marker(cdir.resolve("no-new-privs"), Boolean.FALSE.equals(container.at("securityContext.allowPrivilegeEscalation")));
    }

    private static void marker(Path file, boolean present) throws IOException {
        Files.deleteIfExists(file);
        if (present) {
            Files.writeString(file, "");
        }
    }

    /**
     * setpriv's --bounding-set argument for a container's capabilities: {@code -all} plus each added one when it drops
     * ALL; empty (the runtime's default set, left as it is) otherwise.
     */
    static String boundingSet(KubeObject container) {
        if (!(container.at("securityContext.capabilities.drop") instanceof List<?> drop) || !drop.contains("ALL")) {
            return "";
        }
        StringBuilder out = new StringBuilder("-all");
        if (container.at("securityContext.capabilities.add") instanceof List<?> add) {
            add.forEach(c -> out.append(",+").append(c.toString().toLowerCase(Locale.ROOT).replaceFirst("^cap_", "")));
        }
        return out.toString();
    }
}
