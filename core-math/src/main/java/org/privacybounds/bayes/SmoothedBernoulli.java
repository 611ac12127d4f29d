package org.privacybounds.bayes;

import org.privacybounds.numeric.CountLaw;

/**
 * Smoothed delta (seed 000 Definition 3) of a mechanism whose privacy profile depends on the count
 * k of ones only, when each record is Bernoulli(p_i) with p_i from a set Pi: the expectation
 * E[delta(K)] is multilinear in the records' distributions, so its maximum over Pi^n is attained
 * with every p_i at an end of [p_lo, p_hi]; by symmetry only the number n1 of records at p_hi
 * matters: delta_SDP = max over n1 of E[delta(Bin(n1, p_hi) + Bin(n - n1, p_lo))].
 *
 * <p>All n + 1 assignments are evaluated exactly in O(n^2): g_m(s) = E[delta(s + Bin(m, p_lo))]
 * follows from g_{m-1} by one convex combination per s, and f(n1) = sum_a Bin(n1, p_hi)(a) g_{n-n1}(a).
 * Values are scaled by max delta, so every number is a convex combination of numbers in [0, 1]:
 * no cancellation; the relative rounding error is below 4 (n + 1) 2^-53, and terms below 1e-300 of
 * the maximum (which cannot matter at that relative size) may underflow.
 */
public final class SmoothedBernoulli {
    private SmoothedBernoulli() {
    }

    /** The result: ln delta_SDP, the maximising n1 (records at p_hi) and the relative error bound. */
    public record Result(double logDelta, int argmaxHigh, double relativeErrorBound) {
    }

    /** delta_SDP from ln delta(k), k = 0..n, and the ends of the Bernoulli set. */
    public static Result maximise(double[] logDeltaByCount, double pLo, double pHi) {
        int n = logDeltaByCount.length - 1;
        if (!(pLo >= 0 && pHi <= 1 && pLo <= pHi)) {
            throw new IllegalArgumentException("need 0 <= pLo <= pHi <= 1: " + pLo + ", " + pHi);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (double v : logDeltaByCount) {
            max = Math.max(max, v);
        }
        double bound = 4.0 * (n + 1) * 0x1p-53;
        if (max == Double.NEGATIVE_INFINITY) {
            return new Result(Double.NEGATIVE_INFINITY, 0, 0);
        }
        double[] g = new double[n + 1];
        for (int s = 0; s <= n; s++) {
            g[s] = Math.exp(logDeltaByCount[s] - max);
        }
        double best = -1;
        int arg = 0;
        double[] pmf = new double[n + 1];
        // level m = 0 is n1 = n; level m holds g_m(s) for s = 0..n-m
        for (int m = 0; m <= n; m++) {
            if (m > 0) {
                for (int s = 0; s <= n - m; s++) {
                    g[s] = pLo * g[s + 1] + (1 - pLo) * g[s];
                }
            }
            int n1 = n - m;
            CountLaw hi = CountLaw.binomial(n1, pHi);
            double f = 0;
            for (int a = 0; a <= n1; a++) {
                pmf[a] = Math.exp(hi.logProbability(a));
                f += pmf[a] * g[a];
            }
            if (f > best) {
                best = f;
                arg = n1;
            }
        }
        return new Result(max + Math.log(best), arg, bound);
    }
}
