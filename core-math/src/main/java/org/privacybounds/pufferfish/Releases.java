package org.privacybounds.pufferfish;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;
import org.privacybounds.validation.Require;

/**
 * The additive releases {@code f(X) + N} of one 1-D attribute under a Pufferfish framework given by its
 * conditional laws: GWM (Theorem 3.3), DAGWM with q = 1 (Theorem 4.5) and GAWM (Theorem 4.3), each at a
 * given noise scale or calibrated to a target epsilon, with its Renyi guarantee and the (eps, delta)-PP
 * guarantee derived from it.
 *
 * <p>Conversions (Propositions 2.2, 4.1 and C.1 of the Renyi Pufferfish paper, re-derived): an (alpha, eps)-RPP release is
 * {@code (eps + log(1/delta')/(alpha-1), delta')}-PP for the requested {@code delta'} (Proposition 2.2); an
 * (alpha, eps, delta)-approximate RPP release (GAWM) is {@code (eps + log(1/delta')/(alpha-1), delta + (1-delta) delta')}-PP:
 * the approximation's own delta is always part of the PP delta (Proposition 4.1 is the case delta' = delta, stated
 * there as 2 delta). At {@code alpha = inf}: (eps, 0)-PP, and (eps, delta)-PP for GAWM (Proposition C.1).
 *
 * <p>Example:
 * <pre>{@code
 * Map<String, DiscreteLaw> laws = Map.of("yes", DiscreteLaw.of(0, 1, 1), "no", DiscreteLaw.of(0, 0, 1));
 * Releases.Setting s = Releases.Setting.atScale(new Noise.Laplace(1), 2, 1.0, 1e-5);
 * Releases.Release r = Releases.gwm(s, Sensitivities.of(laws, 2, Double.NaN).wInfinity());
 * double eps = r.pp().epsilon();   // (eps, 1e-5)-Pufferfish private
 * }</pre>
 */
public final class Releases {
    private Releases() {
    }

    /**
     * How a release is set up: the noise family (its own scale is ignored), the Renyi order, either a noise scale
     * or a target epsilon (the other NaN), and the delta' of the conversion to (eps, delta)-PP.
     */
    public record Setting(Noise family, double alpha, double scale, double targetEpsilon, double conversionDelta) {
        public Setting {
            Require.renyiOrder(Parameter.ALPHA, alpha);
            Require.openUnitInterval(Parameter.CONVERSION_DELTA, conversionDelta);
            if (Double.isNaN(scale) == Double.isNaN(targetEpsilon)) {
                throw new BadInputException(Parameter.SCALE, scale, "give exactly one of a noise scale and a target epsilon");
            }
            if (!Double.isNaN(scale)) {
                Require.positiveFinite(Parameter.SCALE, scale);
            } else {
                Require.positiveFinite(Parameter.TARGET_EPSILON, targetEpsilon);
            }
        }

        /** A release at a given noise scale. */
        public static Setting atScale(Noise family, double alpha, double scale, double conversionDelta) {
            return new Setting(family, alpha, scale, Double.NaN, conversionDelta);
        }

        /** A release calibrated to the smallest scale reaching {@code targetEpsilon}. */
        public static Setting atTarget(Noise family, double alpha, double targetEpsilon, double conversionDelta) {
            return new Setting(family, alpha, Double.NaN, targetEpsilon, conversionDelta);
        }

        boolean calibrated() {
            return Double.isNaN(scale);
        }

        boolean pure() {
            return alpha == Double.POSITIVE_INFINITY;
        }
    }

    /**
     * One release: its mechanism, sensitivity, noise scale (NaN when no scale reaches the target), Renyi epsilon at
     * {@code alpha} (the PP epsilon itself when alpha = inf), the (eps, delta)-PP guarantee derived from it (null when the
     * epsilon is not finite), how each was obtained, and for GAWM the approximation's delta (else NaN).
     */
    public record Release(String mechanism, Noise family, double sensitivity, double scale, double alpha, double epsilon,
            double approximationDelta, Conversions.Pp pp, String method) {
    }

    /** GWM (Theorem 3.3) at sensitivity {@code Delta_G}. */
    public static Release gwm(Setting s, double deltaG) {
        Require.finiteNonNegative(Parameter.PUFFERFISH_SENSITIVITY, deltaG);
        String how = s.family().renyiExact() ? "closed form R_alpha(noise, Delta_G)" : "Lemma D.1 upper bound (corrected)";
        if (deltaG == 0) {
            return release("GWM", s, 0, s.scale(), 0, Double.NaN, "Delta_G = 0: every conditional law is the same; no noise needed");
        }
        if (!s.calibrated()) {
            return release("GWM", s, deltaG, s.scale(), Mechanisms.gwm(s.family().withScale(s.scale()), deltaG, s.alpha()), Double.NaN, how);
        }
        if (s.family() instanceof Noise.Gaussian && s.pure()) {
            return release("GWM", s, deltaG, Double.NaN, Double.POSITIVE_INFINITY, Double.NaN, "Gaussian noise gives no pure Pufferfish privacy");
        }
        double scale = Mechanisms.gwmScale(s.family(), deltaG, s.alpha(), s.targetEpsilon());
        return release("GWM", s, deltaG, scale, Mechanisms.gwm(s.family().withScale(scale), deltaG, s.alpha()), Double.NaN,
                how + "; scale calibrated to the target");
    }

