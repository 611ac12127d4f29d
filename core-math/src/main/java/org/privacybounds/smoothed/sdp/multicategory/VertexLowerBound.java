package org.privacybounds.smoothed.sdp.multicategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * A certified lower bound on the value of one assignment, every record on one vertex v: {@code E[delta(H)]},
 * H ~ Multinomial(n, p_v), which is at most delta_SDP (Algorithm 1 maximises over assignments).
 *
 * <p>For one pair of categories {a, b} (the pair and the vertex with the largest divergence at the vertex's mean histogram),
 * {@code delta(H) >= pair(H) >= pair(upper corner of C)} for H in a cell C of the (h_a, h_b) plane ({@link PairDivergence}), so
 * {@code E[delta(H)] >= sum over cells of P((H_a, H_b) in C) pair(upper corner)}. The cells start as a grid over
 * [c - 8 sigma, c + 8 sigma] in each coordinate (sigma at least one count), c where the law tilted by the pair's slope at the mean peaks (the slope
 * from two evaluations one sigma below the mean; where that is more than 4 sigma out, the peak of the law times the pair
 * along that direction, {@link #peak}), 4 to 24 cells per side as the budget allows, and are split in four where
 * probability times the spread of the pair's values over the cell (its lower corner gives the largest value) is largest
 * ({@link PlaneCells}, whose cell probabilities are lowered for their binomial CDFs' rounding).
 *
 * <p>Where a vertex has a category of share 0, that vertex's value is the DP delta exactly ({@link #zeroShare}), reported with
 * no cells.
 */
final class VertexLowerBound {
    private VertexLowerBound() {
    }

    /**
     * ln of the lower bound, its vertex and pair, the cells and evaluations it took, what its cells could still gain and the
     * share of the whole budget it used: no cells where a vertex has a category of
     * share 0 ({@link #zeroShare}: the value is then the DP delta exactly) or where no pair can be evaluated (the bound -infinity).
     */
    record Result(double logLower, int vertex, int[] pair, int cells, int evaluations, double logGainLeft, double usedShare) {
    }

    static Result of(PairDivergence pair, DistributionSet vertices, double eps, MonotoneBounds.PairSource source, MonotoneBounds.Options options) {
        return of(pair, vertices, eps, source, options, new HashMap<>(), Double.POSITIVE_INFINITY, 1);
    }

    /**
     * {@link #of} keeping its cells' pair values in {@code cache} (see {@link PlaneCells}); {@code logUpper}: ln of an upper
     * bound on the same value (+infinity if none), against which refinement stops ({@link PlaneCells#run}); {@code share}: of
     * the budget of {@code options}, which sets the starting grid (so that a run after one with a smaller share starts from
     * the same cells, and finds that run's points in the cache).
     */
    static Result of(PairDivergence pair, DistributionSet vertices, double eps, MonotoneBounds.PairSource source, MonotoneBounds.Options options,
            Map<Long, double[]> cache, double logUpper, double share) {
        long n = pair.n();
        int m = vertices.categories();
        int[] zero = zeroShare(vertices);
        if (zero != null) {
            return new Result(pair.mechanism().logDpDelta(n), zero[0], new int[] {zero[1], zero[2]}, 0, 0, Double.NEGATIVE_INFINITY, 0);
        }
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
            return new Result(Double.NEGATIVE_INFINITY, 0, new int[] {0, 1}, 0, 0, Double.NEGATIVE_INFINITY, 0);
        }
        double[][] first = MonotoneBounds.evaluate(points, eps, source);
        // the candidates ranked by the pair at the vertex's mean, except where the smaller count's mean is at most one record:
        // the pair is the DP delta there (a count of 0 or 1 moved out is released or not), so such a candidate is ranked by the
        // chance of that count, P(X <= 1) times the DP delta, a lower bound of its value (a share of 1e-9 at n = 30 had lost to a
        // share of 0.01, both at the DP delta at their means); ties go to the pair whose larger share is smaller
        double logDp = pair.mechanism().logDpDelta(n);
        double[] rank = new double[first.length];
        List<long[]> near = new ArrayList<>();
        List<Integer> nearOf = new ArrayList<>();
        for (int i = 0; i < first.length; i++) {
            double[] p = vertices.get(which.get(i)[0]);
            double least = Math.min(p[which.get(i)[1]], p[which.get(i)[2]]);
            if (Math.round(n * least) <= 1) {
                rank[i] = logDp + LogMath.logAdd(n * Math.log1p(-least), Math.log(n * least) + (n - 1) * Math.log1p(-least));
                continue;
            }
            rank[i] = first[i][0];
            long[] both = meanMinMax(n, p[which.get(i)[1]], p[which.get(i)[2]]);
            if (both != null) {
                near.add(both);
                nearOf.add(i);
            }
        }
        if (!near.isEmpty()) {
            // a pair of near-equal shares is ranked at the means of its smaller and larger count, not at the two means: the pair
            // depends mostly on the smaller count, and the smaller of two near-equal counts lies below both means (n = 2,000, eps 3,
            // vertices (0.6, 0.3, 0.1) and (0.1, 0.1, 0.8): both at 10^-0.91977 at their means, the first taken, 10^-0.91515
            // against the second's 10^-0.87826)
            double[][] v = MonotoneBounds.evaluate(near, eps, source);
            for (int j = 0; j < v.length; j++) {
                rank[nearOf.get(j)] = v[j][0];
            }
        }
        int best = 0;
        for (int i = 1; i < first.length; i++) {
            if (rank[i] > rank[best] || rank[i] == rank[best] && larger(vertices, which.get(i)) < larger(vertices, which.get(best))) {
                best = i;
            }
        }
        double[] peak = null;
        int searched = 0;
        if (first[best][0] == Double.NEGATIVE_INFINITY) {
            // the pair is 0 at every vertex's mean (a sample far smaller than eps times the counts, as with 1 % kept at n = 2e4:
            // the first pair's cells around its mean had all been 0, a lower bound of 0): each pair's peak of the law times the
            // pair, climbed from its mean, and the largest one's
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < points.size(); i++) {
                double[] q = vertices.get(which.get(i)[0]);
                double[] found = fromMean(pair, eps, source, Math.max(q[which.get(i)[1]], q[which.get(i)[2]]),
                        Math.min(q[which.get(i)[1]], q[which.get(i)[2]]));
                searched += (int) found[2];
                if (found[3] > bestValue) {
                    bestValue = found[3];
                    best = i;
                    peak = found;
                }
            }
        }
        int[] w = which.get(best);
        double[] p = vertices.get(w[0]);
        boolean aIsRow = p[w[1]] >= p[w[2]];
        double pr = aIsRow ? p[w[1]] : p[w[2]];
        double pc = aIsRow ? p[w[2]] : p[w[1]];
        long[] at = points.get(best);
        if (peak == null) {
            double[] g = tilt(pair, eps, source, pr, pc, aIsRow ? at[0] : at[1], aIsRow ? at[1] : at[0], first[best][0]);
            peak = peak(pair, eps, source, pr, pc, new long[2], g);
            searched = 2 + (int) peak[2];
        }
        PlaneCells cells = new PlaneCells(false, pair, eps, source, List.of(new PlaneCells.Plane(pr, pc, new double[0])), cache);
        cells.evaluations = points.size() + near.size() + searched;
        MonotoneBounds.Options side = options.forTerms(first[best][2]);
        int perAxis = (int) Math.max(4, Math.min(24, Math.sqrt(0.5 * side.maxEvaluations())));
        double logLower = cells.run(side.share(share), new double[][] {{peak[0], peak[1]}}, perAxis, first[best][0], logUpper);
        // the share of the whole budget this run took, by terms or by evaluations (its first round always runs, so it can take more than its share)
        double used = Math.max(cells.work / side.termsPerSide(), (double) cells.evaluations / side.maxEvaluations());
        return new Result(logLower, w[0], new int[] {w[1], w[2]}, cells.cellCount, cells.evaluations, cells.logGainLeft, used);
    }

    /**
     * {E[min], E[max]} of two counts of Multinomial(n; pa, pb, rest), rounded (the smaller at least 1), where their means lie
     * within 3 standard deviations of their difference of each other, else null: the normal approximation, E[min(X, Y)] =
     * mx Phi(z) + my Phi(-z) - theta phi(z), z = (my - mx) / theta, theta^2 = Var(X - Y) = var_x + var_y + 2 n pa pb.
     */
    static long[] meanMinMax(long n, double pa, double pb) {
        double mx = n * pa;
        double my = n * pb;
        double theta = Math.sqrt(n * pa * (1 - pa) + n * pb * (1 - pb) + 2.0 * n * pa * pb);
        double z = (my - mx) / theta;
        if (!(theta > 0) || Math.abs(z) >= 3) {
            return null;
        }
        double phi = Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
        double min = mx * 0.5 * Erfc.value(-z / Math.sqrt(2)) + my * 0.5 * Erfc.value(z / Math.sqrt(2)) - theta * phi;
        long lo = Math.max(1, Math.round(min));
        long hi = Math.max(lo, Math.round(mx + my - min));
        return lo + hi <= n ? new long[] {lo, hi} : null;
    }

    /** The larger share of a candidate {vertex, a, b}'s pair. */
    private static double larger(DistributionSet vertices, int[] w) {
        double[] p = vertices.get(w[0]);
        return Math.max(p[w[1]], p[w[2]]);
    }

    /**
     * {vertex, a, b} of the first vertex with a category a of share 0 (b another category of positive share), else null. Every
     * record on that vertex gives histograms with h_a = 0, and delta(h) is then the DP delta exactly: the neighbour with one
     * record moved from b into a releases k_a = 1 whenever that record is sampled (probability T/n, or 1 - (1 - 1/n)^T with
     * replacement), which h never does, and no hockey-stick divergence exceeds that. So that assignment's value is the DP delta,
     * delta_SDP's largest possible value.
     */
    static int[] zeroShare(DistributionSet vertices) {
        for (int v = 0; v < vertices.size(); v++) {
            double[] p = vertices.get(v);
            for (int a = 0; a < p.length; a++) {
                for (int b = 0; b < p.length && p[a] <= 0; b++) {
                    if (p[b] > 0) {
                        return new int[] {v, a, b};
                    }
                }
            }
        }
        return null;
    }

    /**
     * The slopes {g_r, g_c} of ln pair per sigma downwards at (mr, mc) from two evaluations one sigma below it: where the mass
     * of P(h) pair(h) lies (the law tilted by that slope peaks about g sigma below the mean).
     */
    static double[] tilt(PairDivergence pair, double eps, MonotoneBounds.PairSource source, double pr, double pc, long mr, long mc, double atMean) {
        long n = pair.n();
        double sr = Math.sqrt(n * pr * (1 - pr));
        double sc = Math.sqrt(n * pc * (1 - pc));
        List<long[]> probe = List.of(new long[] {Math.max(1, mr - Math.round(sr)), mc}, new long[] {mr, Math.max(1, mc - Math.round(sc))});
        double[][] v = MonotoneBounds.evaluate(probe, eps, source);
        return new double[] {slope(v[0][0] - atMean), slope(v[1][0] - atMean)};
    }

    /** Steps of {@link #peak}'s bisection along the slopes' direction. */
    static final int PEAK_STEPS = 8;

    /** Rounds of {@link #peak}'s ascent along one count at a time. */
    static final int ASCENT_ROUNDS = 3;

    /**
     * {g_r, g_c, evaluations}: where the slopes {@code g} measured at the mean put the tilted law's peak more than 4 sigma out, the
     * peak of ln(P(X_r, X_c) pair) instead (exact binomial log-pmfs: that far out neither is ln pair linear nor the law normal;
     * with replacement at eps 2, n = 10,000, the slopes at the mean say 31.6 sigma, where the binomial falls far faster than a
     * normal). First along the slopes' direction u, the t in [0, |g|] where it stops growing over one sigma, by bisection; then
     * up to {@value #ASCENT_ROUNDS} rounds along each count in turn, since the mass need not lie on that line (with replacement
     * at n = 50,000 and eps 2 it lies 46 sigma below the mean in the smaller count and 11 sigma above it in the larger: the
     * records the smaller count lacks fall to the others; the line had gone down in both, and the lower bound rose by 5
     * decades off it). The point, in sigma below the mean, then places the grid. Any center gives a valid lower bound; this
     * one puts the cells where the mass is (n = 10,000: 0.004 decades below the upper bound instead of 7.8). The law's counts
     * are (X_r, X_c); the pair is evaluated at them plus {@code shift}.
     */
    static double[] peak(PairDivergence pair, double eps, MonotoneBounds.PairSource source, double pr, double pc, long[] shift, double[] g) {
        double norm = Math.hypot(g[0], g[1]);
        if (!(norm > 4)) {
            return new double[] {g[0], g[1], 0};
        }
        Profile f = new Profile(pair, eps, source, pr, pc, shift);
        double ur = g[0] / norm;
        double uc = g[1] / norm;
        double lo = 0;
        double hi = norm;
        for (int step = 0; step < PEAK_STEPS; step++) {
            double t = (lo + hi) / 2;
            Double grows = f.grows(f.along(t, ur, uc), f.along(t + 1, ur, uc));
            if (grows == null) {
                break;
            }
            if (grows > 0) {
                lo = t;
            } else {
                hi = t;
            }
        }
        long[] at = f.climb(f.along((lo + hi) / 2, ur, uc), 0);
        return new double[] {(f.mean[0] - at[0]) / f.sigma[0], (f.mean[1] - at[1]) / f.sigma[1], f.evaluations};
    }

    /**
     * {g_r, g_c, evaluations, ln(P(X_r, X_c) pair)} at the peak of the law times the pair climbed from the law's mean (where the
     * pair is 0, so no slope says where its mass lies), along the smaller share's count first: ln pair rises faster per sigma
     * along it.
     */
    static double[] fromMean(PairDivergence pair, double eps, MonotoneBounds.PairSource source, double pr, double pc) {
        Profile f = new Profile(pair, eps, source, pr, pc, new long[2]);
        long[] at = f.climb(f.along(0, 0, 0), 1);
        double value = f.value(at);
        return new double[] {(f.mean[0] - at[0]) / f.sigma[0], (f.mean[1] - at[1]) / f.sigma[1], f.evaluations, value};
    }

    /** ln(P(X_r, X_c) pair(X + shift)) over the plane of one law, its evaluations counted. */
    private static final class Profile {
        final double eps;
        final MonotoneBounds.PairSource source;
        final double pr;
        final double pc;
        final long[] shift;
        final long n;
        final double[] mean;
        final double[] sigma;
        int evaluations;

        Profile(PairDivergence pair, double eps, MonotoneBounds.PairSource source, double pr, double pc, long[] shift) {
            this.eps = eps;
            this.source = source;
            this.pr = pr;
            this.pc = pc;
            this.shift = shift;
            this.n = pair.n();
            this.mean = new double[] {n * pr, n * pc};
            this.sigma = new double[] {Math.max(1, Math.sqrt(n * pr * (1 - pr))), Math.max(1, Math.sqrt(n * pc * (1 - pc)))};
        }

        /** The law's point t sigma below its mean along (ur, uc), clamped into the plane. */
        long[] along(double t, double ur, double uc) {
            long r = Math.max(0, Math.min(n, Math.round(mean[0] - t * ur * sigma[0])));
            return new long[] {r, Math.max(0, Math.min(n - r, Math.round(mean[1] - t * uc * sigma[1])))};
        }

        /**
         * Up to {@value VertexLowerBound#ASCENT_ROUNDS} rounds of {@link #ascend} along each count in turn from {@code at}, count {@code k} first;
         * the point where they stop moving.
         */
        long[] climb(long[] at, int k) {
            for (int round = 0; round < ASCENT_ROUNDS; round++) {
                long[] next = at.clone();
                next[k] = ascend(next, k);
                next[1 - k] = ascend(next, 1 - k);
                boolean moved = !Arrays.equals(next, at);
                at = next;
                if (!moved) {
                    break;
                }
            }
            return at;
        }

        /** The profile at x. */
        double value(long[] x) {
            evaluations++;
            return MonotoneBounds.evaluate(List.of(plus(x)), eps, source)[0][0] + logLaw(n, pr, pc, x);
        }

        /** The profile at y minus at x, null where neither is finite (no direction to go). */
        Double grows(long[] x, long[] y) {
            double[][] v = MonotoneBounds.evaluate(List.of(plus(x), plus(y)), eps, source);
            evaluations += 2;
            double d = v[1][0] + logLaw(n, pr, pc, y) - v[0][0] - logLaw(n, pr, pc, x);
            return Double.isNaN(d) ? null : d;
        }

        /**
         * Along count {@code k} (0 the row, 1 the column) from {@code at}, the other fixed: where the profile stops growing over a
         * step of a sixteenth of a sigma, by bisection over the whole range of that count (a unimodal profile assumed; where it
         * is not, a point of less mass, still a valid center). Falling, flat or 0 at both points goes down: the pair is 0 only
         * at the large counts' end.
         */
        long ascend(long[] at, int k) {
            long step = Math.max(1, Math.round(sigma[k] / 16));
            long lo = 0;
            long hi = n - at[1 - k] - step;
            if (hi - lo <= 1) {
                return at[k]; // no room to move along this count
            }
            boolean seen = false; // a finite profile somewhere: without one, no reason to move
            while (hi - lo > 1) {
                long x = lo + (hi - lo) / 2;
                long[] p = at.clone();
                long[] q = at.clone();
                p[k] = x;
                q[k] = x + step;
                Double d = grows(p, q);
                seen |= d != null;
                if (d != null && d > 0) {
                    lo = x;
                } else {
                    hi = x;
                }
            }
            // it grows from lo and not from hi = lo + 1, each over a step: the peak lies about half a step past lo
            return seen ? Math.min(lo + (step + 1) / 2, n - at[1 - k]) : at[k];
        }

        private long[] plus(long[] x) {
            return new long[] {Math.max(1, x[0] + shift[0]), Math.max(1, x[1] + shift[1])};
        }
    }

    /** ln P(X_r = h[0], X_c = h[1]) for (X_r, X_c) of Multinomial(n; p_r, p_c, rest). */
    private static double logLaw(long n, double pr, double pc, long[] h) {
        // given X_r, X_c is binomial over the other records with c's share among them
        double cGivenNotR = pr >= 1 ? 0 : Math.min(1, pc / (1 - pr));
        return BinomialDistribution.of((int) n, pr).logProbability((int) h[0])
                + BinomialDistribution.of((int) Math.max(0, n - h[0]), cGivenNotR).logProbability((int) h[1]);
    }

    /** A measured slope, 0 where it is not a finite positive number (the pair 0 at the mean). */
    private static double slope(double g) {
        return g > 0 && Double.isFinite(g) ? g : 0;
    }
}
