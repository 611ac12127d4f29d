package org.privacybounds.smoothed.sdp.multicategory;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.sdp.pair.DirectionSum;

/**
 * One category's extra count in a region of assignments, in levels instead of at one Chernoff count ({@link MonotoneBounds}'s
 * leaf bound). A region's relaxation ({@link AssignmentRegions#shift}) takes each part's extra count E_j at a count it misses
 * with a tiny chance, which leaves little of it where the expected extra is a few dozen records (the 2020 states at
 * n = 5e4: 3,281 records off Florida, 22.6 third-party votes expected over the smallest share, 1 kept), and the smallest count
 * is where the pair falls fastest. Here the expectation over E_j is taken in levels.
 *
 * <p><b>Independence.</b> Every record on a vertex of shares p >= q (q the hull's smallest) draws "G, category i" with chance
 * q_i and otherwise is residual (chance 1 - sigma, sigma the sum of q), a residual record taking category i with chance
 * (p_i - q_i) / (1 - sigma). Given which records are residual (the set R), G ~ Multinomial(n - |R|; q / sigma) and the
 * residual records' categories are independent of it; E_j, the residual records of the region's parts in category j, is then
 * at least a sum of independent binomials, Binomial(r_S, (q^S_j - q_j) / (1 - sigma)) over the parts (r_S of a part's
 * records residual, q^S its smallest shares). Let Xi be the event that every part has at least its Chernoff count rho_S of
 * residual records (each Binomial(records, 1 - sigma)); on Xi, c_k >= P(E_j < e_k | R) for c_k the CDF of the sum of
 * independent Binomial(rho_S, ...) (convolved, raised by 1e-9 relative) or its Chernoff bound. The bands bounded from a
 * vertex's own law take the same with their coupling ({@link AssignmentRegions#vertexStrata}: a record off the vertex keeps
 * its draw with the chance of min(v, q'), else is residual).
 *
 * <p><b>The levels.</b> With f(e) = E[pair(G + e on j + the other counts' shift)], non-increasing in e, and F(e) = P(E_j < e | R):
 * E[f(E_j) | R] <= F(e_0) DP + sum over k of (F(e_(k+1)) - F(e_k)) f(e_k) (F(e_(K+1)) = 1) <= F(e_0) DP + c_1 f(e_0)
 * + sum_(k=1)^(K-1) (c_(k+1) - c_k) f(e_k) + (1 - c_K) f(e_K) (summation by parts; each coefficient non-negative for a
 * non-decreasing c), whose coefficients no longer depend on R, so the expectation over R turns each f into G's: f(e) is the
 * region's shifted bound with e on j. Xi's failure, F(e_0) and the other categories' misses each add their chance times DP.
 */
final class RegionStrata {
    /** The levels' targets for c_k (e_0 is the relaxation's own count): each e_k the largest count whose chance below is this. */
    static final double[] TARGETS = {1e-4, 0.02, 0.3};

    /** The largest mean of E whose distribution is convolved exactly (quadratic in it); beyond, the Chernoff bound alone. */
    static final int EXACT_MAX = 2000;

    /**
     * @param category the category j
     * @param levels   e_0 < e_1 < ... < e_K (records of j added to G's count)
     * @param logBelow ln c_k, upper bounds on P(E_j < e_k) given the residual records on Xi, non-decreasing
     * @param logMiss  ln of an upper bound on the chance that Xi fails
     */
    record Levels(int category, long[] levels, double[] logBelow, double logMiss) {
        /** ln of the coefficient of f(e_k): c_1 for k = 0, c_(k+1) - c_k between, 1 - c_K for the last. */
        double logWeight(int k) {
            int last = levels.length - 1;
            if (k == last) {
                return Math.log1p(-Math.exp(logBelow[last]));
            }
            return k == 0 ? logBelow[1] : logBelow[k + 1] + Math.log1p(-Math.exp(logBelow[k] - logBelow[k + 1]));
        }
    }

    private RegionStrata() {
    }

