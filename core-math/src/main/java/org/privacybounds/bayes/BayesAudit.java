package org.privacybounds.bayes;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.privacybounds.bayes.ChainAudit.Config;
import org.privacybounds.bayes.ChainAudit.Pair;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.bayes.ChainAudit.Witness;
import org.privacybounds.bayes.Mechanism.SmoothBeta;
import org.privacybounds.guarantee.Verdict;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The privacy audit of DP Bayesian inference with the exponential mechanism (the notes "DP Bayesian inference") as results: the configurations
 * of one n (every mechanism x eps, each with its loss levels eps and fraction x eps), the summary row of each
 * configuration from the merged exact audit ({@link ChainAudit}) and the smoothed delta over a Bernoulli set
 * ({@link SmoothedBernoulli}), the verdicts on statements I-III over a range of n, and the search for the first n where
 * the local-sensitivity mechanism exceeds its nominal eps.
 *
 * <p>Example (n = 20, eps = 1, Bernoulli set [0.3, 0.7]):
 * <pre>{@code
 * BayesAudit.Setup setup = new BayesAudit.Setup(new double[] {1}, 1e-6, Mechanism.SmoothBeta.STATEMENT, new double[] {0.5});
 * PosteriorFamily f = new PosteriorFamily(20);
 * ChainAudit.Part part = ChainAudit.run(f, setup.configs(f), 0, 21);   // every database; split it and merge() to distribute
 * for (BayesAudit.Row r : BayesAudit.rows(20, part, setup, 0.3, 0.7)) {
 *     System.out.println(r.mechanism() + ": realised eps / nominal = " + r.realisedOverNominal() + ", pure DP " + r.pureDp());
 * }
 * }</pre>
 */
public final class BayesAudit {
    private BayesAudit() {
    }

    /** What is audited besides n: the nominal eps values, the smooth-sensitivity delta and beta form, and the loss fractions in (0, 1]. */
    public record Setup(double[] eps, double delta, SmoothBeta beta, double[] fractions) implements Serializable {
        public Setup {
            for (double e : eps) {
                if (!(e > 0) || Double.isInfinite(e)) {
                    throw new BadInputException(Parameter.EPS, e, "every value must be a finite number > 0");
                }
            }
            if (!(delta > 0 && delta < 1)) {
                throw new BadInputException(Parameter.DELTA, delta, "must be in (0, 1)");
            }
            for (double f : fractions) {
                if (!(f > 0 && f <= 1)) {
                    throw new BadInputException(Parameter.LOSS_FRACTIONS, f, "every value must be in (0, 1]");
                }
            }
            eps = eps.clone();
            fractions = fractions.clone();
        }

        /** Every mechanism x eps of one posterior family, in the order of {@link Mechanism#values()} then eps. */
        public List<Config> configs(PosteriorFamily f) {
            List<Config> out = new ArrayList<>();
            for (Mechanism m : Mechanism.values()) {
                for (double e : eps) {
                    double[] loss = new double[fractions.length + 1];
                    loss[0] = e;
                    for (int i = 0; i < fractions.length; i++) {
                        loss[i + 1] = fractions[i] * e;
                    }
                    out.add(new Config(m.label(), e, m.sensitivity(f, e, delta, beta), loss));
                }
            }
            return out;
        }
    }

    /** The worst-case and smoothed delta at eps' = fraction x eps (ln values; -inf when exactly 0). */
    public record AtFraction(double fraction, double epsilon, double logWorstCaseDelta, double worstCaseDeltaRelativeErrorBound, Pair worstPair,
            double logSmoothedDelta, double smoothedDeltaRelativeErrorBound, int smoothedArgmaxRecordsAtPHigh) implements Serializable {
    }

