package org.privacybounds.smoothed.sdp;

import org.privacybounds.numeric.LogMath;

/**
 * Composition of smoothed DP (seed 000 Proposition 5): mechanisms with independent randomness
 * that are (eps_i, delta_i, Pi)-smoothed DP compose to (sum eps_i, sum delta_i, Pi). The printed
 * proof has reversed inequalities (spec G5); the statement holds through the pointwise basic
 * composition of hockey-stick divergences. Deltas are kept in log space; a sum above 1 is capped.
 */
public final class Composition {
    private Composition() {
    }

    /** One mechanism k times: (k eps, min(1, k delta)). Returns {eps, logDelta}. */
    public static double[] repeat(double eps, double logDelta, int k) {
        if (k < 1) {
            throw new org.privacybounds.validation.BadInputException("--compose", k, "must be >= 1");
        }
        return new double[] {k * eps, Math.min(0, Math.log(k) + logDelta)};
    }

    /** Several mechanisms: (sum eps_i, min(1, sum delta_i)). Returns {eps, logDelta}. */
    public static double[] combine(double[] eps, double[] logDelta) {
        double e = 0;
        double d = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < eps.length; i++) {
            e += eps[i];
            d = LogMath.logAdd(d, logDelta[i]);
        }
        return new double[] {e, Math.min(0, d)};
    }
}
