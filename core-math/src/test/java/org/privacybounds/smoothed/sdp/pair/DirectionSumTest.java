package org.privacybounds.smoothed.sdp.pair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/** One direction's expectation over a multinomial, from below, against the sum over every histogram of the mechanism's own divergence. */
class DirectionSumTest {
    /**
     * ln E[d_eps(H, H - e_a + e_b)] over H ~ Multinomial(n; pa, pb, rest) with h_a >= 1, each divergence the mechanism's hockey-stick
     * sum over every released histogram, histograms beyond 12 standard deviations of either count left out (below 1e-30).
     */
    static double slowLog(long n, long t, double pa, double pb, double eps) {
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
        BinomialDistribution ha = BinomialDistribution.of((int) n, pa);
        LogSumExp s = new LogSumExp();
        long aLo = Math.max(1, Math.round(n * pa - 12 * Math.sqrt(n * pa) - 2));
        long aHi = Math.min(n, Math.round(n * pa + 12 * Math.sqrt(n * pa) + 2));
        for (long a = aLo; a <= aHi; a++) {
            BinomialDistribution hb = BinomialDistribution.of((int) (n - a), pb / (1 - pa));
            double mean = (n - a) * pb / (1 - pa);
            long bLo = Math.max(0, Math.round(mean - 12 * Math.sqrt(mean) - 2));
            long bHi = Math.min(n - a, Math.round(mean + 12 * Math.sqrt(mean) + 2));
            for (long b = bLo; b <= bHi; b++) {
                double d = m.logHockeyStick(new long[] {a, b, n - a - b}, 0, 1, eps)[0];
                s.add(ha.logProbability((int) a) + hb.logProbability((int) b) + d);
            }
        }
        return s.log();
    }

    /**
     * The walked CDF of Binomial(N, q) along a path with N falling by one a step and t rising by two, from the lower tail (F about
     * 1e-66) past where the walk stops in the upper tail (the pmf below 1e-290 at step 436 of 500): every 25th point within its
     * reported error of the exact CDF, summed
     * with exact binomial coefficients and 60-digit powers (BigDecimal), and every point within it of Commons Statistics' CDF;
     * {@code F_{N-1}(t - 1)} from the same point likewise.
     */
    @Test
    void theWalkedCdfStaysWithinItsErrorOfExactSums() {
        double q = 0.435;
        DirectionSum.CdfWalk walk = new DirectionSum.CdfWalk(q);
        java.math.MathContext mc = new java.math.MathContext(60);
        java.math.BigDecimal bq = new java.math.BigDecimal(q);
        java.math.BigDecimal bp = java.math.BigDecimal.ONE.subtract(bq);
        int checked = 0;
        for (int step = 0; ; step++) {
            int n = 2000 - step;
            int t = 500 + 2 * step;
            if (t >= n) {
                break;
            }
            double[] v = walk.at(n, t);
            double commons = BinomialDistribution.of(n, q).cumulativeProbability(t);
            String what = "N " + n + " t " + t + ": " + v[0] + " +- " + v[1] + " rel + " + v[2];
            assertTrue(Math.abs(v[0] - commons) <= (v[1] - DirectionSum.CDF_MARGIN) * commons + v[2], what + " vs Commons " + commons);
            // F_{N-1}(t - 1) from the same point, within its range of Commons'
            double[] fewer = walk.rangeOneFewer();
            double commonsFewer = BinomialDistribution.of(n - 1, q).cumulativeProbability(t - 1);
            assertTrue(fewer[0] <= commonsFewer * (1 + DirectionSum.CDF_MARGIN) && commonsFewer * (1 - DirectionSum.CDF_MARGIN) <= fewer[1],
                    what + ": one fewer " + Arrays.toString(fewer) + " vs Commons " + commonsFewer);
            if (step % 25 == 0) {
                java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
                java.math.BigDecimal fewerSum = java.math.BigDecimal.ZERO;
                java.math.BigInteger binom = java.math.BigInteger.ONE;
                java.math.BigInteger binomFewer = java.math.BigInteger.ONE;
                for (int k = 0; k <= t; k++) {
                    if (k > 0) {
                        binom = binom.multiply(java.math.BigInteger.valueOf(n - k + 1)).divide(java.math.BigInteger.valueOf(k));
                        binomFewer = binomFewer.multiply(java.math.BigInteger.valueOf(n - k)).divide(java.math.BigInteger.valueOf(k));
                    }
                    sum = sum.add(new java.math.BigDecimal(binom).multiply(bq.pow(k, mc), mc).multiply(bp.pow(n - k, mc), mc), mc);
                    if (k <= t - 1) {
                        fewerSum = fewerSum.add(new java.math.BigDecimal(binomFewer).multiply(bq.pow(k, mc), mc).multiply(bp.pow(n - 1 - k, mc), mc), mc);
                    }
                }
                double exact = sum.doubleValue();
                assertTrue(Math.abs(v[0] - exact) <= v[1] * exact + v[2], what + " vs exact " + exact);
                double exactFewer = fewerSum.doubleValue();
                assertTrue(fewer[0] <= exactFewer && exactFewer <= fewer[1], what + ": one fewer " + Arrays.toString(fewer) + " vs exact " + exactFewer);
                checked++;
            }
        }
        assertTrue(checked >= 20, "points checked: " + checked);
    }

