package org.privacybounds.ensemble;

import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The DaRRM setting (Jiang, Zhang and Joshi, "Optimized Tradeoffs for Private Prediction with Majority Ensembling", Section 1): K mechanisms (odd), each (eps, Delta)-DP; the majority's target (m eps, delta); and, for
 * Appendix D.1.1 (Table 3), the subsampling of M mechanisms whose general composition sets m and delta. Also the
 * guarantee (tau eps, lambda) of the true majority of all K that the baselines compare with, and the folded mean
 * E[max(p, 1 - p)] of a prior of the mechanisms' p_i (the objective's only dependence on the prior).
 *
 * <p>Example (the paper's K = 11, m = 3, eps = 0.1, pure DP):
 * <pre>{@code
 * DarrmSetting s = DarrmSetting.of(11, 3, 0.1, 0, Double.NaN);     // delta = 1 - (1 - Delta)^m = 0
 * ConstraintSet set = s.constraints();
 * DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, s.m(), s.delta(), DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN));
 * Guarantee majority = s.majorityGuarantee();                       // (K eps, 0) by basic composition
 * }</pre>
 *
 * @param subsample     M of Appendix D.1.1, or 0 without subsampling
 * @param deltaPrime    delta' of the general composition with subsampling, else NaN
 */
public record DarrmSetting(int k, double m, double epsilon, double mechanismDelta, double delta, int subsample, double deltaPrime) {
    /** The largest K: the constraint set grows as K^7 with Delta > 0 and K^3 with Delta = 0. */
    public static final int MAX_K = 301;
    /** The largest m eps whose e^(m eps) the constraint rows can hold in a double. */
    public static final double MAX_M_EPSILON = 700;
    /** E[max(p, 1 - p)] of p ~ U[0, 1], the paper's uniform prior. */
    public static final double UNIFORM_FOLDED_MEAN = 0.75;
    /** E[max(p, 1 - p)] of p ~ U([0, 0.3] u [0.7, 1]), the paper's non-uniform prior. */
    public static final double NONUNIFORM_FOLDED_MEAN = 0.85;

    public DarrmSetting {
        if (k < 1 || k % 2 == 0) {
            throw new BadInputException(Parameter.TEACHERS, k, "must be an odd number >= 1");
        }
        if (k > MAX_K) {
            throw new BadInputException(Parameter.TEACHERS, k, "at most " + MAX_K + " (the constraint set grows as K^7 with Delta > 0, K^3 with Delta = 0)");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must be a finite number > 0");
        }
        if (!(mechanismDelta >= 0 && mechanismDelta < 1)) {
            throw new BadInputException(Parameter.MECHANISM_DELTA, mechanismDelta, "must be in [0, 1)");
        }
        if (!(m >= 1 && m <= k)) {
            throw new BadInputException(Parameter.ALLOWANCE, m, "must be in [1, K] = [1, " + k + "]");
        }
        if (m * epsilon > MAX_M_EPSILON) {
            throw new BadInputException(Parameter.M_EPS, m * epsilon, "must be at most " + MAX_M_EPSILON
                    + ": e^(m eps) overflows double precision there (and a factor e^700 guarantees nothing)");
        }
        if (!(delta >= mechanismDelta && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in [Delta, 1) = [" + mechanismDelta + ", 1)");
        }
    }

    /** A target (m eps, delta); a NaN delta means the paper's composition of m mechanisms, 1 - (1 - Delta)^m. */
    public static DarrmSetting of(int k, double m, double epsilon, double mechanismDelta, double delta) {
        double d = Double.isNaN(delta) ? composedDelta(m, mechanismDelta) : delta;
        return new DarrmSetting(k, m, epsilon, mechanismDelta, d, 0, Double.NaN);
    }

    /** The paper's delta of m mechanisms, each with Delta: {@code 1 - (1 - Delta)^m}. */
    public static double composedDelta(double m, double mechanismDelta) {
        return -Math.expm1(m * Math.log1p(-mechanismDelta));
    }

    /**
     * Appendix D.1.1: the target is the general composition (Theorem 2.3) of M of the K mechanisms at delta':
     * m = eps'(M) / eps and delta = 1 - (1 - Delta)^M (1 - delta').
     */
    public static DarrmSetting subsampled(int k, int subsample, double epsilon, double mechanismDelta, double deltaPrime) {
        if (subsample < 1 || subsample > k) {
            throw new BadInputException(Parameter.SUBSAMPLE, subsample, "must be in 1..K = " + k);
        }
        if (!(deltaPrime > 0 && deltaPrime < 1)) {
            throw new BadInputException(Parameter.DELTA_PRIME, deltaPrime, "must be in (0, 1)");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must be a finite number > 0");
        }
        if (!(mechanismDelta >= 0 && mechanismDelta < 1)) {
            throw new BadInputException(Parameter.MECHANISM_DELTA, mechanismDelta, "must be in [0, 1)");
        }
        Guarantee g = Composition.general(Guarantee.of(epsilon, mechanismDelta, "each model", 0), subsample, deltaPrime);
        return new DarrmSetting(k, g.epsilon() / epsilon, epsilon, mechanismDelta, g.delta(), subsample, deltaPrime);
    }

    /** Whether the target comes from subsampling M mechanisms. */
    public boolean subsampled() {
        return subsample > 0;
    }

    /** The majority's target (m eps, delta). */
    public Guarantee target() {
        return Guarantee.of(m * epsilon, delta, subsampled() ? "general composition of " + subsample + " mechanisms (Theorem 2.3)" : "the target", 0);
    }

    /**
     * The guarantee of the true majority of all K: basic composition (K eps, min(1, K Delta)), or with subsampling the general
     * composition of K at delta'. Its eps over eps is the baselines' tau, its delta their lambda.
     */
    public Guarantee majorityGuarantee() {
        Guarantee each = Guarantee.of(epsilon, mechanismDelta, "each model", 0);
        return subsampled() ? Composition.general(each, k, deltaPrime) : Composition.basic(each, k);
    }

    /** tau = the majority's eps over eps: K exactly by basic composition, eps'(K) / eps by the general one. */
    public double majorityTau() {
        return subsampled() ? majorityGuarantee().epsilon() / epsilon : k;
    }

    /** The constraint set of K mechanisms, each (eps, Delta)-DP. */
    public ConstraintSet constraints() {
        return ConstraintSet.of(k, epsilon, mechanismDelta);
    }

    /** E[max(p, 1 - p)] for p ~ Beta(a, b) (Gauss-Legendre on each half, 1e-12 relative). */
    public static double betaFoldedMean(double a, double b) {
        if (!(a > 0) || !(b > 0) || Double.isInfinite(a) || Double.isInfinite(b)) {
            throw new BadInputException(Parameter.BETA_PRIOR, a + ":" + b, "needs finite A, B > 0");
        }
        BetaDistribution d = BetaDistribution.of(a, b);
        IterativeLegendreGaussIntegrator g = new IterativeLegendreGaussIntegrator(16, 1e-12, 1e-14);
        return 0.5 + g.integrate(Integer.MAX_VALUE, x -> Math.abs(x - 0.5) * d.density(x), 1e-12, 0.5)
                + g.integrate(Integer.MAX_VALUE, x -> Math.abs(x - 0.5) * d.density(x), 0.5, 1 - 1e-12);
    }
}
