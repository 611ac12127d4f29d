package org.privacybounds.smoothed;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The Bayesian adversary's adjusted utility for the sampling-histogram mechanism (Liu, Wang and Xia, "Smoothed Differential Privacy",
 * Eq. (3), Appendix A.1), exact in log space.
 */
public final class AdjustedUtility {
    private final SamplingHistogramMechanism mechanism;

    public AdjustedUtility(SamplingHistogramMechanism mechanism) {
        this.mechanism = mechanism;
    }

    /** eps = ln(t / (1 - t)) for a threshold t in [0.5, 1). */
    public static double epsilonOfThreshold(double t) {
        return Math.log(checkThreshold(t)) - Math.log1p(-t);
    }

    /** Checks a threshold t: in [0.5, 1), so that eps = ln(t/(1-t)) >= 0; returns it. */
    public static double checkThreshold(double t) {
        if (!(t >= 0.5 && t < 1)) {
            throw new BadInputException(Parameter.THRESHOLD, t, "must be in [0.5, 1) (t = e^eps/(1+e^eps) with eps >= 0)");
        }
        return t;
    }

    /**
     * The utility of the given form at threshold t for database h. Eq. (3) is available for two
     * categories (its posterior runs over every category, which the pairwise reduction does not
     * give for m > 2).
     */
    public UtilityValue utility(int[] h, double t, UtilityForm form) {
        mechanism.checkHistogram(h);
        double eps = epsilonOfThreshold(t);
        if (form == UtilityForm.EQ3 && h.length != 2) {
            throw new BadInputException(Parameter.UTILITY_FORM, "eq3", "Eq. (3) is implemented for m = 2 categories; use the Figure 1 form");
        }
        double rel = SamplingHistogramMechanism.RELATIVE_TOLERANCE;
        double best = Double.NEGATIVE_INFINITY;
        double bestErr = 0;
        Neighbor worst = null;
        double[] pair = null;
        for (int a = 0; a < h.length; a++) {
            if (h[a] == 0) {
                continue;
            }
            for (int b = 0; b < h.length; b++) {
                if (b == a) {
                    continue;
                }
                int[] hp = h.clone();
                hp[a]--;
                hp[b]++;
                MovePair fwd = new MovePair(mechanism.sampling(), h, a, b, mechanism.sampleSize());
                MovePair bwd = new MovePair(mechanism.sampling(), hp, b, a, mechanism.sampleSize());
                MovePair.Sum uFwd = fwd.oneSidedUtility(eps, rel);
                MovePair.Sum uBwd = bwd.oneSidedUtility(eps, rel);
                double value;
                double err;
                Direction dir;
                if (form == UtilityForm.FIGURE1 || uFwd.log() >= uBwd.log()) {
                    value = uFwd.log();
                    err = uFwd.relativeTruncation();
                    dir = Direction.X_TO_NEIGHBOR;
                } else {
                    value = uBwd.log();
                    err = uBwd.relativeTruncation();
                    dir = Direction.NEIGHBOR_TO_X;
                }
                if (value > best || worst == null) {
                    best = value;
                    bestErr = err;
                    worst = new Neighbor(a, b, dir);
                    double d1 = fwd.hockeyStick(eps, rel).log();
                    double d2 = bwd.hockeyStick(eps, rel).log();
                    double sum = LogMath.logAdd(d1, d2);
                    pair = new double[] {Math.max(uFwd.log(), uBwd.log()), sum - LogMath.LN2, sum};
                }
            }
        }
        if (worst == null) {
            throw new BadInputException(Parameter.COUNTS, "all records in one category and no neighbour", "need n >= 1");
        }
        double allowance = SamplingHistogramMechanism.FLOATING_POINT_ALLOWANCE;
        return new UtilityValue(t, eps, form, best, best == Double.NEGATIVE_INFINITY ? 0 : bestErr + allowance,
                best == Double.NEGATIVE_INFINITY ? null : worst, pair[0], pair[1], pair[2]);
    }
}
