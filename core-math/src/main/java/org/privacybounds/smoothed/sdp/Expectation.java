package org.privacybounds.smoothed.sdp;

import java.io.Serializable;

import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogMath;

/**
 * One exact expectation f(n1) = E[delta(X + Y)], X ~ Bin(n1, pHi), Y ~ Bin(n - n1, pLo), over
 * fixed windows of X and Y, with the delta values it needs carried along: a self-contained unit
 * of stage 2 that an executor can evaluate. What the windows leave out is at most
 * {@code exp(logTail)} (Chernoff tails of X and Y times the DP delta, an absolute bound).
 *
 * @param n1       records on the p_hi vertex
 * @param xl       window of X
 * @param yl       window of Y
 * @param hStart   first h of {@code logDelta}
 * @param logDelta ln delta(h) for h in [xl + yl, xr + yr]
 * @param logTail  ln of the bound on what the windows leave out
 */
public record Expectation(int n, double pHi, double pLo, int n1, int xl, int xr, int yl, int yr, int hStart, double[] logDelta,
        double logTail) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The windows for f(n1): widened until the left-out part is below {@code exp(logTarget)}.
     *
     * @return {xl, xr, yl, yr} and, as a fifth value, the bits of ln(tail bound)
     */
    public static long[] window(int n, double pHi, double pLo, int n1, double logDp, double logTarget) {
        CountLaw x = CountLaw.binomial(n1, pHi);
        CountLaw y = CountLaw.binomial(n - n1, pLo);
        double sdx = Math.sqrt(n1 * pHi * (1 - pHi)) + 1;
        double sdy = Math.sqrt((n - n1) * pLo * (1 - pLo)) + 1;
        for (double z = 6;; z *= 1.25) {
            int xl = (int) Math.max(x.lower(), Math.floor(x.mode() - z * sdx));
            int xr = (int) Math.min(x.upper(), Math.ceil(x.mode() + z * sdx));
            int yl = (int) Math.max(y.lower(), Math.floor(y.mode() - z * sdy));
            int yr = (int) Math.min(y.upper(), Math.ceil(y.mode() + z * sdy));
            double tail = LogMath.logAdd(tails(n1, pHi, xl, xr), tails(n - n1, pLo, yl, yr)) + logDp;
            boolean full = xl == x.lower() && xr == x.upper() && yl == y.lower() && yr == y.upper();
            if (tail <= logTarget || full) {
                return new long[] {xl, xr, yl, yr, Double.doubleToLongBits(full ? Double.NEGATIVE_INFINITY : tail)};
            }
        }
    }

    /** Multiply-adds this evaluation costs (the product of its two windows). */
    public double work() {
        return (double) (xr - xl + 1) * (yr - yl + 1);
    }

    /** {ln f over the windows (a lower bound of f), ln of the bound on the rest}. */
    public double[] evaluate() {
        CountLaw x = CountLaw.binomial(n1, pHi);
        CountLaw y = CountLaw.binomial(n - n1, pLo);
        double[] px = scaled(x, xl, xr);
        double[] py = scaled(y, yl, yr);
        double md = Double.NEGATIVE_INFINITY;
        for (double v : logDelta) {
            md = Math.max(md, v);
        }
        if (md == Double.NEGATIVE_INFINITY) {
            return new double[] {Double.NEGATIVE_INFINITY, logTail};
        }
        double[] d = new double[logDelta.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.exp(logDelta[i] - md);
        }
        int off = xl + yl - hStart;
        double f = 0;
        for (int i = 0; i < px.length - 1; i++) {
            double inner = 0;
            for (int j = 0; j < py.length - 1; j++) {
                inner += py[j] * d[off + i + j];
            }
            f += px[i] * inner;
        }
        double lf = f > 0 ? Math.log(f) + px[px.length - 1] + py[py.length - 1] + md : Double.NEGATIVE_INFINITY;
        return new double[] {lf, logTail};
    }

    /** exp(log pmf - max) over [lo, hi], with the max appended as the last element. */
    private static double[] scaled(CountLaw law, int lo, int hi) {
        double[] v = new double[hi - lo + 2];
        double m = Double.NEGATIVE_INFINITY;
        for (int i = 0; i <= hi - lo; i++) {
            v[i] = law.logProbability(lo + i);
            m = Math.max(m, v[i]);
        }
        for (int i = 0; i <= hi - lo; i++) {
            v[i] = Math.exp(v[i] - m);
        }
        v[v.length - 1] = m;
        return v;
    }

    /** ln of a Chernoff bound on Pr[X < l] + Pr[X > r], X ~ Bin(m, p). */
    static double tails(int m, double p, int l, int r) {
        double t = Double.NEGATIVE_INFINITY;
        if (m == 0) {
            return t;
        }
        if (l > 0) {
            double a = (double) l / m;
            t = LogMath.logAdd(t, a < p ? -m * ChernoffBound.kl(a, p) : 0);
        }
        if (r < m) {
            double a = (double) r / m;
            t = LogMath.logAdd(t, a > p ? -m * ChernoffBound.kl(a, p) : 0);
        }
        return t;
    }
}
