package org.privacybounds.smoothed.sdp.twocategory;

import org.privacybounds.numeric.ChernoffTail;

/**
 * A closed-form upper bound UB(h) >= delta_eps(h) for the sampling-histogram mechanism without
 * replacement over two categories (h records of category 1 among n, L = n - T lost).
 *
 * <p>For the pair (g, g+1): with j the number of lost category-1 records (hypergeometric
 * (n, g, L)), the likelihood ratio P_{g+1}/P_g = ((g+1)/(j+1)) ((L-j)/(n-g)) is decreasing in j,
 * so d(g, g+1) <= Pr_g[j >= j1] and d(g+1, g) <= Pr_{g+1}[j' <= j2] (thresholds where the ratio
 * crosses e^-eps, rounded outward). By Hoeffding (1963, Theorem 4) the hypergeometric is dominated
 * in convex order by the binomial (L, g/n), so Chernoff's bound applies:
 * {@code Pr[j >= aL] <= exp(-L KL(a || q))} for a > q, and the lower tail alike. delta(h) is the
 * largest of the four divergences of the pairs (h-1, h) and (h, h+1), and at most the DP delta T/n.
 * The bound is within a polynomial factor of delta(h), which is what lets the branch and bound of
 * {@link LargeNSmoothed} discard assignments without evaluating them.
 */
public final class ChernoffBound {
    private final long n;
    private final long lost;
    private final double expMinusEps;
    private final double logDp;

    public ChernoffBound(long n, long sampleSize, double eps) {
        this.n = n;
        this.lost = n - sampleSize;
        this.expMinusEps = Math.exp(-eps);
        this.logDp = Math.log((double) sampleSize / n);
    }

    /** ln UB(h). */
    public double logUpper(long h) {
        if (lost == 0) {
            return 0; // deterministic: delta = 1
        }
        double b = Double.NEGATIVE_INFINITY;
        if (h < n) {
            b = Math.max(b, Math.max(upperPlus(h), upperMinus(h)));
        }
        if (h > 0) {
            b = Math.max(b, Math.max(upperPlus(h - 1), upperMinus(h - 1)));
        }
        return Math.min(b, logDp);
    }

    /**
     * ln of one bound on UB(h) for every h in [hLo, hHi]: at least {@link #logUpper(long)} of each, from one evaluation per
     * block instead of one per h. The thresholds j1(g) and j2(g) are non-decreasing in g (dx/dg = e^-eps (n+1)(L+1)/D^2 > 0
     * for x1, and x2's numerator grows while its denominator shrinks), and KL(a || q) grows as a moves away from q, so the
     * pair (smallest threshold, farthest q) bounds the whole block: for d(g, g+1), a = j1(g0)/L against q = g1/n; for
     * d(g+1, g), a = j2(g1)/L against q = (g0+1)/n.
     */
    public double logUpperOver(long hLo, long hHi) {
        if (lost == 0) {
            return 0;
        }
        long g0 = Math.max(0, hLo - 1);
        long g1 = Math.min(n - 1, hHi);
        if (g0 > g1) {
            return logUpper(hLo);
        }
        return Math.min(Math.max(plusOver(g0, g1), minusOver(g0, g1)), logDp);
    }

    private double plusOver(long g0, long g1) {
        long j1 = threshold1(g0);
        if (j1 > Math.min(g1, lost)) {
            return Double.NEGATIVE_INFINITY; // j1(g) >= j1(g0) > min(g1, L) >= min(g, L) for every g of the block
        }
        double a = (double) j1 / lost;
        double q = (double) g1 / n;
        return a <= q ? 0 : -lost * ChernoffTail.kl(a, q);
    }

    private double minusOver(long g0, long g1) {
        long j2 = threshold2(g1);
        double a = (double) j2 / lost;
        double q = (g0 + 1.0) / n;
        return a >= q ? 0 : -lost * ChernoffTail.kl(a, q);
    }

    /** The outward-rounded j1 of d(g, g+1): R(j) < e^-eps iff j > x1, so the event is j >= j1. */
    private long threshold1(long g) {
        double num = (g + 1.0) * lost - expMinusEps * (n - g);
        double den = (g + 1.0) + expMinusEps * (n - g);
        double x1 = num / den;
        return (long) Math.max(0, Math.floor(x1 - 1e-9 * Math.max(1, Math.abs(x1))));
    }

    /** The outward-rounded j2 of d(g+1, g): the event j' < x2, so j' <= j2. */
    private long threshold2(long g) {
        double x2 = expMinusEps * (g + 1.0) * (lost + 1.0) / ((n - g) + expMinusEps * (g + 1.0));
        return (long) Math.ceil(x2 + 1e-9 * Math.max(1, x2));
    }

    /** ln of a bound on d(g, g+1) = E_g[(1 - e^eps R)_+]. */
    private double upperPlus(long g) {
        long j1 = threshold1(g);
        if (j1 > Math.min(g, lost)) {
            return Double.NEGATIVE_INFINITY;
        }
        double a = (double) j1 / lost;
        double q = (double) g / n;
        return a <= q ? 0 : -lost * ChernoffTail.kl(a, q);
    }

    /** ln of a bound on d(g+1, g) = E_{g+1}[(1 - e^eps / R)_+]. */
    private double upperMinus(long g) {
        long j2 = threshold2(g);
        long jMin = Math.max(0, lost - (n - g - 1L));
        if (j2 < jMin) {
            return Double.NEGATIVE_INFINITY;
        }
        double a = (double) j2 / lost;
        double q = (g + 1.0) / n;
        return a >= q ? 0 : -lost * ChernoffTail.kl(a, q);
    }
}
