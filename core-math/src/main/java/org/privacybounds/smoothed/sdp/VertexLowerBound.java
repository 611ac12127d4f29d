package org.privacybounds.smoothed.sdp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * A certified lower bound on the value of one assignment, every record on one vertex v: {@code E[delta(H)]},
 * H ~ Multinomial(n, p_v), which is at most delta_SDP (Algorithm 1 maximises over assignments).
 *
 * <p>For one pair of categories {a, b} (the pair and the vertex with the largest divergence at the vertex's mean histogram),
 * {@code delta(H) >= pair(H) >= pair(upper corner of C)} for H in a cell C of the (h_a, h_b) plane ({@link PairDivergence}), so
 * {@code E[delta(H)] >= sum over cells of P((H_a, H_b) in C) pair(upper corner)}. The cells start as a grid over
 * [c - 8 sigma, c + 5 sigma] in each coordinate, c where the law tilted by the pair's slope at the mean peaks (the slope
 * from two evaluations one sigma below the mean), 4 to 24 cells per side as the budget allows, and are split in four where
 * probability times the spread of the pair's values over the cell (its lower corner gives the largest value) is largest.
 *
 * <p>Cell probabilities: with r the coordinate of the pair with the larger share and c the other, H_c given H_r = h is
 * Binomial(n - h, p_c / (1 - p_r)), whose CDF grows with h. Over a sub-row {@code [s0, s1]} of the cell, P(H_c in [c0, c1] | h)
 * is at least {@code F(c1 | s0) - F(c0 - 1 | s1)}; the cell is split in 32 sub-rows. CDFs are Commons Statistics' binomial
 * (the regularized incomplete beta), taken on the side where they are small (CDF below the median, survival above) and
 * lowered by 1e-12 relative each, far more than their rounding (validated against exact sums of the pmf in the tests).
 */
final class VertexLowerBound {
    private static final int SUB_ROWS = 32;
    private static final double CDF_MARGIN = 1e-12;

    private VertexLowerBound() {
    }

    /** ln of the lower bound, its vertex and pair, the cells and evaluations it took. */
    record Result(double logLower, int vertex, int[] pair, int cells, int evaluations) {
    }

    /** A cell [r0, r1] x [c0, c1]: ln of its probability's lower bound, ln pair at its upper and lower corners. */
    private record Cell(long r0, long r1, long c0, long c1, double logP, double logLow, double logHigh) {
        double logGain() {
            if (logP == Double.NEGATIVE_INFINITY || logHigh == Double.NEGATIVE_INFINITY) {
                return Double.NEGATIVE_INFINITY;
            }
            return logHigh <= logLow ? Double.NEGATIVE_INFINITY : logP + logHigh + LogMath.log1mexp(logLow - logHigh);
        }

        boolean splittable() {
            return r1 > r0 || c1 > c0;
        }
    }