    /**
     * One mechanism at one n and eps: the realised loss max |ln P_k(j) - ln P_k'(j)| with its witness, the worst-case delta
     * at eps (ln), whether the mechanism is eps-DP (decided so that rounding cannot flip it: {@link PureDpVerdict}), the smoothed delta over the Bernoulli set (ln), the utility (mean and
     * worst E[Hellinger], mean probability of the true posterior's output), the sensitivity's range and the fractions.
     */
    public record Row(String mechanism, int n, double epsilon, double maxLogRatio, Witness witness, double logWorstCaseDelta,
            double worstCaseDeltaRelativeErrorBound, Verdict pureDp, double logSmoothedDelta, double smoothedDeltaRelativeErrorBound,
            double expectedHellinger, double worstExpectedHellinger, int worstExpectedHellingerK, double probabilityTrue, double sensitivityMin,
            double sensitivityMax, List<AtFraction> atFractions) implements Serializable {
        /** maxLogRatio / eps. */
        public double realisedOverNominal() {
            return maxLogRatio / epsilon;
        }
    }

    /**
     * The rows of one n from the part covering every database (0..n) of {@code setup.configs(new PosteriorFamily(n))},
     * with the smoothed delta over Bernoulli(p), p in [pLo, pHi].
     */
    public static List<Row> rows(int n, Part p, Setup setup, double pLo, double pHi) {
        if (p.from != 0 || p.to != n + 1) {
            throw new BadInputException(Parameter.PART, p.from + ".." + p.to, "must cover every database 0.." + n + " (merge the parts first)");
        }
        PosteriorFamily family = new PosteriorFamily(n);
        List<Config> cfgs = setup.configs(family);
        int losses = setup.fractions().length + 1;
        double[][] profiles = new double[cfgs.size() * losses][];
        double[][] errors = new double[cfgs.size() * losses][];
        for (int c = 0; c < cfgs.size(); c++) {
            for (int e = 0; e < losses; e++) {
                profiles[c * losses + e] = p.profileLogDelta(c, e);
                errors[c * losses + e] = p.profileLogError(c, e);
            }
        }
        SmoothedBernoulli.Result[] sm = SmoothedBernoulli.maximise(profiles, errors, pLo, pHi);
        List<Row> out = new ArrayList<>();
        for (int c = 0; c < cfgs.size(); c++) {
            Config cfg = cfgs.get(c);
            List<AtFraction> fr = new ArrayList<>();
            for (int e = 1; e < losses; e++) {
                SmoothedBernoulli.Result s = sm[c * losses + e];
                fr.add(new AtFraction(setup.fractions()[e - 1], cfg.lossEpsilons()[e], p.worstLogDelta[c][e], p.worstRelativeError(c, e),
                        p.worstPair[c][e], s.logDelta(), s.relativeErrorBound(), s.argmaxHigh()));
            }
            double[] worstLoss = p.maxExpectedLoss(c);
            double[] sens = cfg.sensitivity();
            double sMin = Double.POSITIVE_INFINITY;
            double sMax = Double.NEGATIVE_INFINITY;
            for (double v : sens) {
                sMin = Math.min(sMin, v);
                sMax = Math.max(sMax, v);
            }
            SmoothedBernoulli.Result s0 = sm[c * losses];
            out.add(new Row(cfg.label(), n, cfg.epsilon(), p.maxLogRatio[c], p.witness[c], p.worstLogDelta[c][0], p.worstRelativeError(c, 0),
                    PureDpVerdict.decide(family, cfg, p, c).verdict(), s0.logDelta(), s0.relativeErrorBound(), p.meanExpectedLoss(c), worstLoss[0],
                    (int) worstLoss[1], p.meanProbabilityBest(c), sMin, sMax, List.copyOf(fr)));
        }
        return out;
    }

