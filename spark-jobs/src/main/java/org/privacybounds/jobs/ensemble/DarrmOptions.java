package org.privacybounds.jobs.ensemble;

import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;

import java.util.List;
import java.util.Locale;

import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.jobs.common.UserInputException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Option;

/** The DaRRM setting: K mechanisms, each (eps, Delta)-DP; the target (m eps, delta); the prior of the objective. */
public final class DarrmOptions {
    @Option(names = "--k", paramLabel = "K", required = true, description = "Number of mechanisms (teachers), odd.")
    int k;

    @Option(names = "--m", paramLabel = "M", required = true, description = "Privacy allowance: the majority must be (M eps, delta)-DP, 1 <= M <= K (real).")
    double m;

    @Option(names = "--epsilon", paramLabel = "E", required = true, description = "eps of each mechanism (> 0).")
    double epsilon;

    @Option(names = "--delta-mech", paramLabel = "D", defaultValue = "0", description = "Delta of each mechanism, in [0, 1) (default: ${DEFAULT-VALUE}: pure DP, 4 corners).")
    double mechanismDelta;

    @Option(names = "--delta", paramLabel = "D2", description = "Target delta, in [Delta, 1) (default: 1 - (1 - Delta)^M, the paper's composition of M mechanisms).")
    Double delta;

    @Option(names = "--prior", paramLabel = "P", defaultValue = "uniform",
            description = "Prior of the mechanisms' p_i for the objective: uniform (the paper's, folded mean 0.75), nonuniform (U([0,.3] u [.7,1]), 0.85), beta:A:B, or mean:MU; the objective uses the folded mean E[max(p, 1-p)] (default: ${DEFAULT-VALUE}).")
    String prior;

    @Option(names = "--subsample", paramLabel = "M",
            description = "Appendix D.1.1 (Table 3): hold every algorithm to the general-composition guarantee of subsampling M mechanisms: m = eps'(M)/eps, delta = 1 - (1 - Delta)^M (1 - delta'); give --m 1 (it is replaced).")
    Integer subsample;

    @Option(names = "--delta-prime", paramLabel = "D", defaultValue = "0.1", description = "delta' of the general composition with --subsample (default: ${DEFAULT-VALUE}).")
    double deltaPrime;