    static Result of(PairDivergence pair, DistributionSet vertices, double eps, MonotoneBounds.PairSource source, MonotoneBounds.Options options) {
        long n = pair.n();
        int m = vertices.categories();
        // the vertex and pair with the largest divergence at the vertex's mean histogram
        List<long[]> points = new ArrayList<>();
        List<int[]> which = new ArrayList<>();
        for (int v = 0; v < vertices.size(); v++) {
            double[] p = vertices.get(v);
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    long ha = Math.max(1, Math.round(n * p[a]));
                    long hb = Math.max(1, Math.round(n * p[b]));
                    if (p[a] > 0 && p[b] > 0 && ha + hb <= n) {
                        points.add(new long[] {ha, hb});
                        which.add(new int[] {v, a, b});
                    }
                }
            }
        }
        if (points.isEmpty()) {
            return new Result(Double.NEGATIVE_INFINITY, 0, new int[] {0, 1}, 0, 0);
        }
        double[][] first = MonotoneBounds.evaluate(points, eps, source);
        int best = 0;
        for (int i = 1; i < first.length; i++) {
            if (first[i][0] > first[best][0]) {
                best = i;
            }
        }
        int[] w = which.get(best);
        double[] p = vertices.get(w[0]);
        boolean aIsRow = p[w[1]] >= p[w[2]];
        Grid g = new Grid(pair, eps, source, n, aIsRow ? p[w[1]] : p[w[2]], aIsRow ? p[w[2]] : p[w[1]]);
        g.evaluations = points.size();
        long[] at = points.get(best);
        double logLower = g.refine(options, aIsRow ? at[0] : at[1], aIsRow ? at[1] : at[0], first[best][0]);
        return new Result(logLower, w[0], new int[] {w[1], w[2]}, g.cellCount, g.evaluations);
    }

    /** The quadtree over (h_r, h_c) with its cache of pair values. */
    private static final class Grid {
        private final PairDivergence pair;
        private final double eps;
        private final MonotoneBounds.PairSource source;
        private final long n;
        private final double pr;
        private final double pc;
        private final Map<Long, Double> lowCache = new HashMap<>();
        private final Map<Long, Double> highCache = new HashMap<>();
        int evaluations;
        int cellCount;

        Grid(PairDivergence pair, double eps, MonotoneBounds.PairSource source, long n, double pr, double pc) {
            this.pair = pair;
            this.eps = eps;
            this.source = source;
            this.n = n;
            this.pr = pr;
            this.pc = pc;
        }

        /** The lower bound, from the pair's value at the mean histogram (mr, mc). */
        double refine(MonotoneBounds.Options options, long mr, long mc, double atMean) {
            double sr = Math.sqrt(n * pr * (1 - pr));
            double sc = Math.sqrt(n * pc * (1 - pc));
            // where the mass of P(h) pair(h) lies: the law tilted by the pair's slope at the mean (ln pair grows by g per sigma
            // downwards, so the tilted law peaks about g sigma below the mean); two evaluations measure g in each coordinate
            List<long[]> probe = List.of(new long[] {Math.max(1, mr - Math.round(sr)), mc}, new long[] {mr, Math.max(1, mc - Math.round(sc))});
            double[][] v = MonotoneBounds.evaluate(probe, eps, source);
            evaluations += probe.size();
            double gr = Math.max(0, v[0][0] - atMean);
            double gc = Math.max(0, v[1][0] - atMean);
            int perAxis = (int) Math.max(4, Math.min(24, Math.sqrt(0.5 * options.maxEvaluations())));
            long[] rows = edges(n * pr - gr * sr, sr, perAxis);
            long[] cols = edges(n * pc - gc * sc, sc, perAxis);
            List<Cell> pending = new ArrayList<>();
            for (int i = 0; i + 1 < rows.length; i++) {
                for (int j = 0; j + 1 < cols.length; j++) {
                    long r0 = rows[i];
                    long r1 = rows[i + 1] - 1;
                    long c0 = cols[j];
                    long c1 = Math.min(cols[j + 1] - 1, n - r1);
                    if (r0 <= r1 && c0 <= c1) {
                        pending.add(new Cell(r0, r1, c0, c1, 0, 0, 0));
                    }
                }
            }
            PriorityQueue<Cell> cells = new PriorityQueue<>((x, y) -> Double.compare(y.logGain(), x.logGain()));
            cells.addAll(complete(pending));
            while (evaluations < options.maxEvaluations()) {
                double lower = total(cells);
                LogSumExp gain = new LogSumExp();
                for (Cell c : cells) {
                    gain.add(c.logGain());
                }
                if (cells.isEmpty() || !(gain.log() >= lower + Math.log(options.relativeGain()))) {
                    break;
                }
                List<Cell> split = new ArrayList<>();
                List<Cell> keep = new ArrayList<>();
                int room = Math.max(4, Math.min(256, 4 * (options.maxEvaluations() - evaluations) / 6));
                while (split.size() < room && !cells.isEmpty() && cells.peek().logGain() > Double.NEGATIVE_INFINITY) {
                    Cell c = cells.poll();
                    if (!c.splittable()) {
                        keep.add(c);
                        continue;
                    }
                    long rm = c.r0 + (c.r1 - c.r0) / 2;
                    long cm = c.c0 + (c.c1 - c.c0) / 2;
                    long[][] rs = c.r1 > c.r0 ? new long[][] {{c.r0, rm}, {rm + 1, c.r1}} : new long[][] {{c.r0, c.r1}};
                    long[][] cs = c.c1 > c.c0 ? new long[][] {{c.c0, cm}, {cm + 1, c.c1}} : new long[][] {{c.c0, c.c1}};
                    for (long[] r : rs) {
                        for (long[] cc : cs) {
                            split.add(new Cell(r[0], r[1], cc[0], cc[1], 0, 0, 0));
                        }
                    }
                }
                cells.addAll(keep);
                if (split.isEmpty()) {
                    break;
                }
                cells.addAll(complete(split));
            }
            cellCount = cells.size();
            // lowered by 1e-12 for the rounding of the sum itself (every term is already a lower value)
            return total(cells) - MonotoneBounds.SUM_ROUNDING;
        }

        private static double total(Iterable<Cell> cells) {
            LogSumExp s = new LogSumExp();
            for (Cell c : cells) {
                s.add(c.logP + c.logLow);
            }
            return s.log();
        }

        /** The edges of k cells over [center - 8 sigma, center + 5 sigma], clamped to [1, n + 1]. */
        private long[] edges(double center, double sigma, int cells) {
            List<Long> e = new ArrayList<>();
            double step = Math.max(1, 13 * sigma / cells);
            long last = Long.MIN_VALUE;
            for (double x = center - 8 * sigma; x <= center + 5 * sigma + step / 2; x += step) {
                long k = Math.max(1, Math.min(n + 1, (long) Math.floor(x)));
                if (k > last) {
                    e.add(k);
                    last = k;
                }
            }
            return e.stream().mapToLong(Long::longValue).toArray();
        }

        /** The pair values at the new cells' corners (one batch) and their probabilities. */
        private List<Cell> complete(List<Cell> cells) {
            List<long[]> need = new ArrayList<>();
            for (Cell c : cells) {
                want(need, c.r1, c.c1);
                want(need, c.r0, c.c0);
            }
            double[][] v = MonotoneBounds.evaluate(need, eps, source);
            evaluations += need.size();
            for (int i = 0; i < v.length; i++) {
                long key = key(need.get(i)[0], need.get(i)[1]);
                lowCache.put(key, v[i][1] >= 1 ? Double.NEGATIVE_INFINITY : v[i][0] + Math.log1p(-v[i][1]));
                highCache.put(key, v[i][0] + Math.log1p(v[i][1]));
            }
            List<Cell> out = new ArrayList<>();
            for (Cell c : cells) {
                double low = lowCache.getOrDefault(key(c.r1, c.c1), Double.NEGATIVE_INFINITY);
                double high = highCache.getOrDefault(key(c.r0, c.c0), pair.mechanism().logDpDelta(n));
                out.add(new Cell(c.r0, c.r1, c.c0, c.c1, logCellProbability(n, pr, pc, c.r0, c.r1, c.c0, c.c1), low, high));
            }
            return out;
        }

        private void want(List<long[]> need, long r, long c) {
            if (r >= 1 && c >= 1 && r + c <= n && !lowCache.containsKey(key(r, c))) {
                lowCache.put(key(r, c), Double.NaN); // claimed; filled after the batch
                need.add(new long[] {r, c});
            }
        }

        private long key(long r, long c) {
            return r * (n + 1) + c;
        }
    }

    /**
     * ln of a lower bound on {@code P(H_r in [r0, r1], H_c in [c0, c1])} for (H_r, H_c, rest) ~ Multinomial(n; pr, pc, 1 - pr - pc),
     * in sub-rows (see the class comment).
     */
    static double logCellProbability(long n, double pr, double pc, long r0, long r1, long c0, long c1) {
        BinomialDistribution rowLaw = BinomialDistribution.of((int) n, pr);
        LogSumExp s = new LogSumExp();
        long width = r1 - r0 + 1;
        int subs = (int) Math.min(SUB_ROWS, width);
        double pi = pr >= 1 ? 0 : Math.min(1, pc / (1 - pr));
        for (int k = 0; k < subs; k++) {
            long s0 = r0 + width * k / subs;
            long s1 = r0 + width * (k + 1) / subs - 1;
            double rowP = between(rowLaw, rowLaw, s0, s1);
            if (rowP <= 0 || s0 > n) {
                continue;
            }
            // P(H_c <= c1 | s0) - P(H_c <= c0 - 1 | s1): the conditional CDF grows with the row count
            double colP = between(BinomialDistribution.of((int) (n - s0), pi), BinomialDistribution.of((int) Math.max(0, n - s1), pi), c0, c1);
            if (colP > 0) {
                s.add(Math.log(rowP) + Math.log(colP));
            }
        }
        return s.log();
    }

    /** {@code P_upper(X <= hi) - P_lower(X <= lo - 1)} lowered for rounding: the first law for hi, the second for lo - 1. */
    private static double between(BinomialDistribution forHi, BinomialDistribution forLo, long lo, long hi) {
        double median = forHi.getMean();
        double diff;
        double scale;
        if (hi <= median) {
            double a = forHi.cumulativeProbability((int) Math.min(Integer.MAX_VALUE, hi));
            double b = lo <= 0 ? 0 : forLo.cumulativeProbability((int) Math.min(Integer.MAX_VALUE, lo - 1));
            diff = a - b;
            scale = Math.max(a, b);
        } else {
            double a = lo <= 0 ? 1 : forLo.survivalProbability((int) Math.min(Integer.MAX_VALUE, lo - 1));
            double b = forHi.survivalProbability((int) Math.min(Integer.MAX_VALUE, hi));
            diff = a - b;
            scale = Math.max(a, b);
        }
        return diff - 2 * CDF_MARGIN * scale;
    }
}
