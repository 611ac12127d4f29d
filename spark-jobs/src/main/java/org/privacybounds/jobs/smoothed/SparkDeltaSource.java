package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.twocategory.DeltaSource;
import org.privacybounds.smoothed.sdp.twocategory.LargeNSmoothed;

import scala.Tuple2;

/**
 * Stage 1 on Spark: ln delta(h) for a batch of h, for every eps of the run in one pass, with the
 * batch cut into contiguous ranges of h that are spread over the executors. Small batches are
 * computed on the driver (a Spark job costs more than they do).
 */
final class SparkDeltaSource implements DeltaSource {
    private static final int LOCAL_BELOW = 256;

    private final SparkSession spark;
    private final Sampling sampling;
    private final long sampleSize;
    private final long n;
    private final double[] eps;
    private final int partitions;
    private final Consumer<String> progress;

    SparkDeltaSource(SparkSession spark, Sampling sampling, long sampleSize, long n, double[] eps, int partitions, Consumer<String> progress) {
        this.spark = spark;
        this.sampling = sampling;
        this.sampleSize = sampleSize;
        this.n = n;
        this.eps = eps.clone();
        this.partitions = partitions;
        this.progress = progress;
    }

    @Override
    public double[][] logDelta(long[] hs, boolean[] which) {
        final boolean[] w = which.clone();
        if (hs.length < LOCAL_BELOW) {
            return compute(hs, sampling, sampleSize, n, eps, w);
        }
        long t0 = System.nanoTime();
        int parts = Math.max(1, Math.min(partitions * 4, hs.length / 64));
        List<long[]> chunks = new ArrayList<>();
        int size = (hs.length + parts - 1) / parts;
        for (int i = 0; i < hs.length; i += size) {
            chunks.add(Arrays.copyOfRange(hs, i, Math.min(hs.length, i + size)));
        }
        final Sampling s = sampling;
        final long t = sampleSize;
        final long nn = n;
        final double[] e = eps;
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Tuple2<long[], double[][]>> out = jsc.parallelize(chunks, chunks.size())
                .map(chunk -> new Tuple2<>(chunk, compute(chunk, s, t, nn, e, w)))
                .collect();
        double[][] result = new double[hs.length][];
        int pos = 0;
        for (Tuple2<long[], double[][]> r : out) { // collect keeps the order of the chunks
            for (double[] v : r._2()) {
                result[pos++] = v;
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        int count = 0;
        for (boolean b : w) {
            count += b ? 1 : 0;
        }
        progress.accept(String.format("stage 1: delta(h) for %d values of h x %d eps in %.1f s (%.0f h/s) on %d partitions",
                hs.length, count, secs, hs.length / Math.max(secs, 1e-9), chunks.size()));
        return result;
    }

    static double[][] compute(long[] hs, Sampling sampling, long sampleSize, long n, double[] eps, boolean[] which) {
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(sampling, sampleSize);
        double[][] out = new double[hs.length][];
        for (int i = 0; i < hs.length; i++) {
            out[i] = LargeNSmoothed.logDeltas(m, n, hs[i], eps, which);
        }
        return out;
    }
}