    /** Applies --subsample: m and delta from Theorem 2.3. */
    void resolve() {
        if (subsample == null) {
            return;
        }
        if (subsample < 1 || subsample > k) {
            throw new UserInputException("--subsample", subsample, "must be in 1..K = " + k);
        }
        if (!(deltaPrime > 0 && deltaPrime < 1)) {
            throw new UserInputException("--delta-prime", deltaPrime, "must be in (0, 1)");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon) || !(mechanismDelta >= 0 && mechanismDelta < 1)) {
            return;
        }
        Guarantee g = Composition.general(Guarantee.of(epsilon, mechanismDelta, "each model", 0), subsample, deltaPrime);
        m = g.epsilon() / epsilon;
        delta = g.delta();
    }

    /** (tau, lambda) of the true majority of all K: simple composition, or general with --subsample. */
    double[] majorityGuarantee() {
        Guarantee each = Guarantee.of(epsilon, mechanismDelta, "each model", 0);
        if (subsample == null) {
            return new double[] {k, Composition.basic(each, k).delta()};
        }
        Guarantee g = Composition.general(each, k, deltaPrime);
        return new double[] {g.epsilon() / epsilon, g.delta()};
    }

    /** The largest m eps whose e^(m eps) the constraint rows can hold in a double. */
    static final double MAX_M_EPSILON = 700;

    ConstraintSet set() {
        resolve();
        if (k < 1 || k % 2 == 0) {
            throw new UserInputException("--k", k, "must be an odd number >= 1");
        }
        if (k > 301) {
            throw new UserInputException("--k", k, "at most 301 (the constraint set grows as K^7 with Delta > 0, K^3 with Delta = 0)");
        }
        if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
            throw new UserInputException("--epsilon", epsilon, "must be a finite number > 0");
        }
        if (!(mechanismDelta >= 0 && mechanismDelta < 1)) {
            throw new UserInputException("--delta-mech", mechanismDelta, "must be in [0, 1)");
        }
        if (!(m >= 1 && m <= k)) {
            throw new UserInputException("--m", m, "must be in [1, K] = [1, " + k + "]");
        }
        if (m * epsilon > MAX_M_EPSILON) {
            throw new UserInputException("--m x --epsilon", m * epsilon, "must be at most " + MAX_M_EPSILON
                    + ": e^(m eps) overflows double precision there (and a factor e^700 guarantees nothing)");
        }
        double d = delta();
        if (!(d >= mechanismDelta && d < 1)) {
            throw new UserInputException("--delta", d, "must be in [Delta, 1) = [" + mechanismDelta + ", 1)");
        }
        return ConstraintSet.of(k, epsilon, mechanismDelta);
    }

    /**
     * Core-seconds of a run over the constraint set: about 30 rounds of double scans (2e-7 s per multiset) when optimizing, and the
     * 60-digit pass (about 1e-6 K s per multiset, measured at K = 15 and 21; twice when the certificate rescales).
     */
    static double estimate(ConstraintSet set, boolean optimize, boolean high) {
        double p = set.size();
        return 1 + (optimize ? 30 * 2e-7 * p : 2e-7 * p) + (high ? 2 * 1e-6 * set.k() * p : 0);
    }

    /** The --verify choice of darrm-optimize and darrm-verify: true for the 60-digit pass (auto: up to 1,000,000 constraints). */
    static boolean highPrecision(String verify, long constraints) {
        String mode = verify.trim().toLowerCase(Locale.ROOT);
        if (!List.of("auto", "double", "high").contains(mode)) {
            throw new UserInputException("--verify", verify, "allowed: auto, double, high");
        }
        return mode.equals("high") || (mode.equals("auto") && constraints <= 1_000_000);
    }

    double delta() {
        return delta != null ? delta : -Math.expm1(m * Math.log1p(-mechanismDelta));
    }

    /** E[max(p, 1 - p)] of the prior. */
    double foldedMean() {
        String p = prior.trim().toLowerCase(Locale.ROOT);
        if (p.equals("uniform")) {
            return 0.75;
        }
        if (p.equals("nonuniform")) {
            return 0.85;
        }
        try {
            if (p.startsWith("mean:")) {
                double mu = Double.parseDouble(p.substring(5));
                if (mu > 0.5 && mu < 1) {
                    return mu;
                }
            } else if (p.startsWith("beta:")) {
                String[] ab = p.substring(5).split(":");
                BetaDistribution b = BetaDistribution.of(Double.parseDouble(ab[0]), Double.parseDouble(ab[1]));
                IterativeLegendreGaussIntegrator g = new IterativeLegendreGaussIntegrator(16, 1e-12, 1e-14);
                return 0.5 + g.integrate(Integer.MAX_VALUE, x -> Math.abs(x - 0.5) * b.density(x), 1e-12, 0.5)
                        + g.integrate(Integer.MAX_VALUE, x -> Math.abs(x - 0.5) * b.density(x), 0.5, 1 - 1e-12);
            }
        } catch (RuntimeException e) {
            // fall through to the error below
        }
        throw new UserInputException("--prior", prior, "allowed: uniform, nonuniform, beta:A:B (A, B > 0), mean:MU (0.5 < MU < 1)");
    }

    double[] objective() {
        return DarrmOptimizer.objective(k, foldedMean());
    }

    void echo(ObjectNode p) {
        p.put("k", k);
        p.put("m", m);
        p.put("epsilon", epsilon);
        p.put("deltaMech", mechanismDelta);
        p.put("delta", delta());
        p.put("prior", prior);
        p.put("priorFoldedMean", foldedMean());
        if (subsample != null) {
            p.put("subsample", subsample);
            p.put("deltaPrime", deltaPrime);
            double[] tl = majorityGuarantee();
            ObjectNode t = p.putObject("table3");
            t.put("m", m);
            t.put("tau", tl[0]);
            t.put("lambda", tl[1]);
            t.put("mEpsilon", m * epsilon);
            t.put("delta", delta());
        }
    }
}
