package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privacybounds.smoothed.sdp.AssignmentValues.exactValues;
import static org.privacybounds.smoothed.sdp.AssignmentValues.logDeltas;
import static org.privacybounds.smoothed.sdp.AssignmentValues.set;
import static org.privacybounds.smoothed.sdp.AssignmentValues.vertexValue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.commons.numbers.gamma.LogGamma;
import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.AssignmentValues;
import org.privacybounds.smoothed.sdp.CompositionIndex;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.VertexEnumeration;
import org.privacybounds.smoothed.sdp.pair.DirectionSum;
import org.privacybounds.smoothed.sdp.pair.PairDirections;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * The monotone bounds for three and more categories: the monotonicity they rest on, exhaustively at small n; where each side
 * stops; the cells' probabilities against exact sums; the pair's directions; tied and zero shares. Against assignments'
 * exact values: {@link MonotoneBoundsAssignmentsTest}; the regions of assignments: {@link MonotoneBoundsRegionsTest};
 * sampling with replacement: {@link MonotoneBoundsWithReplacementTest}.
 */
class MonotoneBoundsTest {
    private static final double[] EPS = {0.3, 1, 3};

    @Test
    void theLowerBoundsFactorStaysFiniteWhereItsRelativeErrorOverflows() {
        // the lower bound 3,354 decades below its assignment's bound from above: (1 + r) overflows a double, its log10 does not
        double logLower = -3354.1 * Math.log(10);
        double logAbove = -5.98 * Math.log(10);
        MonotoneBounds.Bounds far = new MonotoneBounds.Bounds(3, logAbove, 1, logLower, 0, new int[] {0, 1}, 1, 1, logAbove, false, null, null);
        assertEquals(Double.POSITIVE_INFINITY, far.lowerRelativeError());
        assertEquals(3348.12, far.lowerLog10Factor(), 1e-9);
        assertEquals("10^3.35e+03", MonotoneBounds.factorText(far.lowerLog10Factor()));
        MonotoneBounds.Bounds near = new MonotoneBounds.Bounds(3, -2, 1, -2 - 4.3e-7, 0, new int[] {0, 1}, 1, 1, -2, false, null, null);
        assertEquals(Math.expm1(4.3e-7), near.lowerRelativeError(), 1e-15);
        assertEquals("(1 + 4.30e-07)", MonotoneBounds.factorText(near.lowerLog10Factor()));
        assertEquals("10^0.301", MonotoneBounds.factorText(Math.log10(2)));
        assertEquals("(1 + 0)", MonotoneBounds.factorText(0));
        MonotoneBounds.Bounds none = new MonotoneBounds.Bounds(3, -2, 1, Double.NEGATIVE_INFINITY, 0, new int[] {0, 1}, 0, 1, -2, false, null, null);
        assertEquals("an unbounded factor", MonotoneBounds.factorText(none.lowerLog10Factor()));
    }

