package org.privacybounds.smoothed;

import java.math.BigDecimal;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The privacy of publishing a two-candidate vote count when a fraction of ballots is lost at
 * random (Liu, Wang and Xia, "Smoothed Differential Privacy", Appendix A.1, Figures 1 and 3): the sampling-histogram mechanism over the
 * two candidates' votes, {@code delta_eps(x)} at {@code eps = ln(t/(1-t))}, and the adversary's
 * adjusted utility at threshold t.
 *
 * <p>Example:
 * <pre>{@code
 * // 2020: 81,268,924 votes for A, 74,216,154 for B, 0.2 % of the ballots lost, utility at t = 0.5
 * ElectionPrivacy.Result r = ElectionPrivacy.compute(81_268_924L, 74_216_154L, new BigDecimal("0.002"), 0.5,
 *         Sampling.WITHOUT_REPLACEMENT, UtilityForm.FIGURE1);
 * double log10Delta = LogMath.toLog10(r.logDelta());
 * }</pre>
 */
public final class ElectionPrivacy {
    private ElectionPrivacy() {
    }

    /**
     * One election's figures.
     *
     * @param n                  votes counted for the two candidates
     * @param sampleSize         T, the ballots that survive
     * @param logDelta           ln delta_eps(x)
     * @param logUtility         ln of the adjusted utility (Figure 1 form unless asked otherwise)
     * @param relativeErrorBound the larger certificate of the two
     */
    public record Result(long n, int sampleSize, double logDelta, double logUtility, double relativeErrorBound, Neighbor worst) {
    }

    /**
     * @param votesA       first candidate's votes
     * @param votesB       second candidate's votes
     * @param lostFraction fraction of ballots lost, as an exact decimal; T = n - floor(fraction n)
     * @param threshold    t in [0.5, 1)
     */
    public static Result compute(long votesA, long votesB, BigDecimal lostFraction, double threshold, Sampling sampling, UtilityForm form) {
        checkVotes(votesA, votesB);
        // T <= n <= 2^31 - 1
        return compute(votesA, votesB, (int) SampleSize.fromLostFraction(lostFraction, votesA + votesB), threshold, sampling, form);
    }

    private static void checkVotes(long votesA, long votesB) {
        if (votesA < 0 || votesB < 0 || votesA + votesB > Integer.MAX_VALUE || votesA + votesB < 1) {
            throw new BadInputException(Parameter.VOTES, votesA + "," + votesB,
                    "vote counts must be >= 0 with a total in [1, " + Integer.MAX_VALUE + "]");
        }
    }

    /** The same for a sample size T given directly. */
    public static Result compute(long votesA, long votesB, int sampleSize, double threshold, Sampling sampling, UtilityForm form) {
        checkVotes(votesA, votesB);
        int[] h = {(int) votesA, (int) votesB};
        double eps = AdjustedUtility.epsilonOfThreshold(threshold);
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(sampling, sampleSize);
        ProfileValue p = m.profile(h, eps);
        UtilityValue u = new AdjustedUtility(m).utility(h, threshold, form);
        return new Result(votesA + votesB, sampleSize, p.logDelta(), u.logUtility(),
                Math.max(p.relativeErrorBound(), u.relativeErrorBound()), p.worst());
    }
}
