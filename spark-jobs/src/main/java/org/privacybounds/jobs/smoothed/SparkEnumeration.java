package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.smoothed.sdp.VertexEnumeration;

/**
 * Algorithm 1 exactly for any m and number of vertices, on the executors ({@link VertexEnumeration}): first delta(H) of
 * every histogram in ranges of ranks, then the assignments in ranges of the first vertex's count, balanced by their cost,
 * in a few Spark jobs so that progress and an ETA can be reported between them. Every assignment is evaluated.
 */
final class SparkEnumeration {
    private SparkEnumeration() {
    }

    /**
     * Ranges of the first vertex's count per partition in the assignments' stage, each one task that builds the last vertex's
     * tables (so the work estimate counts them, {@link SmoothedRunner#estimate}).
     */
    static final int RANGES_PER_PARTITION = 6;

    static List<SmoothedValue> run(SparkSession spark, int n, SamplingHistogramMechanism mechanism, DistributionSet vertices, double[] eps, int partitions,
            Consumer<String> progress) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int m = vertices.categories();
        int l = vertices.size();
        int histograms = VertexEnumeration.histograms(n, m);
        Table t = table(spark, n, mechanism, m, eps, partitions, progress);
        double[][] logDelta = t.logDelta();
        double relErr = t.relErr();
        // stage 2: the assignments, in ranges of the first count of about equal cost, a few jobs for progress
        Broadcast<double[][]> table = jsc.broadcast(logDelta);
        List<int[]> work = balanced(n, m, l, Math.max(1, partitions) * RANGES_PER_PARTITION);
        VertexEnumeration.Best best = null;
        long t1 = System.nanoTime();
        // a job per round of ranges, one range a partition: at n = 1,000 on 2 cores a range takes about a minute, and the
        // first progress line (with an ETA) came after a third of the work when a job held two rounds (the best is a max
        // with a tie-break on the assignment, so the grouping leaves the values as they are)
        int batch = Math.max(1, partitions);
        for (int start = 0; start < work.size(); start += batch) {
            List<int[]> slice = work.subList(start, Math.min(work.size(), start + batch));
            VertexEnumeration.Best part = jsc.parallelize(new ArrayList<>(slice), slice.size())
                    .map(r -> VertexEnumeration.search(n, vertices, table.value(), r[0], r[1])).reduce(VertexEnumeration.Best::merge);
            best = best == null ? part : best.merge(part);
            double done = (double) (start + slice.size()) / work.size();
            double elapsed = (System.nanoTime() - t1) / 1e9;
            progress.accept(String.format(Locale.ROOT, "assignments: %d/%d ranges done, %,d evaluated, %.1f s, ETA %.0f s", start + slice.size(), work.size(),
                    best.evaluated(), elapsed, elapsed / done * (1 - done)));
        }
        table.destroy();
        List<SmoothedValue> out = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            // delta_SDP <= 1: a value a few ulps above 0 in log space is rounding
            double v = Math.min(0, best.logDelta()[e]);
            out.add(new SmoothedValue(eps[e], v, best.argmax()[e], relErr + 1e-12, String.format(Locale.ROOT,
                    "exact: every one of the %,d assignments and %,d histograms, on the executors", best.evaluated(), histograms), best.evaluated(), 0));
        }
        return out;
    }

    /** ln delta(H) of every histogram by rank, [eps][rank], and the largest relative error bound among them. */
    record Table(double[][] logDelta, double relErr) {
    }

    /** Stage 1: delta(H) for every histogram of n records over m categories, in ranges of ranks on the executors. */
    static Table table(SparkSession spark, int n, SamplingHistogramMechanism mechanism, int m, double[] eps, int partitions, Consumer<String> progress) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        VertexEnumeration.check(n, m);
        int histograms = VertexEnumeration.histograms(n, m);
        long t0 = System.nanoTime();
        int chunks = Math.max(1, Math.min(histograms, 4 * partitions));
        List<int[]> ranges = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            ranges.add(new int[] {(int) ((long) histograms * c / chunks), (int) ((long) histograms * (c + 1) / chunks)});
        }
        List<double[][]> parts = jsc.parallelize(ranges, chunks).map(r -> VertexEnumeration.deltas(mechanism, n, m, eps, r[0], r[1])).collect();
        double[][] logDelta = new double[eps.length][histograms];
        double relErr = 0;
        for (int c = 0; c < chunks; c++) {
            int[] r = ranges.get(c);
            for (int e = 0; e < eps.length; e++) {
                System.arraycopy(parts.get(c)[e], 0, logDelta[e], r[0], r[1] - r[0]);
                relErr = Math.max(relErr, parts.get(c)[e][r[1] - r[0]]);
            }
        }
        progress.accept(String.format(Locale.ROOT, "delta of all %,d histograms of %d records over %d categories in %.1f s", histograms, n, m,
                (System.nanoTime() - t0) / 1e9));
        return new Table(logDelta, relErr);
    }

    /**
     * Ranges of the first vertex's count with about equal cost: the count n1 costs about the sum, over the records k = n1..n of
     * the first l - 1 vertices, of the assignments of the middle vertices to k - n1 records times the histograms of k records.
     */
    static List<int[]> balanced(int n, int m, int l, int pieces) {
        double[] cost = new double[n + 1];
        double total = 0;
        for (int n1 = 0; n1 <= n; n1++) {
            double c = 0;
            if (l <= 2) {
                c = binomial(n1 + m - 1, m - 1);
            } else {
                for (int k = n1; k <= n; k++) {
                    c += binomial(k - n1 + l - 3, l - 3) * binomial(k + m - 1, m - 1);
                }
            }
            cost[n1] = c;
            total += c;
        }
        List<int[]> out = new ArrayList<>();
        double target = total / pieces;
        int from = 0;
        double acc = 0;
        for (int n1 = 0; n1 <= n; n1++) {
            acc += cost[n1];
            if (acc >= target || n1 == n) {
                out.add(new int[] {from, n1 + 1});
                from = n1 + 1;
                acc = 0;
            }
        }
        if (l == 1) {
            return List.of(new int[] {0, n + 1});
        }
        return out;
    }

    private static double binomial(int a, int b) {
        if (b < 0 || b > a) {
            return 0;
        }
        return Math.exp(LogBinomialCoefficient.value(a, b));
    }

    static String describe(int[] r) {
        return Arrays.toString(r);
    }
}