    @Test
    void aPairsDivergenceNeverGrowsWhenARecordMovesIntoEitherOfItsCategories() {
        for (Sampling s : Sampling.values()) {
            int n = 16;
            for (int t : new int[] {4, 12, 15}) {
                PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(s, t), n);
                for (double eps : EPS) {
                    for (int a = 1; a < n; a++) {
                        for (int b = 1; a + b < n; b++) {
                            double here = pair.log(a, b, eps)[0];
                            double moreA = pair.log(a + 1, b, eps)[0];
                            double moreB = pair.log(a, b + 1, eps)[0];
                            assertTrue(moreA <= here + 1e-9, s + " T=" + t + " eps=" + eps + " (" + a + "," + b + ")");
                            assertTrue(moreB <= here + 1e-9, s + " T=" + t + " eps=" + eps + " (" + a + "," + b + ")");
                            // symmetric in the pair
                            assertEquals(here, pair.log(b, a, eps)[0], 1e-12);
                        }
                    }
                }
            }
        }
    }

    @Test
    void deltaIsTheLargestPairDivergence() {
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 21);
        PairDivergence pair = new PairDivergence(mech, 30);
        for (int[] h : new int[][] {{3, 9, 18}, {10, 10, 10}, {1, 1, 28}, {25, 2, 3}}) {
            for (double eps : EPS) {
                ProfileValue p = mech.profile(h, eps);
                double best = Double.NEGATIVE_INFINITY;
                for (int a = 0; a < 3; a++) {
                    for (int b = a + 1; b < 3; b++) {
                        best = Math.max(best, pair.log(h[a], h[b], eps)[0]);
                    }
                }
                assertEquals(p.logDelta(), best, 1e-12, Arrays.toString(h) + " eps " + eps);
            }
        }
    }

    @Test
    void deltaIsThePairDivergenceOfTheTwoSmallestCounts() {
        // every histogram of n = 14 in three categories and n = 10 in four, both samplings
        for (Sampling s : Sampling.values()) {
            for (int m : new int[] {3, 4}) {
                int n = m == 3 ? 14 : 10;
                SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(s, n - 3);
                PairDivergence pair = new PairDivergence(mech, n);
                CompositionIndex index = CompositionIndex.of(n, m);
                int[] h = new int[m];
                for (int r = 0; r < index.size(); r++) {
                    index.unrank(r, h);
                    int[] sorted = h.clone();
                    Arrays.sort(sorted);
                    if (sorted[0] == 0) {
                        continue; // a count of 0: the upper side takes T/n there
                    }
                    for (double eps : EPS) {
                        assertEquals(mech.profile(h, eps).logDelta(), pair.log(sorted[0], sorted[1], eps)[0], 1e-12, s + " " + Arrays.toString(h) + " eps " + eps);
                    }
                }
            }
        }
    }

    /** Where the stop rules are checked: the benchmarks' hull at n = 100,000, 0.2 % lost, 3,000 evaluations a side. */
    private record StopCase(DistributionSet set, PairDivergence pair, MonotoneBounds.Options options, MonotoneBounds.PairSource source) {
        static StopCase of() {
            PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 99_800), 100_000);
            return new StopCase(AssignmentValues.set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}}), pair,
                    new MonotoneBounds.Options(1e-6, 3_000, Double.POSITIVE_INFINITY), MonotoneBounds.local(pair));
        }
    }

    /**
     * The upper side refined against a lower bound stops where all its cells could still gain is below 1 % of the gap: against
     * a bound ten times below the value (n = 100,000, the hull of the benchmarks, 0.2 % lost) it stops with at most 80 % of the
     * evaluations it takes alone (72 % at eps 2, measured: checked there, the nearer of eps 0.5 and 2 to that limit; 38 % at
     * eps 0.5), and ends within 2 % of that gap of where it ends alone (0.1 %; 0.4 % at eps 0.5).
     */
    @Test
    void theUpperSideStopsWhereItCouldNarrowTheGapByLittle() {
        StopCase k = StopCase.of();
        double eps = 2;
        MonotoneBounds.Upper alone = MonotoneBounds.upper(k.pair(), k.set(), eps, k.source(), k.options(), Double.NEGATIVE_INFINITY);
        double lower = alone.log() - Math.log(10);
        MonotoneBounds.Upper against = MonotoneBounds.upper(k.pair(), k.set(), eps, k.source(), k.options(), lower);
        double gap = Math.exp(alone.log()) - Math.exp(lower);
        assertTrue(against.evaluations() < 0.8 * alone.evaluations(), against.evaluations() + " vs " + alone.evaluations());
        assertTrue(against.log() >= alone.log() - 1e-3, "stopping early cannot help much: " + against.log() + " vs " + alone.log());
        assertTrue(Math.exp(against.log()) - Math.exp(alone.log()) <= 0.02 * gap, against.log() + " vs " + alone.log() + ", gap " + gap);
    }

    @Test
    void theLowerSideStopsWhereItCouldNarrowTheGapByLittleAndResumesFromItsCachedPoints() {
        StopCase k = StopCase.of();
        double eps = 0.5;
        VertexLowerBound.Result alone = VertexLowerBound.of(k.pair(), k.set(), eps, k.source(), k.options());
        // an upper bound a thousand times the lower (a gap of the hull's corner, not of the cells): refining the lower side
        // to a millionth of its value is wasted there, and doubling its work narrows the gap by far less than 5 %
        double upper = alone.logLower() + Math.log(1000);
        VertexLowerBound.Result against = VertexLowerBound.of(k.pair(), k.set(), eps, k.source(), k.options(), new HashMap<>(), upper, 1);
        double gap = Math.exp(upper) - Math.exp(alone.logLower());
        assertTrue(against.evaluations() < 0.8 * alone.evaluations(), against.evaluations() + " vs " + alone.evaluations());
        assertTrue(against.logLower() <= alone.logLower() + 1e-3, "stopping early cannot help much: " + against.logLower() + " vs " + alone.logLower());
        assertTrue(Math.exp(alone.logLower()) - Math.exp(against.logLower()) <= 0.02 * gap, against.logLower() + " vs " + alone.logLower());
        // a quarter of the budget, then the rest from the same cache: about as far as one run with all of it (within 1e-5
        // relative: the batches of splits differ), on no more evaluations in all
        Map<Long, double[]> cache = new HashMap<>();
        VertexLowerBound.Result first = VertexLowerBound.of(k.pair(), k.set(), eps, k.source(), k.options(), cache, Double.POSITIVE_INFINITY, 0.25);
        VertexLowerBound.Result rest = VertexLowerBound.of(k.pair(), k.set(), eps, k.source(), k.options(), cache, Double.POSITIVE_INFINITY, 0.75);
        assertTrue(rest.logLower() >= first.logLower() && rest.logLower() >= alone.logLower() - 1e-5, first + ", " + rest + " vs " + alone);
        assertTrue(first.evaluations() + rest.evaluations() <= alone.evaluations() + 10, first + ", " + rest + " vs " + alone);
    }

    /**
     * Where the two sides lie decades apart (half the records lost at n = 1e6, eps 1: 6.4 decades), a lower bound that rises by decades leaves the
     * gap in value where it was (the upper bound's) but not the log10 gap the command reports: either measure keeps a side
     * refining. Where the gap is narrow the two agree.
     */
    @Test
    void aSideNarrowsTheGapInValueOrInItsLog() {
        double ln10 = Math.log(10);
        // lower at 10^-100 against an upper at 10^-90: rising to about 10^-99 narrows the log gap by 10 %, the value gap by ~0
        double lower = -100 * ln10;
        double upper = -90 * ln10;
        double rise = lower + Math.log(9); // lower + e^rise = 10 lower
        assertTrue(!(rise >= PlaneCells.logGap(upper, lower) + Math.log(0.01)), "in value the rise is nothing");
        assertTrue(PlaneCells.narrows(false, lower, upper, rise, 0.01));
        assertTrue(PlaneCells.narrows(false, lower, upper, rise, 0.09));
        assertTrue(!PlaneCells.narrows(false, lower, upper, rise, 0.11));
        // the upper side: falling by half is 0.30 decades of 10 (3 %), and half the gap in value (50 %)
        double fall = upper - Math.log(2);
        assertTrue(PlaneCells.narrows(true, upper, lower, fall, 0.4));
        assertTrue(!PlaneCells.narrows(true, upper, lower, fall, 0.6));
        // a gap of 1e-4 relative: either measure says the same, both ways round
        double near = upper + Math.log1p(-1e-4);
        for (double share : new double[] {0.01, 0.05}) {
            for (double f : new double[] {0.5 * share, 2 * share}) {
                double change = upper + Math.log(1e-4 * f);
                boolean inValue = change >= PlaneCells.logGap(upper, near) + Math.log(share);
                assertEquals(inValue, PlaneCells.narrows(true, upper, near, change, share), share + ", " + f);
                assertEquals(inValue, PlaneCells.narrows(false, near, upper, change, share), share + ", " + f);
            }
        }
    }

    @Test
    void theLeastBudgetStillGivesBothSidesAValue() {
        // a budget of one term: the cells' probabilities alone exceed it, and each side still evaluates its first cells (the
        // lower side had reported 0)
        int n = 5_000;
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}});
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 4_990), n);
        MonotoneBounds.Bounds tiny = MonotoneBounds.of(pair, set, new double[] {1}, MonotoneBounds.local(pair), new MonotoneBounds.Options(1e-6, 20_000, 1),
                x -> { })[0];
        MonotoneBounds.Bounds fuller = MonotoneBounds.of(pair, set, new double[] {1}, MonotoneBounds.local(pair), new MonotoneBounds.Options(1e-6, 600,
                Double.POSITIVE_INFINITY), x -> { })[0];
        assertTrue(tiny.logLower() > Double.NEGATIVE_INFINITY && tiny.logLower() <= fuller.logLower() + 1e-12, tiny + " vs " + fuller);
        assertTrue(tiny.logLower() >= fuller.logLower() - 0.5, "within a factor 1.6: " + tiny.logLower() + " vs " + fuller.logLower());
        // the least budget refines less (measured 461 evaluations against 972, 838 and 144 cells against 2,148 and 1,178; at
        // n = 20,000 its evaluations, each bound's least over more regions left above the lower bound, were the more)
        assertTrue(tiny.logUpper() >= fuller.logUpper() - 1e-12 && tiny.evaluations() < fuller.evaluations()
                && tiny.upperCells() < fuller.upperCells() && tiny.lowerCells() <= fuller.lowerCells(), tiny + " vs " + fuller);
    }

    @Test
    void theLowerSideEvaluatesItsGridWhereTheSearchForTheMassSpentItsEvaluations() {
        // half the records lost: the mass lies far below the means, and finding it takes more pair evaluations than a budget of
        // 40 gives; the lower side had then evaluated no cell and reported 0
        int n = 20_000;
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}});
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 10_000), n);
        MonotoneBounds.PairSource source = MonotoneBounds.local(pair);
        VertexLowerBound.Result starved = VertexLowerBound.of(pair, set, 1, source, new MonotoneBounds.Options(1e-6, 40, Double.POSITIVE_INFINITY));
        VertexLowerBound.Result fuller = VertexLowerBound.of(pair, set, 1, source, new MonotoneBounds.Options(1e-6, 4_000, Double.POSITIVE_INFINITY));
        assertTrue(starved.evaluations() > 40, "the search alone exceeds the budget: " + starved);
        assertTrue(starved.logLower() > Double.NEGATIVE_INFINITY && starved.logLower() <= fuller.logLower() + 1e-12, starved + " vs " + fuller);
        assertTrue(starved.logLower() >= fuller.logLower() - 3 * Math.log(10), "within 3 decades: " + starved + " vs " + fuller);
    }

    /**
     * A share far below one record (1e-9 of n = 30) leaves that count at 0 almost always, where delta is the DP delta: the lower
     * side's cells had started at a count of 1 (and a window narrower than a count had no cell at all), a lower bound of 0.
     * Both sides now bracket the value over every assignment, the lower within 1e-6 of it (and with a share of 1e-4).
     */
    @Test
    void aShareFarBelowOneRecordCountsItsZeroCountInFull() {
        int n = 30;
        for (double tiny : new double[] {1e-9, 1e-4}) {
            double[][] v = {{0.38, 0.09, 0.53 - tiny, tiny}, {0.36, 0.12, 0.51, 0.01}};
            DistributionSet set = set(v);
            SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 27);
            VertexEnumeration.Best exact = VertexEnumeration.search(n, set, logDeltas(mech, n, 4, EPS), 0, n + 1);
            PairDivergence pair = new PairDivergence(mech, n);
            MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, EPS, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
            for (int e = 0; e < EPS.length; e++) {
                String what = "share " + tiny + " eps " + EPS[e] + ": " + b[e] + " vs " + exact.logDelta()[e];
                assertTrue(b[e].logUpper() >= exact.logDelta()[e] - 1e-12, what);
                assertTrue(b[e].logLower() <= exact.logDelta()[e] + 1e-12, what);
                assertTrue(b[e].logLower() >= exact.logDelta()[e] - 1e-6, what);
            }
        }
    }

    /**
     * Two vertices whose pairs are the same at their mean histograms (n = 2,000, 20 lost, eps 3: 10^-0.91977 for the counts
     * (200, 600) and (200, 200)): the one whose two smallest shares are equal has the larger value, since the smaller of two
     * near-equal counts lies below both means (10^-0.878257 against 10^-0.915150, each vertex's two sides within 5e-7). The
     * lower side had taken the first and left a log10 gap of 0.037; it ranks them at the means of their smaller and larger
     * counts now.
     */
    @Test
    void nearEqualSharesAreRankedAtTheMeanOfTheSmallerCount() {
        DistributionSet set = set(new double[][] {{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.1, 0.1, 0.8}});
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1_980), 2_000);
        VertexLowerBound.Result lo = VertexLowerBound.of(pair, set, 3, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults());
        assertEquals(2, lo.vertex(), lo.toString());
        assertEquals(-0.878257, LogMath.toLog10(lo.logLower()), 2e-6, lo.toString());
        long[] both = VertexLowerBound.meanMinMax(2_000, 0.1, 0.1);
        assertArrayEquals(new long[] {192, 208}, both, Arrays.toString(both)); // 200 - 20 / sqrt(2 pi), theta = 20
        assertNull(VertexLowerBound.meanMinMax(2_000, 0.1, 0.3));
    }

    @Test
    void whereThePairIsZeroAtEveryMeanTheLowerSideClimbsToItsMass() {
        // 1 in 1,000 records kept (T = 20 of 20,000): no pair reaches e^eps at any vertex's mean histogram, and the mass of
        // delta lies 41 standard deviations below the 0.08 share's mean (at about 13 records of its 1,600); the lower side's
        // cells had been laid around the first pair's mean, all 0 there, and the lower bound was 0. The upper side over every
        // assignment puts delta_SDP at most 10^-714.69508 (both sides with the defaults, log10 gap 4.7e-7; 70 s, so only the lower
        // side, 0.3 s, runs here): the lower side comes within 1e-5 of it
        int n = 20_000;
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}});
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 20), n);
        VertexLowerBound.Result lo = VertexLowerBound.of(pair, set, 1, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults());
        assertEquals(-714.69508, LogMath.toLog10(lo.logLower()), 1e-5, lo.toString());
        assertTrue(lo.pair()[0] == 2 || lo.pair()[1] == 2, "a pair with the small share: " + Arrays.toString(lo.pair()));
    }

    @Test
    void everyRecordReleasedMakesDeltaSdpOneOnBothSides() {
        // T = n without replacement: each histogram is released as it is (the lower side's cells had stopped 0.0101 in log10
        // below 1 at n = 1e6)
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1_000_000), 1_000_000);
        DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}});
        for (MonotoneBounds.Bounds b : MonotoneBounds.of(pair, set, new double[] {0, 1, 7}, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(),
                x -> { })) {
            assertEquals(0, b.logUpper());
            assertEquals(0, b.logLower());
        }
    }

    @Test
    void aZeroShareMakesDeltaSdpTheDpDeltaOnBothSides() {
        // a vertex with no records of category 3: every record on it gives h_3 = 0, where delta is the DP delta (T/n without
        // replacement, 1 - (1 - 1/n)^T with), so delta_SDP is that on both sides, at any n
        for (Sampling sampling : Sampling.values()) {
            for (int n : new int[] {1_000, 1_000_000}) {
                int t = n / 10 * 9;
                DistributionSet set = set(new double[][] {{0.45, 0.45, 0.10}, {0.5, 0.5, 0.0}, {0.2, 0.2, 0.6}});
                SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(sampling, t);
                PairDivergence pair = new PairDivergence(mech, n);
                MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, new double[] {1, 4}, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(),
                        x -> { });
                double dp = sampling == Sampling.WITHOUT_REPLACEMENT ? Math.log(0.9) : Math.log(-Math.expm1(t * Math.log1p(-1.0 / n)));
                for (MonotoneBounds.Bounds x : b) {
                    assertEquals(dp, x.logUpper(), 1e-12);
                    assertEquals(dp, x.logLower(), 1e-12);
                    assertEquals(1, x.lowerVertex());
                    assertEquals(2, x.lowerPair()[0]);
                }
                // the mechanism itself: histograms with h_3 = 0 have delta equal to the DP delta
                if (n == 1_000) {
                    for (int h1 : new int[] {1, 300, 500, 999}) {
                        ProfileValue[] p = mech.profiles(new int[] {h1, n - h1, 0}, new double[] {1, 4}, new boolean[] {true, true});
                        assertEquals(dp, p[0].logDelta(), 1e-12);
                        assertEquals(dp, p[1].logDelta(), 1e-12);
                    }
                }
            }
        }
    }

    @Test
    void cellProbabilitiesLieBelowTheirExactSumsAndClose() {
        // n = 100,000, shares 0.45 and 0.08: cells in the bulk, at -6 and -20 sigma (probabilities near 1e-88) and above the mean,
        // against the sum of the pmf over every cell point (Commons Statistics' saddle-point pmfs, not its CDFs)
        long n = 100_000;
        double pr = 0.45;
        double pc = 0.08;
        double sr = Math.sqrt(n * pr * (1 - pr));
        double sc = Math.sqrt(n * pc * (1 - pc));
        double[][] at = {{0, 0}, {-6, -6}, {-20, -3}, {-3, -20}, {2, 3}, {-1, 5}};
        for (double[] z : at) {
            long r0 = (long) (n * pr + z[0] * sr);
            long c0 = (long) (n * pc + z[1] * sc);
            for (long w : new long[] {1, 37, 160}) {
                double lower = PlaneCells.logCellProbability(n, pr, pc, r0, r0 + w - 1, c0, c0 + w - 1);
                LogSumExp exact = new LogSumExp();
                org.apache.commons.statistics.distribution.BinomialDistribution row =
                        org.apache.commons.statistics.distribution.BinomialDistribution.of((int) n, pr);
                for (long r = r0; r < r0 + w; r++) {
                    var col = org.apache.commons.statistics.distribution.BinomialDistribution.of((int) (n - r), pc / (1 - pr));
                    for (long c = c0; c < c0 + w; c++) {
                        exact.add(row.logProbability((int) r) + col.logProbability((int) c));
                    }
                }
                String what = Arrays.toString(z) + " width " + w;
                assertTrue(lower <= exact.log() + 1e-9, what + ": " + lower + " > " + exact.log());
                // sub-rows lose what the conditional law moves across one sub-row: little, even 20 sigma out
                assertTrue(lower >= exact.log() - 0.25, what + ": " + lower + " vs " + exact.log());
            }
        }
    }

    @Test
    void cellProbabilitiesBracketTheirExactSumsAndClose() {
        // (X_r, X_c, X_k, rest) ~ Multinomial(n; 0.45, 0.08, 0.40, 0.07) at n = 20,000: cells in the bulk, far out (down to about
        // 1e-280, where the log-space sums take over from the CDFs) and above the mean, against sums of the pmf over every cell
        // point, the upper side with and without the condition that X_k reaches the larger of the two counts
        long n = 20_000;
        double pr = 0.45;
        double pc = 0.08;
        double qk = 0.40;
        double sr = Math.sqrt(n * pr * (1 - pr));
        double sc = Math.sqrt(n * pc * (1 - pc));
        var row = org.apache.commons.statistics.distribution.BinomialDistribution.of((int) n, pr);
        double[][] at = {{0, 0}, {-3, -4}, {-36, 0}, {0, -40}, {-20, -25}, {2, 3}, {6, -1}};
        for (double[] z : at) {
            long r0 = (long) (n * pr + z[0] * sr);
            long c0 = (long) (n * pc + z[1] * sc);
            for (long w : new long[] {1, 23, 90}) {
                LogSumExp exact = new LogSumExp();
                LogSumExp exactReach = new LogSumExp();
                for (long r = r0; r < r0 + w; r++) {
                    var col = org.apache.commons.statistics.distribution.BinomialDistribution.of((int) (n - r), pc / (1 - pr));
                    for (long c = c0; c < c0 + w; c++) {
                        double lp = row.logProbability((int) r) + col.logProbability((int) c);
                        exact.add(lp);
                        // X_k given (r, c) is Binomial(n - r - c, qk / (1 - pr - pc)); reaching max(r, c) in log space
                        long reach = Math.max(r, c);
                        double tail = PlaneCells.logBinomialRange(n - r - c, qk / (1 - pr - pc), reach, n - r - c) - 1e-9;
                        exactReach.add(lp + tail);
                    }
                }
                String what = Arrays.toString(z) + " width " + w;
                double up = PlaneCells.logCellProbability(n, pr, pc, r0, r0 + w - 1, c0, c0 + w - 1, true, new double[0]);
                assertTrue(up >= exact.log() - 1e-9, what + ": " + up + " < " + exact.log());
                assertTrue(up <= exact.log() + 0.25, what + ": " + up + " vs " + exact.log());
                double upReach = PlaneCells.logCellProbability(n, pr, pc, r0, r0 + w - 1, c0, c0 + w - 1, true, new double[] {qk});
                assertTrue(upReach >= exactReach.log() - 1e-9, what + " reach: " + upReach + " < " + exactReach.log());
                assertTrue(upReach <= up + 1e-12, what);
                // the lower side's, below the sum and not underflowing to 0 out there
                double low = PlaneCells.logCellProbability(n, pr, pc, r0, r0 + w - 1, c0, c0 + w - 1);
                assertTrue(low <= exact.log() + 1e-9, what + ": lower " + low + " > " + exact.log());
                assertTrue(low >= exact.log() - 0.25, what + ": lower " + low + " vs " + exact.log());
            }
        }
    }

    @Test
    void upperBinomialRangesLieAboveExactSumsForEveryTrialCount() {
        // sup over N in [nMin, nMax] of P(Bin(N, p) in [lo, hi]) against the pmf summed in log space for each N
        SplittableRandom rnd = new SplittableRandom(7);
        for (int it = 0; it < 300; it++) {
            long nMin = 50 + rnd.nextInt(5000);
            long nMax = nMin + rnd.nextInt(40);
            double p = rnd.nextDouble(0.01, 0.9);
            double sd = Math.sqrt(nMax * p * (1 - p));
            long lo = Math.max(0, (long) (nMin * p + rnd.nextDouble(-40, 30) * sd));
            long hi = Math.min(nMax, lo + rnd.nextInt((int) Math.max(1, 3 * sd)));
            double bound = PlaneCells.logBetweenUpper(nMin, nMax, p, lo, hi);
            for (long trials = nMin; trials <= nMax; trials++) {
                double exact = hi < lo || lo > trials ? Double.NEGATIVE_INFINITY
                        : PlaneCells.logBinomialRange(trials, p, lo, Math.min(hi, trials)) - 2e-9;
                assertTrue(bound >= exact, "N=" + trials + " p=" + p + " [" + lo + ", " + hi + "]: " + bound + " < " + exact);
            }
            double exactMin = lo > nMin ? Double.NEGATIVE_INFINITY : PlaneCells.logBinomialRange(nMin, p, lo, Math.min(hi, nMin));
            double exactMax = PlaneCells.logBinomialRange(nMax, p, lo, hi);
            // close to the larger of the two ends where the range is not a sliver (a bound, not a blow-up)
            assertTrue(bound <= Math.max(exactMin, exactMax) + Math.log(1 + 2.0 * (nMax - nMin + 1)) + 1e-6 || hi - lo < 2,
                    "p=" + p + " [" + lo + ", " + hi + "] N in [" + nMin + ", " + nMax + "]: " + bound + " vs " + Math.max(exactMin, exactMax));
        }
    }

    /**
     * The pair at counts moved down, bounded from its directions at thinned shares: at n = 2,000 (1 % lost, eps 1 and 3) above
     * E[pair(G_0 + s_0, G_1 + s_1)] summed over every (G_0, G_1) within 6.5 standard deviations of the means (the pair from the
     * mechanism itself, the DP delta where a moved count is below 1), for counts moved down by 0 to 60 records and one moved up,
     * and within a factor 3 of it (measured 1.25 to 2.55: with 20 records lost each record moved weighs much, and the thinning
     * moves tens of records more than the shift, so that it misses with a chance of 1e-10; at the national n, 168,661 records off Florida on the 2020 states, it left
     * that region 6.1e-4 in log10 above the lower bound where the cells left 0.091).
     */
    @Test
    void aPairAtThinnedSharesBoundsThePairAtCountsMovedDown() {
        int n = 2_000;
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1_980);
        PairDivergence pair = new PairDivergence(mech, n);
        double[] q = {0.3, 0.25, 0.45};
        long[][] shifts = {{0, 0, 0}, {-30, -10, 0}, {-5, -60, 0}, {12, -40, 0}};
        double logDp = mech.logDpDelta(n);
        // sqrt(n q) is above each count's standard deviation: the law outside holds less than 1e-10
        int[] lo = {(int) (n * q[0] - 6.5 * Math.sqrt(n * q[0])), (int) (n * q[1] - 6.5 * Math.sqrt(n * q[1]))};
        int[] hi = {(int) (n * q[0] + 6.5 * Math.sqrt(n * q[0])), (int) (n * q[1] + 6.5 * Math.sqrt(n * q[1]))};
        int[] from = {lo[0] - 30, lo[1] - 60};
        for (double eps : new double[] {1, 3}) {
            // the pair at every shifted point, each evaluated once (the shifts' windows overlap)
            double[][] shifted = new double[hi[0] + 12 - from[0] + 1][hi[1] - from[1] + 1];
            for (int x = from[0]; x <= hi[0] + 12; x++) {
                for (int y = from[1]; y <= hi[1]; y++) {
                    shifted[x - from[0]][y - from[1]] = x >= 1 && y >= 1 && x + y <= n ? Math.min(logDp, pair.log(x, y, eps)[0]) : logDp;
                }
            }
            for (long[] s : shifts) {
                LogSumExp exact = new LogSumExp();
                for (int a = lo[0]; a <= hi[0]; a++) {
                    for (int b = lo[1]; b <= hi[1]; b++) {
                        double logP = LogGamma.value(n + 1.0) - LogGamma.value(a + 1.0) - LogGamma.value(b + 1.0) - LogGamma.value(n - a - b + 1.0)
                                + a * Math.log(q[0]) + b * Math.log(q[1]) + (n - a - b) * Math.log(q[2]);
                        exact.add(logP + shifted[(int) (a + s[0]) - from[0]][(int) (b + s[1]) - from[1]]);
                    }
                }
                double bound = MonotoneBounds.logThinnedPair(pair, q, s, new int[] {0, 1}, eps,
                        new MonotoneBounds.Options(1e-6, 4_000, Double.POSITIVE_INFINITY), exact.log(), Double.POSITIVE_INFINITY);
                String at = "eps " + eps + " shift " + Arrays.toString(s) + ": " + bound + " against " + exact.log();
                assertTrue(bound >= exact.log(), at);
                assertTrue(bound - exact.log() < Math.log(3), at);
            }
        }
    }

    /**
     * One vertex, where G is the vertex's own law and the upper side sums its E[delta(H)] itself: at n = 2,000 (1 % lost, eps 2)
     * both sides close to a log10 gap of 1e-6 around the value summed independently over every histogram where the law is above
     * 1e-9 of its peak (delta from the mechanism itself). Equal shares make ties of the two larger counts frequent; counted in
     * both planes they had left the upper side 1.9e-3 (log10) above, and the upper side's wide cells, whose condition on the
     * other count changes across them where two counts are close, were not refined.
     */
    @Test
    void oneVertexClosesAroundItsValueSummedOverEveryHistogram() {
        OneVertex r = oneVertex(new double[] {0.45, 0.45, 0.10}, 2);
        MonotoneBounds.Bounds b = r.bounds();
        double[] exact = r.exact();
        assertTrue(exact[1] - exact[0] < 1e-8, "the law's cells hold all but a negligible mass: " + Arrays.toString(exact));
        assertTrue(b.log10Gap() <= 1e-6, "gap " + b.log10Gap());
    }

    /**
     * Three tied larger shares, one vertex (0.3, 0.3, 0.3, 0.1): the plane of categories 1 and 4 counts only the outcomes where
     * the other two counts both come after its own, and those two fill the rest, so that chance is one binomial range. The
     * product of their two chances, used before, lies far above it where the three counts are close, at any refinement: at
     * n = 60 with 6 lost (every histogram's delta summed for the value) the upper bound had stayed 0.062 (log10)
     * above the value at each eps. At n = 40 with 4 lost it now lies 1.0e-9 above it at each eps.
     */
    @Test
    void threeTiedCountsAreCountedInTheirPlaneByTheirJointChance() {
        int n = 40;
        double[] v = {0.3, 0.3, 0.3, 0.1};
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 36);
        double[][] logDelta = logDeltas(mech, n, 4, EPS);
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set(new double[][] {v}), EPS, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
        for (int e = 0; e < EPS.length; e++) {
            double exact = vertexValue(mech, n, v, logDelta[e], 4);
            String at = "eps " + EPS[e] + ": " + b[e] + " against " + exact;
            assertTrue(b[e].logUpper() >= exact - 1e-12 && b[e].logLower() <= exact + 1e-12, at);
            assertTrue(LogMath.toLog10(b[e].logUpper()) - LogMath.toLog10(exact) < 1e-6, at);
        }
    }

    /**
     * The same over a hull, whose G (the smallest shares (0.3, 0.3, 0.3, 0.04)) leaves an undecided share: the two other counts
     * of the plane of categories 1 and 4 no longer fill the rest, and their joint chance is summed over bands of their sum. At
     * n = 40 with 4 lost (delta_SDP over every assignment, every histogram summed) the product had left the upper bound 0.035
     * (log10) above delta_SDP at each eps; the bands leave 6.3e-5, 2.7e-5 and 2.7e-5.
     */
    @Test
    void threeTiedSmallestSharesOfAHullAreCountedByTheirJointChance() {
        int n = 40;
        double[][] v = {{0.3, 0.3, 0.3, 0.1}, {0.32, 0.32, 0.32, 0.04}};
        DistributionSet set = set(v);
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 36);
        double[][] logDelta = logDeltas(mech, n, 4, EPS);
        VertexEnumeration.Best exact = VertexEnumeration.search(n, set, logDelta, 0, n + 1);
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Bounds[] b = MonotoneBounds.of(pair, set, EPS, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { });
        for (int e = 0; e < EPS.length; e++) {
            String at = "eps " + EPS[e] + ": " + b[e] + " against " + exact.logDelta()[e];
            assertTrue(b[e].logUpper() >= exact.logDelta()[e] - 1e-12 && b[e].logLower() <= exact.logDelta()[e] + 1e-12, at);
            assertTrue(LogMath.toLog10(b[e].logUpper()) - LogMath.toLog10(exact.logDelta()[e]) < 1e-3, at);
        }
    }

    @Test
    void theLowerSideIsOneDirectionSummedOverReleasedAndLostCountsWhereThatIsLarger() {
        // a record moved out of the small category is the larger direction here: its sum lies above the cells and below the value
        MonotoneBounds.Bounds b = oneVertex(new double[] {0.40, 0.52, 0.08}, 0.5).bounds();
        assertTrue(b.lowerByDirection(), b.toString());
        // the upper side's directions cannot come close here (too few records to move at n = 2,000): its cells as before
        assertNull(b.upperDirectPlane());
        assertArrayEquals(new int[] {2, 0}, b.lowerPair());
        // (summed with the cells' lower bound as its floor: kink rows worth at most 1e-8 of it together keep Jensen's bound)
        double all = DirectionSum.logLower(2_000, 1_980, 0.08, 0.40, 0.5, Double.POSITIVE_INFINITY);
        assertTrue(b.logLower() <= all && b.logLower() >= all - 1e-8, b.logLower() + " against " + all);
    }

    @Test
    void theUpperSideSumsItsLargestPlaneByDirectionsWhereThatComesClose() {
        // n = 1e5, 0.2 % lost, the three vertices: G's plane of categories 1 and 3 has the smallest shares 0.40 and 0.08;
        // its pair over G's law from the larger direction moved by thinning (the boxes show the smaller below it), the other two
        // planes by cells; the lower bound one direction of vertex 3, whose law on that plane is G's
        int n = 100_000;
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 99_800);
        PairDivergence pair = new PairDivergence(mech, n);
        double[][] v = {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}};
        MonotoneBounds.Bounds b = MonotoneBounds.of(pair, set(v), new double[] {2}, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(),
                x -> { })[0];
        assertArrayEquals(new int[] {0, 2}, b.upperDirectPlane(), b.toString());
        double plane = PairDirections.logUpper(mech, n, 0.40, 0.08, 2, Double.POSITIVE_INFINITY, b.logLower());
        // the plane's bound and the other planes' cells (far less: their pairs are the two smallest about never)
        assertTrue(b.logUpper() >= plane && b.logUpper() <= plane + 1e-9, b + " against " + plane);
        // log10 gap 4.8e-7 measured (about one record moved, by the tilted levels; 5.1e-6 with 6 to 23 moved at once); the
        // cells alone left 1e-4 at n = 1e6
        assertTrue(b.log10Gap() > 0 && b.log10Gap() < 1e-6, b.toString());
    }

    @Test
    void whereFewAreLostTheCellsStillRunBesideTheDirectionsAndTheSmallerIsKept() {
        // one vertex, n = 10,000, 20 lost, eps 0.5: the directions come within 1e-3 of the lower bound, and the cells of every
        // plane run beside them on a quarter of the budget (they leave 6.2e-7); the smaller is kept: the directions with no
        // record moved (the boxes show the larger direction its own largest neighbour: 3.1e-9, measured, and 4.6e-8 with the
        // region's outer parts counted in full, at most 1e-7 of the floor) where before the records moved by thinning had left
        // 1.6e-4 (1.9e-5 with the tilted levels) and the cells were kept
        int n = 10_000;
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 9_980);
        PairDivergence pair = new PairDivergence(mech, n);
        double[][] v = {{0.40, 0.52, 0.08}};
        // the command's budget of evaluations at this n
        MonotoneBounds.Options options = new MonotoneBounds.Options(1e-6, 100_000, Double.POSITIVE_INFINITY);
        MonotoneBounds.Bounds b = MonotoneBounds.of(pair, set(v), new double[] {0.5}, MonotoneBounds.local(pair), options, x -> { })[0];
        double directions = PairDirections.logUpper(mech, n, 0.40, 0.08, 0.5, Double.POSITIVE_INFINITY, b.logLower());
        assertTrue(directions - b.logLower() < MonotoneBounds.DIRECT_GAP, "the directions come close: " + directions + " " + b);
        assertArrayEquals(new int[] {0, 2}, b.upperDirectPlane(), b.toString());
        assertTrue(b.logUpper() <= directions + 1e-9, b + " against the directions' " + directions);
        assertTrue(b.log10Gap() > 0 && b.log10Gap() < 1e-7, b.toString());
    }

    @Test
    void whereManyAreLostTheRowsCloseWhatTheThinningLeft() {
        // one vertex, n = 20,000, 1,000 lost, eps 1, a budget of 1e7 terms a side: the boxes of one record do not fit in it, and
        // the directions' records moved by thinning had left a log10 gap of 0.0040 (the cells alone 0.49); the rows show the
        // larger direction its own largest neighbour, so no record is moved and the directions close it (measured 3.1e-8)
        int n = 20_000;
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 19_000);
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Options options = new MonotoneBounds.Options(1e-6, 20_000, 1e7);
        MonotoneBounds.Bounds b = MonotoneBounds.of(pair, set(new double[][] {{0.60, 0.25, 0.15}}), new double[] {1}, MonotoneBounds.local(pair),
                options, x -> { })[0];
        double directions = PairDirections.logUpper(mech, n, 0.15, 0.25, 1, 1e7 / 40, 1e7 / 40 * MonotoneBounds.DIRECT_SHARE, b.logLower(),
                Double.POSITIVE_INFINITY);
        assertTrue(directions - b.logLower() < 1e-6, directions + " " + b);
        assertArrayEquals(new int[] {1, 2}, b.upperDirectPlane(), b.toString());
        assertTrue(b.logUpper() <= directions + 1e-9, b + " against the directions' " + directions);
        assertTrue(b.lowerByDirection() && b.log10Gap() > 0 && b.log10Gap() < 1e-6, b.toString());
    }

    /** Both bounds for one vertex at n = 2,000 (20 lost) and one eps, and the vertex's value summed over every histogram ({@link AssignmentValues#exactValues}). */
    private record OneVertex(MonotoneBounds.Bounds bounds, double[] exact) {
    }

    /** {@link OneVertex}, the value checked to lie between the bounds. */
    private static OneVertex oneVertex(double[] vertex, double epsilon) {
        int n = 2_000;
        double[][] v = {vertex};
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1_980);
        double[] eps = {epsilon};
        PairDivergence pair = new PairDivergence(mech, n);
        MonotoneBounds.Bounds b = MonotoneBounds.of(pair, set(v), eps, MonotoneBounds.local(pair), MonotoneBounds.Options.defaults(), x -> { })[0];
        double[] exact = exactValues(List.of(new int[] {n}), v, n, mech, eps)[0][0];
        assertTrue(b.logLower() <= exact[1] && exact[0] <= b.logUpper(), b + " around " + Arrays.toString(exact));
        return new OneVertex(b, exact);
    }
}
