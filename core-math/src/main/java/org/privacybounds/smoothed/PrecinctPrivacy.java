package org.privacybounds.smoothed;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The privacy of publishing one precinct's vote counts over m categories (candidates, then "other") when the published
 * counts are those of a random subset of the ballots: ballots lost at random ({@code T = n - floor(F n)}) or a random
 * audit sample ({@code T = ceil(S n)}). This is the sampling-histogram mechanism without replacement (the Smoothed DP paper, Algorithm 2)
 * with m categories: per eps the exact {@code delta_eps(x)} over every replace-one neighbour and both directions, each
 * hockey-stick a two-dimensional sum over the (from, to, rest) hypergeometric law ({@link SamplingHistogramMechanism}), the
 * adversary's adjusted utility at threshold t, and the worst-case DP delta T/n.
 *
 * <p>Example:
 * <pre>{@code
 * PrecinctPrivacy.Setting s = PrecinctPrivacy.Setting.lostFraction(new BigDecimal("0.002"), new double[] {0.5, 2}, 0.51);
 * PrecinctPrivacy.Result r = PrecinctPrivacy.evaluate(new int[] {812, 604, 11, 2}, s);
 * double log10Delta = r.values().get(0).log10Delta();
 * }</pre>
 */
public final class PrecinctPrivacy {
    private PrecinctPrivacy() {
    }

    /** How the published counts are drawn. */
    public enum Draw {
        /** ballots lost at random: T = n - floor(F n) */
        LOST_FRACTION,
        /** a random sample of ballots published: T = ceil(S n) */
        SAMPLE_FRACTION
    }

    /** The draw, its fraction (exact decimal), the eps of the profile and the utility's threshold t. */
    public record Setting(Draw draw, BigDecimal fraction, double[] epsilons, double threshold) implements Serializable {
        public Setting {
            if (draw == Draw.LOST_FRACTION && !(fraction.signum() > 0 && fraction.compareTo(BigDecimal.ONE) < 0)) {
                throw new BadInputException(Parameter.LOST_FRACTION, fraction.toPlainString(), "must be in the open interval (0, 1)");
            }
            if (draw == Draw.SAMPLE_FRACTION && !(fraction.signum() > 0 && fraction.compareTo(BigDecimal.ONE) <= 0)) {
                throw new BadInputException(Parameter.SAMPLE_FRACTION, fraction.toPlainString(), "must be in (0, 1]");
            }
            if (epsilons.length == 0) {
                throw new BadInputException(Parameter.EPSILON, "(none)", "give at least one eps");
            }
            for (double e : epsilons) {
                SamplingHistogramMechanism.checkEpsilon(e);
            }
            AdjustedUtility.checkThreshold(threshold);
            epsilons = epsilons.clone();
        }

        public static Setting lostFraction(BigDecimal f, double[] epsilons, double threshold) {
            return new Setting(Draw.LOST_FRACTION, f, epsilons, threshold);
        }

        public static Setting sampleFraction(BigDecimal s, double[] epsilons, double threshold) {
            return new Setting(Draw.SAMPLE_FRACTION, s, epsilons, threshold);
        }

        /** T for a precinct of n ballots. */
        public int sampleSize(long n) {
            // a precinct's n fits an int (checked where it is read), and T <= n
            return Math.toIntExact(draw == Draw.LOST_FRACTION ? SampleSize.ofLostFraction(fraction, n) : SampleSize.ofSampleFraction(fraction, n));
        }

        @Override
        public double[] epsilons() {
            return epsilons.clone();
        }
    }

    /**
     * One precinct's figures: n, T, per eps its profile value (delta, certificate, worst neighbour), the adjusted utility at t
     * and {@code ln(T/n)}, the DP delta for any eps. A precinct without ballots has no values (n = 0).
     */
    public record Result(long n, int sampleSize, List<ProfileValue> values, UtilityValue utility, double logDpDelta) {
    }

    /** Evaluates one precinct's histogram (counts in category order). */
    public static Result evaluate(int[] counts, Setting s) {
        long n = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new BadInputException(Parameter.COUNTS, Arrays.toString(counts), "vote counts must be >= 0");
            }
            n += c;
        }
        if (n == 0) {
            return new Result(0, 0, List.of(), null, Double.NEGATIVE_INFINITY);
        }
        int t = s.sampleSize(n);
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
        List<ProfileValue> values = new ArrayList<>();
        for (double e : s.epsilons) {
            values.add(m.profile(counts, e));
        }
        UtilityValue u = new AdjustedUtility(m).utility(counts, s.threshold(), UtilityForm.FIGURE1);
        return new Result(n, t, List.copyOf(values), u, m.logDpDelta((int) n));
    }
}
