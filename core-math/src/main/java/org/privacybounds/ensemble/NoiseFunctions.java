package org.privacybounds.ensemble;

import java.math.BigInteger;
import java.util.Arrays;

import org.apache.commons.numbers.fraction.BigFraction;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The gamma families of DaRRM (Jiang, Zhang and Joshi, "Optimized Tradeoffs for Private Prediction with Majority Ensembling", Section 3 and Theorem 4.1): gamma maps the number l of ones among K
 * votes to the probability of releasing the true majority (else a fair coin). All are symmetric,
 * {@code gamma(l) = gamma(K - l)}.
 */
public final class NoiseFunctions {
    private NoiseFunctions() {
    }

    /**
     * Subsampling (Lemma 3.1, piecewise form; even m with fair tie-breaking):
     * {@code gamma_Sub(l) = 1 - 2 hS(min(l, K - l))}, hS(l) = P(majority of an m-subset is 1 | l ones), exact fractions.
     */
    public static BigFraction[] subsamplingExact(int k, int m) {
        checkKm(k, m);
        BigFraction[] g = new BigFraction[k + 1];
        BigInteger total = binomial(k, m);
        for (int l = 0; l <= k; l++) {
            int low = Math.min(l, k - l);
            BigFraction h = BigFraction.ZERO;
            for (int j = 0; j <= m; j++) {
                BigInteger ways = binomial(low, j).multiply(binomial(k - low, m - j));
                if (ways.signum() == 0) {
                    continue;
                }
                BigFraction hyp = BigFraction.of(ways, total);
                if (2 * j > m) {
                    h = h.add(hyp);
                } else if (2 * j == m) {
                    h = h.add(hyp.multiply(BigFraction.of(1, 2)));
                }
            }
            g[l] = BigFraction.ONE.subtract(h.multiply(2));
        }
        return g;
    }

    public static double[] subsampling(int k, int m) {
        BigFraction[] g = subsamplingExact(k, m);
        double[] d = new double[g.length];
        for (int i = 0; i < g.length; i++) {
            d[i] = g[i].doubleValue();
        }
        return d;
    }

    /** Double subsampling (Theorem 4.1, pure DP, iid): 1 everywhere if m >= (K+1)/2, else gamma_Sub(K, 2m - 1). */
    public static double[] doubleSubsampling(int k, int m) {
        checkKm(k, m);
        if (m >= (k + 1) / 2) {
            double[] one = new double[k + 1];
            Arrays.fill(one, 1);
            return one;
        }
        return subsampling(k, 2 * m - 1);
    }

    /** Randomized response with a constant: gamma(l) = p for every l. */
    public static double[] constant(int k, double p) {
        double[] g = new double[k + 1];
        Arrays.fill(g, p);
        return g;
    }

    /**
     * Lemma A.1 with equality, clamped to [0, 1]:
     * {@code p_const = (E_m - 1 + 2 delta)(e^{tau eps} + 1) / ((E_m + 1)(e^{tau eps} - 1 + 2 lambda))}, when the true
     * majority of the K votes is (tau eps, lambda)-DP.
     */
    public static double pConst(double m, double epsilon, double delta, double tau, double lambda) {
        // both factors multiplied through by e^{-x}: no overflow at large eps, no cancellation at small eps
        double am = Math.exp(-m * epsilon);
        double at = Math.exp(-tau * epsilon);
        double p = (-Math.expm1(-m * epsilon) + 2 * delta * am) / (1 + am) * (1 + at) / (-Math.expm1(-tau * epsilon) + 2 * lambda * at);
        return Math.max(0, Math.min(1, p));
    }

    /** Checks a noise function: K + 1 values in [0, 1], K odd, symmetric. */
    public static void check(double[] gamma) {
        int k = gamma.length - 1;
        if (k < 1 || k % 2 == 0) {
            throw new BadInputException(Parameter.GAMMA, gamma.length + " values", "needs K + 1 values, gamma(0..K), for an odd K >= 1");
        }
        for (int l = 0; l <= k; l++) {
            if (!(gamma[l] >= 0 && gamma[l] <= 1)) {
                throw new BadInputException(Parameter.GAMMA, "(" + l + ")", gamma[l], "must be in [0, 1]");
            }
            if (gamma[l] != gamma[k - l]) {
                throw new BadInputException(Parameter.GAMMA, "(" + l + ")", gamma[l] + " vs gamma(" + (k - l) + ") = " + gamma[k - l],
                        "must be symmetric: gamma(l) = gamma(K - l)");
            }
        }
    }

    static BigInteger binomial(int n, int r) {
        if (r < 0 || r > n) {
            return BigInteger.ZERO;
        }
        BigInteger b = BigInteger.ONE;
        for (int i = 1; i <= r; i++) {
            b = b.multiply(BigInteger.valueOf(n - r + i)).divide(BigInteger.valueOf(i));
        }
        return b;
    }

    private static void checkKm(int k, int m) {
        if (k < 1 || k % 2 == 0) {
            throw new BadInputException(Parameter.TEACHERS, k, "must be an odd number >= 1");
        }
        if (m < 1 || m > k) {
            throw new BadInputException(Parameter.ALLOWANCE, m, "must be an integer in 1..K = " + k);
        }
    }
}
