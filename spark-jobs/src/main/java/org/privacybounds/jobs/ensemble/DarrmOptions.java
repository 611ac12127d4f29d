package org.privacybounds.jobs.ensemble;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.jobs.common.UserInputException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Option;

/** The DaRRM setting: K mechanisms, each (eps, Delta)-DP; the target (m eps, delta); the prior of the objective. */
public final class DarrmOptions {
    @Option(names = "--k", paramLabel = "K", required = true, description = "Number of mechanisms (teachers), odd.")
    int k;

    // decimals: a verdict is decided for the number typed (0.1 is one tenth), not for the double nearest it
    @Option(names = "--m", paramLabel = "M", required = true, description = "Privacy allowance: the majority must be (M eps, delta)-DP, 1 <= M <= K (real).")
    BigDecimal m;

    @Option(names = "--epsilon", paramLabel = "E", required = true, description = "eps of each mechanism (> 0).")
    BigDecimal epsilon;

    @Option(names = "--delta-mech", paramLabel = "D", defaultValue = "0", description = "Delta of each mechanism, in [0, 1) (default: ${DEFAULT-VALUE}: pure DP, 4 corners).")
    BigDecimal mechanismDelta;

    @Option(names = "--delta", paramLabel = "D2", description = "Target delta, in [Delta, 1) (default: 1 - (1 - Delta)^M, the paper's composition of M mechanisms).")
    BigDecimal delta;

    @Option(names = "--prior", paramLabel = "P", defaultValue = "uniform",
            description = "Prior of the mechanisms' p_i for the objective: uniform (the paper's, folded mean 0.75), nonuniform (U([0,.3] u [.7,1]), 0.85), beta:A:B, or mean:MU; the objective uses the folded mean E[max(p, 1-p)] (default: ${DEFAULT-VALUE}).")
    String prior;

    @Option(names = "--subsample", paramLabel = "M",
            description = "Appendix D.1.1 (Table 3): hold every algorithm to the general-composition guarantee of subsampling M mechanisms: m = eps'(M)/eps, delta = 1 - (1 - Delta)^M (1 - delta'); give --m 1 (it is replaced).")
    Integer subsample;

    @Option(names = "--delta-prime", paramLabel = "D", defaultValue = "0.1", description = "delta' of the general composition with --subsample (default: ${DEFAULT-VALUE}).")
    double deltaPrime;

    private DarrmSetting resolved;

    /** The setting these options give (with --subsample: m and delta from Theorem 2.3), checked. */
    DarrmSetting resolved() {
        if (resolved == null) {
            resolved = subsample == null ? DarrmSetting.of(k, m.doubleValue(), epsilon.doubleValue(), mechanismDelta.doubleValue(),
                    delta == null ? Double.NaN : delta.doubleValue())
                    : DarrmSetting.subsampled(k, subsample, epsilon.doubleValue(), mechanismDelta.doubleValue(), deltaPrime);
        }
        return resolved;
    }

    /**
     * The setting as exact numbers for the verdicts: eps, Delta, m and delta as typed; with --subsample the derived m eps and
     * delta as the doubles echoed in the output.
     */
    ExactTarget exact() {
        DarrmSetting s = resolved();
        return subsample == null ? ExactTarget.of(epsilon, m, mechanismDelta, delta)
                : new ExactTarget(epsilon, mechanismDelta, new BigDecimal(s.m() * s.epsilon()), new BigDecimal(s.delta()));
    }

    ConstraintSet set() {
        return resolved().constraints();
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

    /** E[max(p, 1 - p)] of the prior. */
    double foldedMean() {
        String p = prior.trim().toLowerCase(Locale.ROOT);
        if (p.equals("uniform")) {
            return DarrmSetting.UNIFORM_FOLDED_MEAN;
        }
        if (p.equals("nonuniform")) {
            return DarrmSetting.NONUNIFORM_FOLDED_MEAN;
        }
        try {
            if (p.startsWith("mean:")) {
                double mu = Double.parseDouble(p.substring(5));
                if (mu > 0.5 && mu < 1) {
                    return mu;
                }
            } else if (p.startsWith("beta:")) {
                String[] ab = p.substring(5).split(":");
                if (ab.length == 2) {
                    return DarrmSetting.betaFoldedMean(Double.parseDouble(ab[0]), Double.parseDouble(ab[1]));
                }
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
        DarrmSetting s = resolved();
        p.put("k", s.k());
        p.put("m", s.m());
        p.put("epsilon", s.epsilon());
        p.put("deltaMech", s.mechanismDelta());
        p.put("delta", s.delta());
        p.put("prior", prior);
        p.put("priorFoldedMean", foldedMean());
        if (subsample != null) {
            p.put("subsample", subsample);
            p.put("deltaPrime", deltaPrime);
            Guarantee g = s.majorityGuarantee();
            ObjectNode t = p.putObject("table3");
            t.put("m", s.m());
            t.put("tau", s.majorityTau());
            t.put("lambda", g.delta());
            t.put("mEpsilon", s.m() * s.epsilon());
            t.put("delta", s.delta());
        }
    }
}