    /** Statements I-III over n = 1..upToN, from the per-n verdicts of {@link Statements#check}. */
    public record StatementSummary(int upToN, boolean statementIHoldsFromN2, boolean statementIIHolds, boolean statementIIIHoldsFromN4,
            List<Integer> statementIIIFailsAtN, long statementIAsPrintedFailsForNs, boolean allCertified, double smallestRelativeGap,
            int localSensitivityEnumeratedUpToN) implements Serializable {
        /** Summarises the verdicts of every n (any order). */
        public static StatementSummary of(List<Statements.Result> results) {
            List<Statements.Result> st = results.stream().sorted(Comparator.comparingInt(Statements.Result::n)).toList();
            return new StatementSummary(st.size(), st.stream().filter(r -> r.n() >= 2).allMatch(Statements.Result::statementI),
                    st.stream().allMatch(Statements.Result::statementII), st.stream().filter(r -> r.n() >= 4).allMatch(Statements.Result::statementIII),
                    st.stream().filter(r -> !r.statementIII()).map(Statements.Result::n).toList(),
                    st.stream().filter(r -> !r.statementIAsPrinted()).count(), st.stream().filter(r -> r.n() >= 4).allMatch(Statements.Result::certified),
                    st.stream().filter(r -> r.n() >= 4).mapToDouble(Statements.Result::smallestRelativeGap).min().orElse(Double.NaN),
                    Math.min(st.size(), Statements.ENUMERATION_MAX_N));
        }
    }

    /** The local-sensitivity mechanism at one n: its realised loss and pure-DP verdict per eps (the search's unit of work). */
    public record LocalLoss(int n, double[] maxLogRatio, Verdict[] verdict) implements Serializable {
    }

    /** The realised loss of the local-sensitivity mechanism at n for every eps, and whether it is eps-DP. */
    public static LocalLoss localLoss(int n, double[] eps) {
        PosteriorFamily f = new PosteriorFamily(n);
        List<Config> cs = new ArrayList<>();
        for (double e : eps) {
            cs.add(new Config(Mechanism.LOCAL.label(), e, f.localSensitivity(), new double[] {e}));
        }
        ChainAudit.Part part = ChainAudit.run(f, cs, 0, n + 1);
        Verdict[] v = new Verdict[eps.length];
        for (int i = 0; i < eps.length; i++) {
            v[i] = PureDpVerdict.decide(f, cs.get(i), part, i).verdict();
        }
        return new LocalLoss(n, part.maxLogRatio.clone(), v);
    }

    /**
     * The first n (null: none up to upToN) where the local-sensitivity mechanism provably exceeds eps, the n where that could
     * not be decided, and its largest loss / eps.
     */
    public record Violation(String mechanism, double epsilon, int upToN, Integer firstViolationN, List<Integer> undecidedNs, double maxRealisedOverNominal,
            int atN) implements Serializable {
    }

    /**
     * The search's verdicts from {@code losses[n - 1] = localLoss(n, eps)} for n = 1..losses.length: per eps, the first n whose
     * verdict FAILS, the n left undecided, and the largest loss / eps (the smallest n on ties).
     */
    public static List<Violation> firstViolations(double[] eps, List<LocalLoss> losses) {
        List<Violation> out = new ArrayList<>();
        List<LocalLoss> byN = losses.stream().sorted(Comparator.comparingInt(LocalLoss::n)).toList();
        for (int i = 0; i < eps.length; i++) {
            Integer first = null;
            List<Integer> open = new ArrayList<>();
            double worst = 0;
            int at = 0;
            for (LocalLoss l : byN) {
                if (first == null && l.verdict()[i] == Verdict.FAILS) {
                    first = l.n();
                }
                if (l.verdict()[i] == Verdict.UNDECIDED) {
                    open.add(l.n());
                }
                if (l.maxLogRatio()[i] / eps[i] > worst) {
                    worst = l.maxLogRatio()[i] / eps[i];
                    at = l.n();
                }
            }
            out.add(new Violation(Mechanism.LOCAL.label(), eps[i], byN.size(), first, List.copyOf(open), worst, at));
        }
        return out;
    }
}
