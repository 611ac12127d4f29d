package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.exact.ExactSamplingProfile;
import org.privacybounds.validation.BadInputException;

/** Precinct histograms over m categories: the fast path against exact rationals, at precinct sizes. */
class PrecinctPrivacyTest {
    private static final double[] EPS = {0.5, 2};

    @Test
    void fourCategoryPrecinctsOfFourThousandBallotsMatchExactRationals() {
        // shapes of real precincts (two large candidates, a third party, write-ins), 0.2 % of ballots lost: L = floor(0.002 n)
        int[][] precincts = {{2410, 1532, 41, 17}, {3020, 961, 12, 1}, {1999, 1998, 2, 1}, {3900, 90, 10, 0}};
        PrecinctPrivacy.Setting s = PrecinctPrivacy.Setting.lostFraction(new BigDecimal("0.002"), EPS, 0.51);
        for (int[] h : precincts) {
            PrecinctPrivacy.Result r = PrecinctPrivacy.evaluate(h, s);
            int n = Arrays.stream(h).sum();
            assertEquals(n - (int) Math.floor(0.002 * n), r.sampleSize());
            ExactSamplingProfile exact = new ExactSamplingProfile(Sampling.WITHOUT_REPLACEMENT, r.sampleSize());
            for (int e = 0; e < EPS.length; e++) {
                ProfileValue v = r.values().get(e);
                BigDecimal d = exact.delta(h, EPS[e]);
                assertEquals(0, ExactMath.relativeError(v.logDelta(), d), 1e-9, Arrays.toString(h) + " eps " + EPS[e]);
                assertTrue(v.relativeErrorBound() <= 1e-9);
            }
            assertEquals(Math.log(r.sampleSize()) - Math.log(n), r.logDpDelta(), 1e-12);
            assertTrue(r.utility().logUtility() <= 0);
        }
    }

    @Test
    void publishedSamplesMatchExactRationals() {
        // an audit publishing half the ballots of small precincts (exact enumeration of every sample)
        SplittableRandom rnd = new SplittableRandom(15);
        PrecinctPrivacy.Setting s = PrecinctPrivacy.Setting.sampleFraction(new BigDecimal("0.5"), EPS, 0.51);
        for (int trial = 0; trial < 8; trial++) {
            int[] h = {1 + rnd.nextInt(14), rnd.nextInt(10), rnd.nextInt(4), rnd.nextInt(2)};
            PrecinctPrivacy.Result r = PrecinctPrivacy.evaluate(h, s);
            int n = Arrays.stream(h).sum();
            assertEquals((n + 1) / 2, r.sampleSize());
            ExactSamplingProfile exact = new ExactSamplingProfile(Sampling.WITHOUT_REPLACEMENT, r.sampleSize());
            for (int e = 0; e < EPS.length; e++) {
                assertEquals(0, ExactMath.relativeError(r.values().get(e).logDelta(), exact.delta(h, EPS[e])), 1e-9, Arrays.toString(h));
            }
        }
    }

    @Test
    void aOneBallotCategoryIsBarelyPrivate() {
        // a category with one ballot: published whenever that ballot is, so delta is the worst case T/n (Smoothed DP paper, Theorem 3)
        PrecinctPrivacy.Setting lost = PrecinctPrivacy.Setting.lostFraction(new BigDecimal("0.002"), new double[] {2}, 0.51);
        PrecinctPrivacy.Result one = PrecinctPrivacy.evaluate(new int[] {1200, 800, 1}, lost);
        assertEquals(one.logDpDelta(), one.values().get(0).logDelta(), 1e-12);
        // with 0.2 % lost, a precinct of 2,000 ballots loses 4: every precinct is close to that worst case
        assertTrue(PrecinctPrivacy.evaluate(new int[] {1200, 800, 40}, lost).values().get(0).log10Delta() > -0.1);
        // an audit publishing half the ballots: 40 ballots hide in the sample, one ballot does not
        PrecinctPrivacy.Setting audit = PrecinctPrivacy.Setting.sampleFraction(new BigDecimal("0.5"), new double[] {2}, 0.51);
        assertEquals(Math.log10(1001.0 / 2001), PrecinctPrivacy.evaluate(new int[] {1200, 800, 1}, audit).values().get(0).log10Delta(), 1e-12);
        assertTrue(PrecinctPrivacy.evaluate(new int[] {1200, 800, 40}, audit).values().get(0).log10Delta() < -9);
        PrecinctPrivacy.Result empty = PrecinctPrivacy.evaluate(new int[] {0, 0, 0}, lost);
        assertEquals(0, empty.n());
        assertTrue(empty.values().isEmpty());
        assertNull(empty.utility());
        assertThrows(BadInputException.class, () -> PrecinctPrivacy.Setting.lostFraction(BigDecimal.ONE, EPS, 0.51));
        assertThrows(BadInputException.class, () -> PrecinctPrivacy.Setting.sampleFraction(new BigDecimal("1.5"), EPS, 0.51));
        assertEquals(7, SampleSize.fromSampleFraction(new BigDecimal("0.5"), 13));
        assertEquals(13, SampleSize.fromSampleFraction(BigDecimal.ONE, 13));
    }
}
