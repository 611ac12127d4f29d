package org.privacybounds.exact;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;

/**
 * High-precision arithmetic for the independent reference path: exact integers (BigInteger),
 * decimals at {@link #DIGITS} significant digits (BigDecimal), and e^x / ln x through apfloat.
 * Slow by design; used by tests and by small-n cross-checks, never by the fast path.
 */
public final class ExactMath {
    /** Significant digits carried by every decimal operation. */
    public static final int DIGITS = 60;
    /** The context of every BigDecimal operation. */
    public static final MathContext MC = new MathContext(DIGITS);

    private ExactMath() {
    }

    /** C(n, k) exactly; 0 outside {@code 0 <= k <= n}. */
    public static BigInteger binomial(long n, long k) {
        if (k < 0 || k > n) {
            return BigInteger.ZERO;
        }
        k = Math.min(k, n - k);
        BigInteger r = BigInteger.ONE;
        for (long i = 1; i <= k; i++) {
            r = r.multiply(BigInteger.valueOf(n - k + i)).divide(BigInteger.valueOf(i));
        }
        return r;
    }

    /** n! exactly. */
    public static BigInteger factorial(int n) {
        BigInteger r = BigInteger.ONE;
        for (int i = 2; i <= n; i++) {
            r = r.multiply(BigInteger.valueOf(i));
        }
        return r;
    }

    /** num / den to {@link #DIGITS} digits. */
    public static BigDecimal ratio(BigInteger num, BigInteger den) {
        return new BigDecimal(num).divide(new BigDecimal(den), MC);
    }

    /** e^x for the exact binary value of the double x, to {@link #DIGITS} digits. */
    public static BigDecimal exp(double x) {
        return exp(new BigDecimal(x));
    }

    /** e^x to {@link #DIGITS} digits. */
    public static BigDecimal exp(BigDecimal x) {
        Apfloat a = ApfloatMath.exp(new Apfloat(x, DIGITS + 10));
        return new BigDecimal(a.toString(true)).round(MC);
    }

    /** Natural log of a positive decimal, as a double (for comparisons in log space). */
    public static double ln(BigDecimal x) {
        if (x.signum() <= 0) {
            return x.signum() == 0 ? Double.NEGATIVE_INFINITY : Double.NaN;
        }
        return ApfloatMath.log(new Apfloat(x, DIGITS + 10)).doubleValue();
    }

    /** Relative difference |approx - exact| / exact, computed in high precision. */
    public static double relativeError(double approxLog, BigDecimal exact) {
        if (exact.signum() == 0) {
            return approxLog == Double.NEGATIVE_INFINITY ? 0 : Double.POSITIVE_INFINITY;
        }
        BigDecimal approx = exp(approxLog);
        return approx.subtract(exact).abs().divide(exact, MC).doubleValue();
    }
}