    @Test
    void theSumOverReleasedAndLostCountsMatchesEveryHistogramFromBothSides() {
        // {n, T, pa, pb, eps}: few lost (the lost counts' law is narrow), a tenth lost, the larger share first (the other tail)
        double[][] cases = {{2000, 1980, 0.08, 0.40, 0.5}, {2000, 1980, 0.08, 0.40, 2}, {300, 270, 0.2, 0.3, 1}, {300, 270, 0.3, 0.2, 1},
            {5000, 4990, 0.05, 0.5, 1}, {2000, 1980, 0.40, 0.08, 7}};
        for (double[] c : cases) {
            long n = (long) c[0];
            long t = (long) c[1];
            String at = java.util.Arrays.toString(c);
            double slow = slowLog(n, t, c[2], c[3], c[4]);
            double fast = DirectionSum.logLower(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY);
            assertTrue(fast <= slow + 1e-12, at + ": " + fast + " above " + slow);
            // within its margin of 1e-9 for rounding and what it leaves out (measured 1.01e-9 to 1.33e-9)
            assertEquals(slow, fast, 2e-9, at);
            // from above: what lies outside its windows counted in full, and its margin of 1e-9 (measured 0.9e-9 to 1.1e-9)
            double up = DirectionSum.logUpper(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
            assertTrue(up >= slow, at + ": " + up + " below " + slow);
            assertEquals(slow, up, 2e-9, at);
            // given a floor (here the value itself), the kink rows worth at most 1e-8 of it together keep their cheap bounds on
            // both sides (measured up to 6.4e-9 above and 1.4e-9 below)
            double upFloor = DirectionSum.logUpper(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY, slow);
            double lowFloor = DirectionSum.logLower(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY, slow);
            assertTrue(upFloor >= slow && upFloor - slow <= 1.2e-8, at + ": " + upFloor + " against " + slow);
            assertTrue(lowFloor <= slow && slow - lowFloor <= 1.2e-8, at + ": " + lowFloor + " against " + slow);
            // without the kink's CDFs (its first two moments): above, and within a factor 2 (measured 1.0 to 1.63)
            double moments = DirectionSum.logUpper(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY, slow, false);
            assertTrue(moments >= up && moments <= up + Math.log(2), at + ": " + moments + " against " + up);
        }
    }

    @Test
    void atLargeNTheSumsTakeTheLostHistogramsWhereTheyMatter() {
        // n = 1e7, 0.2 % lost, eps 1: the value is a large deviation (e^-417), its lost histograms lie beyond 12 standard
        // deviations of j_b (without a floor the lower side finds none of them), and past the kink's 8 standard deviations of
        // ln R its rows still matter (a lost record more in a is twice as likely there). Given a floor, both sides sum where
        // the value lies and agree to their margins: 1e-9 each, and the kink rows left to their cheap bounds, at most 1e-8 of
        // the floor on each side (measured 2.1e-8 apart).
        long n = 10_000_000;
        long t = n - 20_000;
        assertEquals(Double.NEGATIVE_INFINITY, DirectionSum.logLower(n, t, 0.08, 0.40, 1, Double.POSITIVE_INFINITY));
        double floor = -417.5;
        double lower = DirectionSum.logLower(n, t, 0.08, 0.40, 1, Double.POSITIVE_INFINITY, floor);
        double upper = DirectionSum.logUpper(n, t, 0.08, 0.40, 1, Double.POSITIVE_INFINITY, floor);
        assertTrue(lower > floor && upper - lower < 3e-8 && upper >= lower, lower + " to " + upper);
        // the normal estimate that chooses how many records to move: within 0.01 of the sums here (measured 3.5e-4)
        assertEquals(lower, DirectionSum.logApprox(n, t, 0.08, 0.40, 1, floor, Double.POSITIVE_INFINITY), 0.01);
    }

    /** ln E[pair(H_a, H_b)] over (H_a, H_b, rest) ~ Multinomial(n; pa, pb, rest), h_a, h_b >= 1, 6 standard deviations of each count. */
    static double slowPairLog(long n, long t, double pa, double pb, double eps) {
        PairDivergence pair = new PairDivergence(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t), n);
        BinomialDistribution ha = BinomialDistribution.of((int) n, pa);
        LogSumExp s = new LogSumExp();
        long aLo = Math.max(1, Math.round(n * pa - 6 * Math.sqrt(n * pa) - 2));
        long aHi = Math.min(n - 1, Math.round(n * pa + 6 * Math.sqrt(n * pa) + 2));
        double[] columns = java.util.stream.LongStream.rangeClosed(aLo, aHi).parallel().mapToDouble(a -> {
            LogSumExp column = new LogSumExp();
            BinomialDistribution hb = BinomialDistribution.of((int) (n - a), pb / (1 - pa));
            double mean = (n - a) * pb / (1 - pa);
            long bLo = Math.max(1, Math.round(mean - 6 * Math.sqrt(mean) - 2));
            long bHi = Math.min(n - a - 1, Math.round(mean + 6 * Math.sqrt(mean) + 2));
            for (long b = bLo; b <= bHi; b++) {
                column.add(ha.logProbability((int) a) + hb.logProbability((int) b) + pair.log(a, b, eps)[0]);
            }
            return column.log();
        }).toArray();
        for (double x : columns) {
            s.add(x);
        }
        return s.log();
    }

