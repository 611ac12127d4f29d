package org.privacybounds.bayes;

import org.privacybounds.numeric.CountLaw;

/**
 * Smoothed delta (Liu, Wang and Xia, "Smoothed Differential Privacy", Definition 3) of a mechanism whose privacy profile depends on the count
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
        return maximise(new double[][] {logDeltaByCount}, pLo, pHi)[0];
    }

    /**
     * As {@link #maximise(double[][], double, double)} for profiles whose values are known to an absolute error ({@code logErrors[i][k]},
     * ln of the bound at count k): the expectation is linear, so the error at every assignment is at most E[err(K)], and the maximum
     * over assignments moves by at most the largest of these; its ratio to the result joins the relative error bound (infinite when
     * the computed delta is 0 but the errors are not).
     */
    public static Result[] maximise(double[][] profiles, double[][] logErrors, double pLo, double pHi) {
        if (logErrors.length != profiles.length) {
            throw new IllegalArgumentException("one error profile per profile: " + logErrors.length + " vs " + profiles.length);
        }
        double[][] all = new double[2 * profiles.length][];
        System.arraycopy(profiles, 0, all, 0, profiles.length);
        System.arraycopy(logErrors, 0, all, profiles.length, profiles.length);
        Result[] r = maximise(all, pLo, pHi);
        Result[] out = new Result[profiles.length];
        for (int i = 0; i < out.length; i++) {
            Result v = r[i];
            Result e = r[profiles.length + i];
            double propagated = e.logDelta() == Double.NEGATIVE_INFINITY ? 0
                    : v.logDelta() == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.exp(e.logDelta() - v.logDelta()) * (1 + e.relativeErrorBound());
            out[i] = new Result(v.logDelta(), v.argmaxHigh(), v.relativeErrorBound() + propagated);
        }
        return out;
    }

    /** delta_SDP of several profiles over the same n in one pass (the binomial laws are shared). */
    public static Result[] maximise(double[][] profiles, double pLo, double pHi) {
        if (!(pLo >= 0 && pHi <= 1 && pLo <= pHi)) {
            throw new IllegalArgumentException("need 0 <= pLo <= pHi <= 1: " + pLo + ", " + pHi);
        }
        int n = profiles[0].length - 1;
        int q = profiles.length;
        double bound = 4.0 * (n + 1) * 0x1p-53;
        double[] max = new double[q];
        double[][] g = new double[q][];
        double[] best = new double[q];
        int[] arg = new int[q];
        boolean any = false;
        for (int i = 0; i < q; i++) {
            if (profiles[i].length != n + 1) {
                throw new IllegalArgumentException("every profile needs n + 1 = " + (n + 1) + " values");
            }
            max[i] = Double.NEGATIVE_INFINITY;
            for (double v : profiles[i]) {
                max[i] = Math.max(max[i], v);
            }
            best[i] = -1;
            if (max[i] > Double.NEGATIVE_INFINITY) {
                any = true;
                g[i] = new double[n + 1];
                for (int s = 0; s <= n; s++) {
                    g[i][s] = Math.exp(profiles[i][s] - max[i]);
                }
            }
        }
        double[] pmf = new double[n + 1];
        // level m = 0 is n1 = n; level m holds g_m(s) for s = 0..n-m
        for (int m = 0; any && m <= n; m++) {
            int n1 = n - m;
            CountLaw hi = CountLaw.binomial(n1, pHi);
            for (int a = 0; a <= n1; a++) {
                pmf[a] = Math.exp(hi.logProbability(a));
            }
            for (int i = 0; i < q; i++) {
                double[] gi = g[i];
                if (gi == null) {
                    continue;
                }
                if (m > 0) {
                    for (int s = 0; s <= n - m; s++) {
                        gi[s] = pLo * gi[s + 1] + (1 - pLo) * gi[s];
                    }
                }
                double f = 0;
                for (int a = 0; a <= n1; a++) {
                    f += pmf[a] * gi[a];
                }
                if (f > best[i]) {
                    best[i] = f;
                    arg[i] = n1;
                }
            }
        }
        Result[] out = new Result[q];
        for (int i = 0; i < q; i++) {
            out[i] = g[i] == null ? new Result(Double.NEGATIVE_INFINITY, 0, 0) : new Result(max[i] + Math.log(best[i]), arg[i], bound);
        }
        return out;
    }
}
