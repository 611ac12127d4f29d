package org.privacybounds.numeric;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.Erfcx;

/**
 * Scalar log-space helpers. All take and return natural logarithms unless the name says log10.
 *
 * <p>Example:
 * <pre>{@code
 * double ln = LogMath.logAdd(-800, -801);   // ln(e^-800 + e^-801), no underflow
 * double log10 = LogMath.toLog10(ln);       // about -347.3
 * }</pre>
 */
public final class LogMath {
    /** ln 2. */
    public static final double LN2 = 0.6931471805599453;
    /** 1 / ln 10. */
    private static final double INV_LN10 = 0.4342944819032518;

    private LogMath() {
    }

    /**
     * {@code log(1 - exp(x))} for {@code x <= 0}, accurate over the whole range (Maechler 2012:
     * {@code log(-expm1(x))} near 0, {@code log1p(-exp(x))} below -ln 2).
     *
     * @return {@code -Infinity} at {@code x = 0}, NaN for {@code x > 0}
     */
    public static double log1mexp(double x) {
        if (x > 0) {
            return Double.NaN;
        }
        return x > -LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
    }

    /** {@code log(1 + exp(x))} without overflow. */
    public static double log1pexp(double x) {
        if (x <= -37) {
            return Math.exp(x);
        }
        if (x <= 18) {
            return Math.log1p(Math.exp(x));
        }
        if (x <= 33.3) {
            return x + Math.exp(-x);
        }
        return x;
    }

    /** {@code log(exp(a) + exp(b))}. */
    public static double logAdd(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double hi = Math.max(a, b);
        double lo = Math.min(a, b);
        return hi + Math.log1p(Math.exp(lo - hi));
    }

    /**
     * {@code log(erfc(x) / 2)} without underflow: from the scaled complementary error function for {@code x >= 0} (erfc itself
     * underflows past x = 26.5), and below as {@code log1p(-erfc(-x) / 2)} (accurate where erfc(x) / 2 is near 1).
     * {@code logHalfErfc(-z / sqrt(2))} is ln of the standard normal law's CDF at z.
     */
    public static double logHalfErfc(double x) {
        return x >= 0 ? Math.log(Erfcx.value(x)) - x * x - LN2 : Math.log1p(-0.5 * Erfc.value(-x));
    }

    /** Natural log to base-10 log; -Infinity stays -Infinity. */
    public static double toLog10(double ln) {
        return ln * INV_LN10;
    }

    /** {@code exp(ln)}: the double value of a log-space quantity (0 only when it underflows). */
    public static double value(double ln) {
        return Math.exp(ln);
    }
}
