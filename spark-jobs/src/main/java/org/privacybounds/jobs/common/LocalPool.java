package org.privacybounds.jobs.common;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.spark.api.java.JavaSparkContext;

/**
 * Driver-sized work on a local master without Spark: a fork-join pool of the master's cores ({@link SparkSessions#localThreads}).
 * Parallel streams started inside {@link #call} run in that pool, so {@code --master local[1]} really uses one thread.
 * {@link #map} reports progress like Spark stages do ({@link Progress}).
 */
public final class LocalPool {
    private LocalPool() {
    }

    /** Runs {@code work} in a pool of {@code threads} threads; an unchecked exception of the work is rethrown as it is. */
    public static <R> R call(int threads, Supplier<R> work) {
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            return pool.submit(work::get).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
    }

    /**
     * {@code f} of every item, in the items' order: on Spark ({@code parts} partitions) when {@code jsc} is given, else on
     * {@code threads} driver threads.
     */
    public static <T, R> List<R> distribute(JavaSparkContext jsc, int threads, List<T> items, int parts,
            org.apache.spark.api.java.function.Function<T, R> f) {
        if (jsc != null) {
            return jsc.parallelize(items, Math.max(1, parts)).map(f).collect();
        }
        return map(threads, items, x -> {
            try {
                return f.call(x);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** {@code f} of every item, in the items' order, on {@code threads} threads. */
    public static <T, R> List<R> map(int threads, List<T> items, Function<T, R> f) {
        Progress.Driver progress = Progress.driver(items.size());
        return call(threads, () -> items.parallelStream().map(x -> {
            R r = f.apply(x);
            progress.done();
            return r;
        }).toList());
    }
}
