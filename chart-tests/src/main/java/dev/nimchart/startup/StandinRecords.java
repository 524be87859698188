package dev.nimchart.startup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the stand-in for NIM's server shares through the claims' directories of a run: each rank's record
 * ({@code .nim-standin/<group>/*.json} under the cache path, wherever a claim holds it), and the marker that lets a
 * stand-in started with STANDIN_HOLD_READY=1 answer ready.
 */
final class StandinRecords {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path claims;

    /** The records under {@code claims}, the run's directory of claims and shared volumes. */
    StandinRecords(Path claims) {
        this.claims = claims;
    }

    /**
     * What every rank the stand-in ran as recorded. The stand-in writes each record to a temporary name and renames it,
     * so only the directories are listed, by name, and a record is read only once it has its final name; a temporary
     * file that vanishes while listed is no record yet.
     */
    List<Map<String, Object>> all() {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Path> standins = new ArrayList<>();
        standinDirectories(claims, standins);
        for (Path standin : standins) {
            for (Path pod : entries(standin, "*")) {
                for (Path f : entries(pod, "*.json")) {
                    try {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> record = JSON.readValue(Files.readString(f), Map.class);
                        out.add(record);
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read the stand-in's record " + f, e);
                    }
                }
            }
        }
        return out;
    }

    /** Lets every stand-in started with STANDIN_HOLD_READY=1 answer ready (once all its ranks joined). */
    void releaseReadiness() {
        try (Stream<Path> dirs = Files.walk(claims, 2)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().equals(".nim-standin") && Files.isDirectory(p)).toList()) {
                Files.writeString(d.resolve("release"), "");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every directory named .nim-standin under dir (the cache path may be a sub-directory of a claim). */
    private static void standinDirectories(Path dir, List<Path> found) {
        for (Path entry : entries(dir, "*")) {
            if (entry.getFileName().toString().equals(".nim-standin")) {
                found.add(entry);
            } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                standinDirectories(entry, found);
            }
        }
    }

    /** The entries of a directory whose names match the glob, none when it does not exist (yet). */
    private static List<Path> entries(Path dir, String glob) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob)) {
            List<Path> out = new ArrayList<>();
            stream.forEach(out::add);
            out.sort(null);
            return out;
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