    /** DAGWM with q = 1 (Theorem 4.5) over the conditional laws; {@code w2} is reported as its sensitivity. */
    public static Release dagwm(Setting s, Map<String, DiscreteLaw> laws, double w2) {
        String name = "DAGWM (q=1)";
        if (s.pure()) {
            return release(name, s, w2, Double.NaN, Double.NaN, Double.NaN, "not defined at alpha = inf (its limit is the GWM value)");
        }
        String how = "log E[phi(X - Y)] / (alpha - 1) over the exact quantile coupling (Theorem 4.5, q = 1), maximised over pairs"
                + (s.family().renyiExact() ? "" : "; Lemma D.1 upper bound");
        DoubleUnaryOperator eps = scale -> Mechanisms.dagwm(Sensitivities.logDistributionAware(laws, s.family().withScale(scale), 1, s.alpha()), 1,
                s.alpha());
        if (!s.calibrated()) {
            return release(name, s, w2, s.scale(), eps.applyAsDouble(s.scale()), Double.NaN, how);
        }
        if (w2 == 0) {
            return release(name, s, 0, Double.NaN, 0, Double.NaN, "every conditional law is the same; no noise needed");
        }
        double scale = Mechanisms.calibrate(eps, s.targetEpsilon(), w2);
        return release(name, s, w2, scale, eps.applyAsDouble(scale), Double.NaN, how + "; scale calibrated by bisection");
    }

    /** GAWM (Theorem 4.3) at radius {@code Delta_{G,delta}} for the approximation's {@code delta}. */
    public static Release gawm(Setting s, double nearRadius, double delta) {
        Require.finiteNonNegative(Parameter.APPROXIMATE_SENSITIVITY, nearRadius);
        Require.openUnitInterval(Parameter.APPROXIMATION_DELTA, delta);
        String name = "GAWM (delta=" + delta + ")";
        String how = "R_alpha(noise, Delta_G,delta) + alpha/(alpha-1) log(1/(1-delta)) (Theorem 4.3), (alpha, eps, delta)-approximate RPP";
        DoubleUnaryOperator eps = scale -> Mechanisms.gawm(s.family().withScale(scale), nearRadius, s.alpha(), delta);
        if (!s.calibrated()) {
            return release(name, s, nearRadius, s.scale(), eps.applyAsDouble(s.scale()), delta, how);
        }
        if (nearRadius == 0) {
            return release(name, s, 0, Double.NaN, eps.applyAsDouble(1), delta, how + "; Delta_G,delta = 0: the cost is the approximation's alone");
        }
        if ((s.family() instanceof Noise.Gaussian && s.pure()) || eps.applyAsDouble(1e300) > s.targetEpsilon()) {
            return release(name, s, nearRadius, Double.NaN, Double.NaN, delta, "the target is below the approximation's own cost");
        }
        double scale = Mechanisms.calibrate(eps, s.targetEpsilon(), nearRadius);
        return release(name, s, nearRadius, scale, eps.applyAsDouble(scale), delta, how + "; scale calibrated by bisection");
    }

    /** The Cauchy mechanism in the paper's printed form (Corollary 4.1, k = 2, alpha = 2, d = 1) at {@code scale}: valid, looser. */
    public static Release cauchyPaperForm(Setting s, double w2, double scale) {
        if (!(s.family() instanceof Noise.Cauchy c && c.k() == 2 && s.alpha() == 2)) {
            throw new BadInputException(Parameter.NOISE, s.family().family(), "the paper form of Corollary 4.1 is for Cauchy noise (k = 2) at alpha = 2");
        }
        double eps = Mechanisms.cauchyCorollary41(w2, (Noise.Cauchy) s.family().withScale(scale), 1, 2, 1, true);
        return release("Cor. 4.1 (paper form)", s, w2, scale, eps, Double.NaN,
                "log(1 + W_2^2 / scale^2): the printed bound, valid but looser than the exact log(1 + W_2^2 / (2 scale^2))");
    }

    /** The releases of one noise family: the paper's pairing first (Table 1), then the alternatives. */
    public record Family(Release primary, List<Release> alternatives) {
    }

    /**
     * Every release of one family: GWM, DAGWM and (when {@code approximationDelta} is not NaN) GAWM; the primary is
     * GWM, or DAGWM for Cauchy noise at finite alpha (Table 1's pairing); Cauchy k = 2 at alpha = 2 adds the paper form
     * of Corollary 4.1 at the primary's scale.
     */
    public static Family of(Setting s, Map<String, DiscreteLaw> laws, Sensitivities.Result r, double approximationDelta) {
        List<Release> options = new ArrayList<>();
        options.add(gwm(s, r.wInfinity()));
        options.add(dagwm(s, laws, r.wP()));
        if (!Double.isNaN(approximationDelta)) {
            options.add(gawm(s, r.nearRadius(), approximationDelta));
        }
        Release primary = s.family() instanceof Noise.Cauchy && !s.pure() ? options.get(1) : options.get(0);
        List<Release> alternatives = new ArrayList<>();
        for (Release x : options) {
            if (x != primary) {
                alternatives.add(x);
            }
        }
        if (s.family() instanceof Noise.Cauchy c && c.k() == 2 && s.alpha() == 2 && Double.isFinite(primary.scale())) {
            alternatives.add(cauchyPaperForm(s, r.wP(), primary.scale()));
        }
        return new Family(primary, List.copyOf(alternatives));
    }

    private static Release release(String mechanism, Setting s, double sensitivity, double scale, double epsilon, double approximationDelta,
            String method) {
        Conversions.Pp pp = null;
        if (Double.isFinite(epsilon)) {
            pp = Double.isNaN(approximationDelta) ? Conversions.fromRenyi(s.alpha(), epsilon, s.conversionDelta())
                    : Conversions.fromApproximateRenyi(s.alpha(), epsilon, approximationDelta, s.conversionDelta());
        }
        return new Release(mechanism, s.family().withScale(Double.isFinite(scale) ? scale : 1), sensitivity, scale, s.alpha(), epsilon,
                approximationDelta, pp, method);
    }
}
