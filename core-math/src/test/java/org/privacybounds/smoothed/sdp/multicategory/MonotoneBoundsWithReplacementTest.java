package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privacybounds.smoothed.sdp.AssignmentValues.set;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.AssignmentValues;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * The monotone bounds sampled with replacement, where at large eps the mass of P(h) pair(h) lies far from the means: where
 * each side looks for it.
 */
class MonotoneBoundsWithReplacementTest {
    /**
     * With replacement at eps 2 the mass of P(h) pair(h) lies far out (n = 10,000: the pair's slopes at the mean put it 31.6
     * sigma below it, where the normal's fall is far from the binomial's): the lower side's grid goes where P times the pair
     * peaks along that direction. Placed at the slopes' own point it reported 7.8 decades below the certified upper bound.
     */
    @Test
    void withReplacementTheLowerSideFindsTheFarMass() {
        int n = 10_000;
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, 9_980), n);
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}});
        VertexLowerBound.Result r = VertexLowerBound.of(pair, set, 2, MonotoneBounds.local(pair), new MonotoneBounds.Options(1e-6, 3_000,
                Double.POSITIVE_INFINITY));
        double log10 = r.logLower() / Math.log(10);
        // the smoothed command's certified upper bound there (eta 0.998, this hull): log10 delta_SDP <= -261.3797
        assertTrue(log10 <= -261.3797, "lower " + log10);
        assertTrue(log10 >= -261.45, "lower " + log10);
    }

    /**
     * Further out the mass leaves the slopes' line: with replacement at n = 50,000 and eps 2 (one vertex (0.50, 0.42, 0.08)),
     * P(h) pair(h) peaks near h = (22,200, 1,200) in (the 0.42 count, the 0.08 count), 11 sigma above the first's mean and 46
     * below the second's (the records the small count lacks fall to the others), where a log-space sum outside this project
     * puts the largest term at 10^-1302.8 and the whole sum near 10^-1299. Along the slopes' line the lower bound was
     * 10^-1304.44; the smoothed command's certified upper bound there is 10^-1297.71.
     */
    @Test
    void withReplacementTheLowerSideFollowsTheMassOffTheLine() {
        int n = 50_000;
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, 49_500), n);
        MonotoneBounds.PairSource source = MonotoneBounds.local(pair);
        double[] g = VertexLowerBound.tilt(pair, 2, source, 0.42, 0.08, 21_000, 4_000,
                MonotoneBounds.evaluate(List.of(new long[] {21_000, 4_000}), 2, source)[0][0]);
        double[] peak = VertexLowerBound.peak(pair, 2, source, 0.42, 0.08, new long[2], g);
        double sr = Math.sqrt(n * 0.42 * 0.58);
        double sc = Math.sqrt(n * 0.08 * 0.92);
        assertEquals(22_200, n * 0.42 - peak[0] * sr, 400, Arrays.toString(peak));
        assertEquals(1_200, n * 0.08 - peak[1] * sc, 150, Arrays.toString(peak));
        // 1,000 evaluations: -1299.92 (3,000: -1298.94)
        VertexLowerBound.Result r = VertexLowerBound.of(pair, set(new double[][] {{0.50, 0.42, 0.08}}), 2, source,
                new MonotoneBounds.Options(1e-6, 1_000, Double.POSITIVE_INFINITY));
        double log10 = r.logLower() / Math.log(10);
        assertTrue(log10 <= -1297.71 && log10 >= -1300.5, "lower " + log10);
    }

    /**
     * With replacement at eps 7 (n = 10,000, T = 9,900) the slopes at the mean put the tilted peak of the 0.08 count 64 sigma
     * below its mean, below count 1: the upper side's cells, started there at the plane's edge, stalled at the DP delta (log10
     * -0.2266) against a lower bound of -359.41. Started where the law times the pair peaks they close on it.
     */
    @Test
    void withReplacementTheUpperSideStartsWhereTheMassIsWhenTheSlopesLeaveThePlane() {
        int n = 10_000;
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, 9_900), n);
        MonotoneBounds.PairSource source = MonotoneBounds.local(pair);
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}});
        // the sides meet at -359.3835 on 3,000 evaluations a side as on 20,000 (on 2,000 the lower side stops at -359.97)
        MonotoneBounds.Options options = new MonotoneBounds.Options(1e-6, 3_000, Double.POSITIVE_INFINITY);
        VertexLowerBound.Result lo = VertexLowerBound.of(pair, set, 7, source, options);
        MonotoneBounds.Upper up = MonotoneBounds.upper(pair, set, 7, source, options, lo.logLower());
        double ln10 = Math.log(10);
        assertTrue(lo.logLower() / ln10 <= -359.3 && lo.logLower() / ln10 >= -359.5, "lower " + lo.logLower() / ln10);
        assertTrue(up.log() >= lo.logLower() && up.log() - lo.logLower() <= 0.01 * ln10, up.log() / ln10 + " vs " + lo.logLower() / ln10);
    }
}
