package org.privacybounds.ensemble;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The law of a sum of independent Bernoulli(p_i): the recursion
 * {@code new[l] = pmf[l] (1 - p_i) + pmf[l-1] p_i} (O(K^2), exact for p in {0, 1}, every term
 * non-negative, so nothing cancels).
 */
public final class PoissonBinomial {
    private PoissonBinomial() {
    }

    /** {@code alpha_l = P(sum = l)}, l = 0..p.length. */
    public static double[] pmf(double... p) {
        double[] pmf = new double[p.length + 1];
        pmf[0] = 1;
        for (int i = 0; i < p.length; i++) {
            if (!(p[i] >= 0 && p[i] <= 1)) {
                throw new BadInputException(Parameter.P, "[" + i + "]", p[i], "must be a probability in [0, 1]");
            }
            add(pmf, i, p[i]);
        }
        return pmf;
    }

    /** Adds one Bernoulli(p) to a pmf of a sum of {@code n} terms, in place (entries 0..n+1). */
    static void add(double[] pmf, int n, double p) {
        double q = 1 - p;
        pmf[n + 1] = pmf[n] * p;
        for (int l = n; l >= 1; l--) {
            pmf[l] = pmf[l] * q + pmf[l - 1] * p;
        }
        pmf[0] *= q;
    }
}
