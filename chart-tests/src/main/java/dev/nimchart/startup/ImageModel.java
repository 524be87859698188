package dev.nimchart.startup;

import java.util.List;
import java.util.Optional;

/**
 * What the start-up tier's stand-in image declares about itself, the facts a container runtime reads from an image
 * before it starts a process: the users of its {@code /etc/passwd} (with their home directories, which exist in the
 * image's root filesystem and belong to their user) and its {@code ENV HOME}, if any.
 *
 * <p>The runtime (runc, via containerd or CRI-O) sets HOME from the image's {@code ENV HOME} when the image has one;
 * else from the passwd entry of the uid it runs ({@code runAsUser}); else {@code /}. It sets no USER or LOGNAME. A
 * pod's own {@code env} entry for HOME replaces all of that. The NIM image is modelled on NVIDIA's CUDA images, which
 * build on Ubuntu 24.04: the passwd entry of uid 1000 is {@code ubuntu}, home {@code /home/ubuntu}, and no ENV HOME
 * (a NIM container started as uid 1000 on an H200 found HOME {@code /home/ubuntu}: shared/notes/gpu-and-runtime.md).
 */
public record ImageModel(List<User> users, Optional<String> envHome) {

    /** One passwd entry of the image. */
    public record User(String name, long uid, long gid, String home) {
        String passwdLine() {
            return name + ":x:" + uid + ":" + gid + "::" + home + ":/bin/bash";
        }
    }

    /** The NIM image as the tier models it. */
    public static final ImageModel NIM = new ImageModel(
            List.of(new User("root", 0, 0, "/root"), new User("ubuntu", 1000, 1000, "/home/ubuntu")), Optional.empty());

    /** The image's passwd entry for a uid, if it has one. */
    public Optional<User> user(long uid) {
        return users.stream().filter(u -> u.uid() == uid).findFirst();
    }

    /** HOME as the runtime sets it for a process of this uid (before the pod's env, which may replace it). */
    public String runtimeHome(long uid) {
        return envHome.orElseGet(() -> user(uid).map(User::home).orElse("/"));
    }

    /** The home directories the image holds under /home (uid and gid of their owner), as "path\tuid\tgid" lines. */
    String homeDirectories() {
        StringBuilder out = new StringBuilder();
        for (User u : users) {
            if (u.home().startsWith("/home/")) {
                out.append(u.home()).append('\t').append(u.uid()).append('\t').append(u.gid()).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The image's /etc/passwd: the host's system entries stand for the base image's (root, nobody, sshd, ...), less any
     * that share a uid or name with one of the image's own users or with the uid the pod runs (a uid the image does not
     * declare has no entry), then the image's users.
     */
    String passwd(List<String> hostPasswd, long podUid) {
        StringBuilder out = new StringBuilder();
        for (String line : hostPasswd) {
            String[] f = line.split(":");
            if (f.length < 3) {
                continue;
            }
            boolean taken = f[2].equals(Long.toString(podUid))
                    || users.stream().anyMatch(u -> u.name().equals(f[0]) || Long.toString(u.uid()).equals(f[2]));
            if (!taken) {
                out.append(line).append('\n');
            }
        }
        users.forEach(u -> out.append(u.passwdLine()).append('\n'));
        return out.toString();
    }

    /** The image's /etc/group: the host's groups, less those sharing a gid or name with an image user's, then one group per image user. */
    String group(List<String> hostGroup) {
        StringBuilder out = new StringBuilder();
        for (String line : hostGroup) {
            String[] f = line.split(":");
            if (f.length < 3) {
                continue;
            }
            boolean taken = users.stream().anyMatch(u -> u.name().equals(f[0]) || Long.toString(u.gid()).equals(f[2]));
            if (!taken) {
                out.append(line).append('\n');
            }
        }
        users.forEach(u -> out.append(u.name()).append(":x:").append(u.gid()).append(":\n"));
        return out.toString();
    }
}
