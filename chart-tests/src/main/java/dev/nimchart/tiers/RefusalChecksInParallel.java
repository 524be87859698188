package dev.nimchart.tiers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** The cluster tiers' refusal checks, run on many files at once. */
public final class RefusalChecksInParallel {

    private RefusalChecksInParallel() {
    }

    /**
     * Runs {@code check} on every file, as many at a time as the machine has cores, and returns what each threw. Only for
     * refusals: a refused install creates nothing but its own namespace, so no two of them share any state, and on one
     * core each waits on Helm's render and the API server in turn.
     */
    public static Map<Path, Optional<Throwable>> run(List<Path> files, Consumer<Path> check) {
        Map<Path, Optional<Throwable>> results = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.max(1, Math.min(files.size(), Runtime.getRuntime().availableProcessors())), r -> {
                    Thread t = new Thread(r, "refusal-checks");
                    t.setDaemon(true);
                    return t;
                });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (Path f : files) {
                running.add(pool.submit(() -> {
                    try {
                        check.accept(f);
                        results.put(f, Optional.empty());
                    } catch (Throwable t) {
                        results.put(f, Optional.of(t));
                    }
                }));
            }
            for (Future<?> r : running) {
                r.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking refusals", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a refusal check failed outside its file", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return results;
    }

    /** What a check threw, if anything. */
    public static Optional<Throwable> failureOf(Runnable check) {
        try {
            check.run();
            return Optional.empty();
        } catch (Throwable t) {
            return Optional.of(t);
        }
    }

    /** Throws what a check threw, as it was (a checked exception wrapped). */
    public static void rethrow(Optional<Throwable> failure) {
        if (failure.isEmpty()) {
            return;
        }
        Throwable t = failure.get();
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
