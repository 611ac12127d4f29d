package org.privacybounds.smoothed.sdp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.numeric.Compositions;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.validation.BadInputException;

/**
 * The slow reference for delta_SDP (Liu, Wang and Xia, "Smoothed Differential Privacy", Algorithm 1), as the paper writes it:
 * full enumeration, for any number m of categories and any number l* of
 * vertices: delta(H) for every histogram H of n records, then for every assignment
 * (n_1..n_l*) of the n records to the vertices the expectation E[delta(hist(x))] under the
 * sum of independent multinomials, and the maximum with its argmax. Every assignment is evaluated
 * (no grid, no truncation); exact in log space. For small n: the number of histograms is
 * C(n+m-1, m-1) and of assignments C(n+l*-1, l*-1).
 */
public final class ReferenceAlgorithm1 {
    /** Largest (assignments x histograms x categories) the enumeration accepts. */
    public static final double WORK_LIMIT = 2e8;

    private ReferenceAlgorithm1() {
    }

    /** delta_SDP(eps) for every eps, over the vertices of Pi (the caller reduces Pi first). */
    public static List<SmoothedValue> enumerate(SamplingHistogramMechanism mechanism, int n, DistributionSet vertices, double[] eps) {
        int m = vertices.categories();
        int l = vertices.size();
        double histograms = binomial(n + m - 1, m - 1);
        double assignments = binomial(n + l - 1, l - 1);
        // the walk over assignments adds about (assignments x n) records, each touching every histogram
        if (histograms * assignments * n * m > WORK_LIMIT || histograms > 2e6) {
            throw new BadInputException("n", n, String.format(
                    "full enumeration needs about %.2g histograms x %.2g assignments (limit %.0g operations) for m = %d and %d vertices; "
                            + "the large-n method covers m = 2 with at most two vertices, sampling without replacement; otherwise use a smaller n", histograms, assignments, WORK_LIMIT, m, l));
        }
        // every histogram of n records, and delta(H) for each eps
        List<int[]> all = Compositions.of(n, m);
        Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            index.put(key(all.get(i), n), i);
        }
        double[][] logDelta = new double[eps.length][all.size()];
        double[][] relErr = new double[eps.length][all.size()];
        for (int i = 0; i < all.size(); i++) {
            for (int e = 0; e < eps.length; e++) {
                var v = mechanism.profile(all.get(i), eps[e]);
                logDelta[e][i] = v.logDelta();
                relErr[e][i] = v.relativeErrorBound();
            }
        }
        double[][] logPi = new double[l][m];
        for (int j = 0; j < l; j++) {
            double[] p = vertices.get(j);
            for (int c = 0; c < m; c++) {
                logPi[j][c] = Math.log(p[c]);
            }
        }
        double[] best = new double[eps.length];
        Arrays.fill(best, Double.NEGATIVE_INFINITY);
        int[][] arg = new int[eps.length][];
        long[] count = {0};
        Map<Long, Double> start = new HashMap<>();
        start.put(0L, 0.0);
        dfs(0, n, new int[l], start, logPi, n, m, index, logDelta, best, arg, count);
        double maxErr = 0;
        for (double[] r : relErr) {
            for (double x : r) {
                maxErr = Math.max(maxErr, x);
            }
        }
        List<SmoothedValue> out = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            out.add(new SmoothedValue(eps[e], best[e], arg[e], maxErr + 1e-12,
                    "exact: full enumeration of all " + count[0] + " assignments and " + all.size() + " histograms", count[0], 0));
        }
        return out;
    }

    private static void dfs(int vertex, int remaining, int[] assignment, Map<Long, Double> law, double[][] logPi, int n, int m,
            Map<Long, Integer> index, double[][] logDelta, double[] best, int[][] arg, long[] count) {
        int l = logPi.length;
        if (vertex == l - 1) {
            Map<Long, Double> cur = law;
            for (int r = 0; r < remaining; r++) {
                cur = addOne(cur, logPi[vertex], n, m);
            }
            assignment[vertex] = remaining;
            count[0]++;
            for (int e = 0; e < best.length; e++) {
                LogSumExp acc = new LogSumExp();
                for (Map.Entry<Long, Double> en : cur.entrySet()) {
                    acc.add(en.getValue() + logDelta[e][index.get(en.getKey())]);
                }
                double v = acc.log();
                if (v > best[e] || arg[e] == null) {
                    best[e] = v;
                    arg[e] = assignment.clone();
                }
            }
            return;
        }
        Map<Long, Double> cur = law;
        for (int take = 0; take <= remaining; take++) {
            assignment[vertex] = take;
            dfs(vertex + 1, remaining - take, assignment, cur, logPi, n, m, index, logDelta, best, arg, count);
            if (take < remaining) {
                cur = addOne(cur, logPi[vertex], n, m);
            }
        }
    }

    /** The law of the histogram after one more record drawn from a distribution (log space). */
    private static Map<Long, Double> addOne(Map<Long, Double> law, double[] logP, int n, int m) {
        Map<Long, LogSumExp> next = new HashMap<>();
        for (Map.Entry<Long, Double> en : law.entrySet()) {
            long stride = 1;
            for (int c = 0; c < m; c++) {
                if (logP[c] > Double.NEGATIVE_INFINITY) {
                    next.computeIfAbsent(en.getKey() + stride, k -> new LogSumExp()).add(en.getValue() + logP[c]);
                }
                stride *= n + 1;
            }
        }
        Map<Long, Double> out = new HashMap<>();
        next.forEach((k, v) -> out.put(k, v.log()));
        return out;
    }

    static long key(int[] h, int n) {
        long k = 0;
        long stride = 1;
        for (int v : h) {
            k += v * stride;
            stride *= n + 1;
        }
        return k;
    }


    static double binomial(int n, int k) {
        return Math.exp(LogBinomialCoefficient.value(n, k));
    }

    /** ln of a value printed by tests. */
    static double log10(double ln) {
        return LogMath.toLog10(ln);
    }
}