    @Test
    void aPairsExpectationLiesBelowItsLargerDirectionMovedByThinning() {
        // {n, T, pa, pb, eps}: 1 % and 0.3 % lost, where thinning has records enough to move (up to 23 of about 300)
        double[][] cases = {{1000, 990, 0.5, 0.3, 0.5}, {1000, 990, 0.5, 0.3, 2}, {1200, 1197, 0.45, 0.25, 1}};
        for (double[] c : cases) {
            long n = (long) c[0];
            long t = (long) c[1];
            SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
            double slow = slowPairLog(n, t, c[2], c[3], c[4]);
            double up = PairDirections.logUpper(m, n, c[2], c[3], c[4], Double.POSITIVE_INFINITY, slow);
            assertTrue(up >= slow, java.util.Arrays.toString(c) + ": " + up + " below " + slow);
            if (c[4] >= 1) {
                // the boxes show the smaller direction below the larger wherever it matters: only the records moved remain
                assertTrue(up - slow < 1e-3, java.util.Arrays.toString(c) + ": " + up + " against " + slow);
            }
        }
        // too few records of the smaller share to thin (h0 < 46): not done
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 297);
        assertEquals(Double.POSITIVE_INFINITY, PairDirections.logUpper(m, 300, 0.4, 0.08, 1, Double.POSITIVE_INFINITY, -10));
    }

    @Test
    void theTiltedLevelsBoundOneRecordMovedAndCostAboutOneRecord() {
        // {n, T, pa, pb, eps}: U = E[A(H_a, H_b - 1); H_b >= 1] summed over every histogram of chance above e^-80 from the
        // mechanism's own hockey-stick, against the tilted levels' bound; s = ln U - ln E[A(H)], one record's worth
        double[][] cases = {{1000, 990, 0.1, 0.5, 0.5}, {1000, 990, 0.3, 0.5, 1}, {2000, 1995, 0.1, 0.4, 2}};
        for (double[] c : cases) {
            int n = (int) c[0];
            long t = (long) c[1];
            SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
            BinomialDistribution ha = BinomialDistribution.of(n, c[2]);
            LogSumExp moved = new LogSumExp();
            LogSumExp at = new LogSumExp();
            for (int a = 1; a < n; a++) {
                BinomialDistribution hb = BinomialDistribution.of(n - a, c[3] / (1 - c[2]));
                for (int b = 1; b <= n - a; b++) {
                    double logP = ha.logProbability(a) + hb.logProbability(b);
                    if (logP > -80) {
                        moved.add(logP + m.logHockeyStick(new long[] {a, b - 1, n - a - b + 1}, 0, 1, c[4])[0]);
                        at.add(logP + m.logHockeyStick(new long[] {a, b, n - a - b}, 0, 1, c[4])[0]);
                    }
                }
            }
            double tilted = PairDirections.tilted(n, t, c[2], c[3], c[4], m.logDpDelta(n), Double.POSITIVE_INFINITY, at.log());
            double s = moved.log() - at.log();
            String what = java.util.Arrays.toString(c) + ": tilted " + tilted + ", U " + moved.log() + ", s " + s;
            assertTrue(tilted >= moved.log(), what);
            // measured up to 0.69 s above U (s D / (1 - e^-D) - s = 0.58 s at D = 1, and the last level's thinning weighted by
            // about e^-6), where thinning by ln(1 / s) records leaves about 10 s
            assertTrue(tilted - moved.log() <= 0.8 * s + 1e-8, what);
        }
    }

    @Test
    void whereTheBoxesShowTheLargerDirectionItsOwnLargestNeighbourNoRecordIsMoved() {
        // {n, T, pa, pb, eps}: E[pair] summed over every histogram (slowPairLog) against the directions' bound; the boxes' lattice
        // shows A(h + e_s - e_d) <= A(h) about everywhere (what it leaves lies e^-18 below), so the bound is the direction's own
        // sum (with 6 and 30 lost the rows do not: too few lost source records)
        for (double[] c : new double[][] {{3000, 2994, 0.1, 0.45, 2}, {3000, 2970, 0.1, 0.4, 2}}) {
            long n = (long) c[0];
            long t = (long) c[1];
            SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
            double slow = slowPairLog(n, t, c[2], c[3], c[4]);
            double logDp = m.logDpDelta(n);
            PairDirections.Grid grid = PairDirections.grid(m, n, c[2], c[3], 0, c[4], logDp, Double.NEGATIVE_INFINITY);
            double lattice = PairDirections.lattice(m, n, c[2], c[3], 0, c[4], logDp, Double.POSITIVE_INFINITY, grid, Double.NEGATIVE_INFINITY);
            double rows = grid.rows(m, n, c[2], c[3], 0, c[4]);
            double up = PairDirections.logUpper(m, n, c[2], c[3], c[4], Double.POSITIVE_INFINITY, slow);
            String what = java.util.Arrays.toString(c) + ": " + up + " against " + slow + ", lattice " + lattice + ", rows " + rows;
            assertTrue(lattice < slow - 15, what);
            // given the floor, the region's outer parts of least chance count in full instead: more, by at most 1e-7 of it
            // (measured e^-18.8 and e^-19.0 of the floor without, e^-16.2 and e^-16.1 with)
            double given = PairDirections.lattice(m, n, c[2], c[3], 0, c[4], logDp, Double.POSITIVE_INFINITY, grid, slow);
            assertTrue(given <= LogMath.logAdd(lattice, slow + Math.log(PairDirections.LEFT_OUT_SHARE)) + 1e-12 && given > lattice,
                    what + ", given the floor " + given);
            assertTrue(up >= slow, what);
            // measured 1.3e-9 and 1.3e-8 above
            assertTrue(up - slow < 1e-7, what);
        }
    }

    @Test
    void whereTheRowsShowTheLargerDirectionItsOwnLargestNeighbourNoRecordIsMoved() {
        // {n, T, pa, pb, eps}: 10 % lost, E[pair] summed over every histogram; the rows (RowDomination) leave e^-8.5 of it. Given a
        // floor e^10 above the value (a floor only sizes what is summed from above, so the bound holds whatever it is) they leave
        // less than 1e-7 of the floor, and the bound is the direction's own sum plus what they leave, with no record moved and
        // no lattice; with replacement the rows' argument is not made
        double[] c = {4000, 3600, 0.08, 0.4, 0.5};
        long n = (long) c[0];
        long t = (long) c[1];
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
        double slow = slowPairLog(n, t, c[2], c[3], c[4]);
        double floor = slow + 10;
        PairDirections.Grid grid = PairDirections.grid(m, n, c[2], c[3], 0, c[4], m.logDpDelta(n), floor);
        double rows = grid.rows(m, n, c[2], c[3], 0, c[4]);
        double up = PairDirections.logUpper(m, n, c[2], c[3], c[4], Double.POSITIVE_INFINITY, floor);
        String what = java.util.Arrays.toString(c) + ": " + up + " against " + slow + ", rows " + rows;
        assertTrue(rows < floor + Math.log(PairDirections.LEFT_OUT_SHARE) && rows > slow - 10, what);
        assertTrue(up >= slow, what);
        // the direction's own sum plus what the boxes leave, nothing moved (the floor lets the sum keep its cheap bounds where
        // they add at most 1e-9 of the floor, e^10 of the value: measured 3.2e-4 above it, 2.1e-4 of it the rows')
        double plain = DirectionSum.logUpper(n, t, c[2], c[3], c[4], Double.POSITIVE_INFINITY, floor, true);
        assertTrue(up <= LogMath.logAdd(plain, LogMath.logAdd(rows, grid.notShown())) + 1e-9 && up - slow < 1e-3, what + ", plain " + plain);
        SamplingHistogramMechanism with = SamplingHistogramMechanism.of(Sampling.WITH_REPLACEMENT, t);
        assertEquals(Double.POSITIVE_INFINITY, PairDirections.grid(with, n, c[2], c[3], 0, c[4], with.logDpDelta(n), slow).rows(with, n, c[2], c[3], 0, c[4]));
    }

    @Test
    void aBoxsChanceFromAboveHoldsAgainstTheMultinomialSummed() {
        long n = 600;
        double pa = 0.3;
        double pb = 0.1;
        BinomialDistribution ha = BinomialDistribution.of((int) n, pa);
        long[][] boxes = {{150, 190, 40, 70}, {120, 150, 30, 45}, {180, 230, 60, 90}, {170, 175, 55, 57}, {0, 600, 0, 600}};
        for (long[] b : boxes) {
            double exact = 0;
            for (long a = b[0]; a <= b[1]; a++) {
                BinomialDistribution hb = BinomialDistribution.of((int) (n - a), pb / (1 - pa));
                for (long x = b[2]; x <= Math.min(b[3], n - a); x++) {
                    exact += ha.probability((int) a) * hb.probability((int) x);
                }
            }
            double bound = ShiftBoxes.logBox(n, pa, pb, b[0], b[1], b[2], b[3]);
            String what = java.util.Arrays.toString(b) + ": " + bound + " against " + Math.log(exact);
            assertTrue(bound >= Math.log(exact) - 1e-12, what);
            // a tail box: within 25 % of its chance
            if (b[0] == 120) {
                assertTrue(bound - Math.log(exact) < Math.log(1.25), what);
            }
        }
    }

    @Test
    void nothingWhereNothingIsLostOrTheWorkIsBeyondItsLimit() {
        assertEquals(Double.NEGATIVE_INFINITY, DirectionSum.logLower(1000, 1000, 0.1, 0.4, 1, Double.POSITIVE_INFINITY));
        assertEquals(Double.NEGATIVE_INFINITY, DirectionSum.logLower(1_000_000, 998_000, 0.08, 0.4, 0.5, 1e4));
        assertEquals(Double.NEGATIVE_INFINITY, DirectionSum.logLower(1000, 990, 0, 0.4, 1, Double.POSITIVE_INFINITY));
    }
}
