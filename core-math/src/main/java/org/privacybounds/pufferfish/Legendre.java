package org.privacybounds.pufferfish;

import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.apache.commons.numbers.combinatorics.LogBinomialCoefficient;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Legendre functions of the first kind on {@code x >= 1}, in log space.
 *
 * <p>For real degree {@code nu >= 0}, Laplace's integral
 * \( P_\nu(x) = \frac{1}{\pi} \int_0^\pi (x + \sqrt{x^2-1}\cos t)^\nu \, dt \),
 * computed by Gauss-Legendre quadrature after a change of variable (see {@link #logLaplaceIntegral}).
 * Integer degrees up to 2000 use the forward three-term recurrence
 * {@code (n+1) P_{n+1} = (2n+1) x P_n - n P_{n-1}}, stable on {@code x >= 1} where P_n is the dominant
 * (growing) solution; the tests compare it with the integral.
 *
 * <p>{@link #logPositivePart} is the paper's \(\bar Q_n\) of Corollary 4.1: the Legendre polynomial
 * with every negative coefficient dropped, summed from its exact coefficients
 * \( 2^{-n} \binom{n}{k}\binom{2n-2k}{n} \) (k even), all terms positive.
 */
public final class Legendre {
    /** Relative accuracy of each quadrature piece (1e-14 is below what sums of doubles reliably reach, and then never converged). */
    private static final double TOLERANCE = 1e-13;
    /** Refinement rounds and evaluations per piece: a piece that does not converge is an error, not a hang. */
    private static final int MAX_ITERATIONS = 64;
    private static final int MAX_EVALUATIONS = 2_000_000;

    private Legendre() {
    }

    /** {@code log P_nu(x)} for {@code nu >= 0}, {@code x >= 1}. */
    public static double logP(double nu, double x) {
        if (!(nu >= 0) || Double.isInfinite(nu)) {
            throw new BadInputException(Parameter.NU, nu, "the Legendre degree must be a finite number >= 0");
        }
        if (!(x >= 1) || Double.isInfinite(x)) {
            throw new BadInputException(Parameter.X, x, "the Legendre argument must be a finite number >= 1");
        }
        if (nu == 0 || x == 1) {
            return 0;
        }
        if (nu == Math.rint(nu) && nu <= 2000) {
            double r = logRecurrence((int) nu, x);
            if (Double.isFinite(r)) {
                return r;
            }
        }
        return logLaplaceIntegral(nu, x);
    }

    /** {@code P_nu(x)}; may overflow to infinity, use {@link #logP} for large values. */
    public static double p(double nu, double x) {
        return Math.exp(logP(nu, x));
    }

    private static double logRecurrence(int n, double x) {
        double prev = 1;
        double cur = x;
        double logScale = 0;
        for (int k = 1; k < n; k++) {
            double next = ((2.0 * k + 1) * x * cur - k * prev) / (k + 1);
            prev = cur;
            cur = next;
            if (cur > 1e250) {
                prev /= cur;
                logScale += Math.log(cur);
                cur = 1;
            }
        }
        return logScale + Math.log(cur);
    }

    /**
     * Laplace's integral with the largest factor {@code (x + sqrt(x^2-1))^nu} taken out. With
     * {@code u = cos(t/2)} and {@code e = (x - s)/(x + s) = 1/(x + s)^2} the rest is
     * {@code (2/pi) int_0^1 (e + (1 - e) u^2)^nu / sqrt(1 - u^2) du}: on [1/2, 1] it is integrated in
     * {@code u = sin(phi)} (no endpoint singularity), on [0, 1/2] on pieces graded geometrically from
     * sqrt(e), the width of the only sharp feature when x is large. Iterated 16-point Gauss-Legendre,
     * relative accuracy 1e-14 per piece; every integrand value is positive.
     */
    static double logLaplaceIntegral(double nu, double x) {
        // log(x + sqrt(x^2 - 1)) without overflow of x^2 (x may be near Double.MAX_VALUE)
        double logTop = x < 1e8 ? Math.log(x + Math.sqrt((x - 1) * (x + 1))) : Math.log(x) + Math.log1p(Math.sqrt((1 - 1 / x) * (1 + 1 / x)));
        double e = Math.exp(-2 * logTop);
        IterativeLegendreGaussIntegrator gauss = new IterativeLegendreGaussIntegrator(16, TOLERANCE, Double.MIN_NORMAL, 1, MAX_ITERATIONS);
        double sum = gauss.integrate(MAX_EVALUATIONS, phi -> {
            double u = Math.sin(phi);
            return Math.pow(e + (1 - e) * u * u, nu);
        }, Math.PI / 6, Math.PI / 2);
        double a = 0;
        double b = Math.min(0.5, Math.sqrt(e));
        if (b < 1e-140) {
            // x above ~1e140: e is (sub)normal-tiny and the integrand on [0, 1e-140] is at most (e + 1e-280)^nu / 0.86,
            // less than 1e-140 of the integral (at least 0.1 on [1/2, 1]); the grading starts there, away from subnormals
            a = 1e-140;
            b = 4e-140;
        }
        while (a < 0.5) {
            double lo = a;
            sum += gauss.integrate(MAX_EVALUATIONS, u -> Math.pow(e + (1 - e) * u * u, nu) / Math.sqrt((1 - u) * (1 + u)), lo, b);
            a = b;
            // the last piece takes what is left, never a sliver narrower than the piece before it
            b = 8 * b >= 0.5 ? 0.5 : 4 * b;
        }
        return nu * logTop + Math.log(2 / Math.PI * sum);
    }

    /** {@code log Qbar_n(y)}: the Legendre polynomial of degree n with its negative coefficients dropped; {@code y >= 0}. */
    public static double logPositivePart(int n, double y) {
        if (n < 0) {
            throw new BadInputException(Parameter.N, n, "the Legendre degree must be an integer >= 0");
        }
        if (!(y >= 0)) {
            throw new BadInputException(Parameter.Y, y, "must be >= 0");
        }
        LogSumExp sum = new LogSumExp();
        for (int k = 0; 2 * k <= n; k += 2) {
            int power = n - 2 * k;
            if (power > 0 && y == 0) {
                continue;
            }
            sum.add(LogBinomialCoefficient.value(n, k) + LogBinomialCoefficient.value(2 * n - 2 * k, n) - n * Math.log(2)
                    + (power == 0 ? 0 : power * Math.log(y)));
        }
        return sum.log();
    }
}
