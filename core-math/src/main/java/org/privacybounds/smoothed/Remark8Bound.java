package org.privacybounds.smoothed;

import java.util.OptionalDouble;

import org.privacybounds.numeric.LogMath;

/**
 * The non-asymptotic smoothed-DP bound of Liu, Wang and Xia, "Smoothed Differential Privacy", Remark 8 (Theorem 3 (i), Appendix E.1):
 * for an f-positive set of distributions over m categories and any {@code eps > ln(1/(1 - eta))},
 * <pre>
 *   delta = exp(-(1/6) g(eta, eps) f n) + m exp(-(1/8) f n),   g = (eta^-1 (1 - e^-eps) - 1)^2.
 * </pre>
 * This is the paper's bound as printed; its proof applies a Chernoff bound with the wrong mean
 * (its proof applies Chernoff with mean H_i1 instead of (T/n) H_i1), so it is reported as "paper bound" next to exact values, never instead of them.
 * eta is taken as T/n, the sampling rate the proof uses.
 */
public final class Remark8Bound {
    private Remark8Bound() {
    }

    /**
     * Natural log of the bound, or empty when {@code eps <= ln(1/(1 - eta))} (where the remark
     * does not apply).
     *
     * @param eta rate T/n in (0, 1)
     * @param eps the eps of the smoothed guarantee
     * @param f   f(n, m): the smallest probability any distribution of the set gives a category
     * @param m   number of categories
     * @param n   number of records
     */
    public static OptionalDouble logBound(double eta, double eps, double f, int m, long n) {
        if (!(eta > 0 && eta < 1) || !(f > 0) || eps <= -Math.log1p(-eta)) {
            return OptionalDouble.empty();
        }
        double g = (-Math.expm1(-eps) / eta - 1);
        g = g * g;
        double a = -g * f * n / 6;
        double b = Math.log(m) - f * n / 8;
        return OptionalDouble.of(LogMath.logAdd(a, b));
    }
}