    /**
     * The levels of category j's extra count E_j over groups of records, each group's records residual with chance
     * {@code residual} and a residual record of group i of category j with chance at least {@code extra[i] / residual}: each
     * group's residual records taken at their Chernoff count rho_i (Xi, its failure the sum of the groups' tails, each at most
     * {@code e^logBeta} over the groups), E_j then at least the sum of Binomial(rho_i, extra[i] / residual). From e0 (the
     * relaxation's count) up to the targets' counts; null where no group adds to j or no level lies above e0.
     */
    static Levels of(long[] records, double[] extra, double residual, int j, long e0, double logBeta) {
        if (!(residual > 0)) {
            return null;
        }
        double each = logBeta - Math.log(Math.max(1, records.length));
        List<Long> trials = new ArrayList<>();
        List<Double> chances = new ArrayList<>();
        double miss = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < records.length; i++) {
            if (!(extra[i] > 0) || records[i] < 1) {
                continue;
            }
            long rho = MonotoneBounds.chernoffCounts(records[i], new double[] {residual}, new double[] {0}, each, false)[0];
            if (rho < 1) {
                continue;
            }
            miss = LogMath.logAdd(miss, ChernoffTail.logBinomialTail(records[i], residual, rho - 1, false));
            trials.add(rho);
            chances.add(Math.min(1, extra[i] / residual));
        }
        if (trials.isEmpty()) {
            return null;
        }
        return levels(j, trials.stream().mapToLong(Long::longValue).toArray(), chances.stream().mapToDouble(Double::doubleValue).toArray(), e0, miss);
    }

    /**
     * The levels for E the sum of independent Binomial(n_i, p_i), from e0 up to the targets' counts ({@link #TARGETS}), each
     * c_k the smaller of the exact CDF (where the mean is at most {@link #EXACT_MAX}) and the Chernoff bound; null where no
     * level lies above e0.
     */
    static Levels levels(int j, long[] n, double[] p, long e0, double miss) {
        double mean = 0;
        for (int i = 0; i < n.length; i++) {
            mean += n[i] * p[i];
        }
        long top = (long) Math.floor(mean);
        double[] exact = top <= EXACT_MAX ? logCdf(n, p, (int) Math.max(0, top)) : null;
        java.util.function.LongToDoubleFunction below = e -> exact != null && e >= 0 && e <= top ? Math.min(exact[(int) e], logBelow(n, p, e))
                : logBelow(n, p, e);
        List<Long> levels = new ArrayList<>(List.of(Math.max(0, e0)));
        List<Double> logs = new ArrayList<>(List.of(below.applyAsDouble(e0)));
        for (double target : TARGETS) {
            // the largest e in (last, mean] with P(E < e) <= target (the bound grows with e)
            long lo = levels.get(levels.size() - 1);
            long hi = top;
            if (hi <= lo || below.applyAsDouble(lo + 1) > Math.log(target)) {
                continue;
            }
            while (lo < hi) {
                long mid = lo + (hi - lo + 1) / 2;
                if (below.applyAsDouble(mid) <= Math.log(target)) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            levels.add(lo);
            logs.add(Math.max(logs.get(logs.size() - 1), below.applyAsDouble(lo)));
        }
        if (levels.size() < 2) {
            return null;
        }
        return new Levels(j, levels.stream().mapToLong(Long::longValue).toArray(), logs.stream().mapToDouble(Double::doubleValue).toArray(), miss);
    }

    /**
     * ln P(E < e) for e = 0..top, E the sum of independent Binomial(n_i, p_i): the pmfs (Commons Statistics) convolved in log
     * space up to top - 1, each value raised by 1e-9 relative (the pmfs' and the sums' rounding, far below it).
     */
    static double[] logCdf(long[] n, double[] p, int top) {
        double[] sum = new double[Math.max(1, top)];
        java.util.Arrays.fill(sum, Double.NEGATIVE_INFINITY);
        sum[0] = 0;
        for (int i = 0; i < n.length; i++) {
            // (fewer trials where n_i passes an int only raise the CDF: still a bound)
            BinomialDistribution b = BinomialDistribution.of((int) Math.min(Integer.MAX_VALUE, n[i]), p[i]);
            double[] pmf = new double[sum.length];
            for (int k = 0; k < pmf.length; k++) {
                pmf[k] = b.logProbability(k);
            }
            double[] next = new double[sum.length];
            for (int t = 0; t < next.length; t++) {
                double acc = Double.NEGATIVE_INFINITY;
                for (int k = 0; k <= t; k++) {
                    acc = LogMath.logAdd(acc, sum[t - k] + pmf[k]);
                }
                next[t] = acc;
            }
            sum = next;
        }
        double[] cdf = new double[top + 1];
        cdf[0] = Double.NEGATIVE_INFINITY;
        double acc = Double.NEGATIVE_INFINITY;
        for (int e = 1; e <= top; e++) {
            acc = LogMath.logAdd(acc, sum[e - 1]);
            cdf[e] = Math.min(0, acc + 1e-9);
        }
        return cdf;
    }

    /**
     * ln of the Chernoff bound on P(E < e), E the sum of independent Binomial(n_i, p_i): min over lambda >= 0 of
     * lambda (e - 1) + sum n_i ln(1 - p_i + p_i e^-lambda); 0 at or past the mean, -infinity for e <= 0. Any lambda gives a
     * bound, so the bisection's approximate minimizer costs nothing in validity.
     */
    static double logBelow(long[] n, double[] p, long e) {
        if (e <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        double t = e - 1;
        double mean = 0;
        for (int i = 0; i < n.length; i++) {
            mean += n[i] * p[i];
        }
        if (t >= mean) {
            return 0;
        }
        if (t == 0) {
            double s = 0;
            for (int i = 0; i < n.length; i++) {
                s += n[i] * Math.log1p(-p[i]);
            }
            return Math.min(0, s);
        }
        double lo = 0;
        double hi = 1;
        while (slope(n, p, t, hi) < 0 && hi < 1e6) {
            hi *= 2;
        }
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo + hi);
            if (slope(n, p, t, mid) < 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double lambda = 0.5 * (lo + hi);
        double s = lambda * t;
        for (int i = 0; i < n.length; i++) {
            s += n[i] * Math.log1p(p[i] * Math.expm1(-lambda));
        }
        return Math.min(0, s);
    }

    /** d/d lambda of the exponent: t - sum n_i p_i e^-lambda / (1 - p_i + p_i e^-lambda). */
    private static double slope(long[] n, double[] p, double t, double lambda) {
        double s = t;
        double x = Math.exp(-lambda);
        for (int i = 0; i < n.length; i++) {
            s -= n[i] * p[i] * x / (1 - p[i] + p[i] * x);
        }
        return s;
    }
}
