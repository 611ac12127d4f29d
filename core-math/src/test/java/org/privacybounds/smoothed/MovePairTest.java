package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.numeric.LogConcaveSum;

/** profile skips (neighbour, direction) sums by a bound on their region's mass; nothing else changes. */
class MovePairTest {

    /** Every sum, in the order (a, b, direction): the largest, and the first neighbour within 1e-12 of it. */
    private static ProfileValue everySum(Sampling sampling, int t, int[] h, double eps) {
        List<Double> values = new ArrayList<>();
        List<Double> errs = new ArrayList<>();
        List<Neighbor> who = new ArrayList<>();
        for (int a = 0; a < h.length; a++) {
            if (h[a] == 0) {
                continue;
            }
            for (int b = 0; b < h.length; b++) {
                if (b == a) {
                    continue;
                }
                MovePair.Sum s1 = new MovePair(sampling, h, a, b, t).hockeyStick(eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE);
                values.add(s1.log());
                errs.add(s1.relativeTruncation());
                who.add(new Neighbor(a, b, Direction.X_TO_NEIGHBOR));
                int[] hp = h.clone();
                hp[a]--;
                hp[b]++;
                MovePair.Sum s2 = new MovePair(sampling, hp, b, a, t).hockeyStick(eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE);
                values.add(s2.log());
                errs.add(s2.relativeTruncation());
                who.add(new Neighbor(a, b, Direction.NEIGHBOR_TO_X));
            }
        }
        double best = Double.NEGATIVE_INFINITY;
        double bestErr = 0;
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) > best) {
                best = values.get(i);
                bestErr = errs.get(i);
            }
        }
        Neighbor worst = null;
        for (int i = 0; i < values.size() && best > Double.NEGATIVE_INFINITY; i++) {
            if (values.get(i) >= best - 1e-12) {
                worst = who.get(i);
                break;
            }
        }
        return new ProfileValue(eps, best, best == Double.NEGATIVE_INFINITY ? 0 : bestErr + SamplingHistogramMechanism.floatingPointAllowance(best), worst, "");
    }

    @Test
    void profileEqualsTheLargestOfEverySumDigitForDigit() {
        SplittableRandom rnd = new SplittableRandom(19);
        int checked = 0;
        for (int c = 0; c < 400; c++) {
            Sampling sampling = rnd.nextBoolean() ? Sampling.WITHOUT_REPLACEMENT : Sampling.WITH_REPLACEMENT;
            // small histograms of 2 to 4 categories, then large ones of 2 (one-dimensional sums: fast)
            int m = c < 300 ? 2 + rnd.nextInt(3) : 2;
            int n = 1 + rnd.nextInt(c < 300 ? 200 : 20_000_000);
            int[] h = new int[m];
            int left = n;
            for (int i = 0; i < m - 1; i++) {
                h[i] = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(left + 1);
                left -= h[i];
            }
            h[m - 1] = left;
            int t = rnd.nextInt(4) == 0 ? n : (int) Math.min(n, Math.round(n * (0.5 + 0.5 * rnd.nextDouble())));
            double eps = rnd.nextInt(5) == 0 ? 0 : rnd.nextDouble() * 4;
            SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(sampling, t);
            ProfileValue got = mech.profile(h, eps);
            ProfileValue want = everySum(sampling, t, h, eps);
            String where = Arrays.toString(h) + " T=" + t + " eps=" + eps + " " + sampling;
            assertEquals(want.logDelta(), got.logDelta(), 0, where);
            assertEquals(want.relativeErrorBound(), got.relativeErrorBound(), 0, where);
            assertEquals(want.worst(), got.worst(), where);
            checked++;
        }
        assertEquals(400, checked);
    }

    @Test
    void largeThreeCategoryProfilesSkipOnlySumsBelowTheLargest() {
        // three categories with many rows: the sums are ordered by their largest row, and a sum a few of its rows show to lie
        // below the largest found is skipped; the value is still the largest of every sum, digit for digit
        SplittableRandom rnd = new SplittableRandom(1126);
        for (int c = 0; c < 16; c++) {
            int n = 100_000 + rnd.nextInt(1_000_000);
            int ha = 1 + rnd.nextInt(n / 2);
            int hb = 1 + rnd.nextInt(n - ha - 1);
            int[] h = {ha, hb, n - ha - hb};
            int t = n - 1 - rnd.nextInt(n / 100);
            double eps = rnd.nextInt(4) == 0 ? 0 : rnd.nextDouble() * 4;
            ProfileValue got = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t).profile(h, eps);
            ProfileValue want = everySum(Sampling.WITHOUT_REPLACEMENT, t, h, eps);
            String where = Arrays.toString(h) + " T=" + t + " eps=" + eps;
            assertEquals(want.logDelta(), got.logDelta(), 0, where);
            assertEquals(want.worst(), got.worst(), where);
        }
    }

    @Test
    void tiesGoToTheFirstNeighbour() {
        // h = n/2: moving either way is symmetric, the four sums tie in pairs: the first pair is reported whatever the last
        // bits of the sums
        for (int n : new int[] {2, 10, 2000, 1_000_000}) {
            int[] h = {n / 2, n / 2};
            for (double eps : new double[] {0, 0.3, 2}) {
                SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n - 1);
                ProfileValue want = everySum(Sampling.WITHOUT_REPLACEMENT, n - 1, h, eps);
                ProfileValue got = mech.profile(h, eps);
                assertEquals(want.logDelta(), got.logDelta(), 0);
                assertEquals(want.worst(), got.worst(), "n=" + n + " eps=" + eps);
                assertEquals(new Neighbor(0, 1, Direction.X_TO_NEIGHBOR), got.worst(), "n=" + n + " eps=" + eps);
            }
        }
    }

    @Test
    void massBoundIsAtLeastTheSum() {
        SplittableRandom rnd = new SplittableRandom(7);
        int below = 0;
        for (int c = 0; c < 300; c++) {
            Sampling sampling = rnd.nextBoolean() ? Sampling.WITHOUT_REPLACEMENT : Sampling.WITH_REPLACEMENT;
            int n = 2 + rnd.nextInt(c < 200 ? 300 : 5_000_000);
            int a = 1 + rnd.nextInt(n - 1);
            int[] g = {a, n - a};
            int t = (int) Math.min(n, Math.round(n * (0.3 + 0.7 * rnd.nextDouble())));
            double eps = rnd.nextDouble() * 5;
            for (int dir = 0; dir < 2; dir++) {
                MovePair p = new MovePair(sampling, g, dir, 1 - dir, t);
                MovePair.Region r = p.hockeyRegion(eps);
                double bound = p.logMassBound(r);
                double sum = p.hockeyStick(r, eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE).log();
                String where = Arrays.toString(g) + " T=" + t + " eps=" + eps + " " + sampling + " dir " + dir;
                assertTrue(sum <= bound, where + ": sum " + sum + " > bound " + bound);
                assertTrue(bound <= 0, where);
                if (bound < 0) {
                    below++;
                }
            }
        }
        assertTrue(below > 100, "the bound is below 1 in most cases: " + below);
    }

    /**
     * The two-category region found from its closed-form boundary is the one the binary search finds, for every pair of
     * both directions, at sizes from 3 to 2^31 - 1 and eps from 0 to 12; and the stepping search equals the binary search
     * on any guess.
     */
    @Test
    void twoCategoryRegionFromItsBoundaryIsTheBinarySearchOne() {
        SplittableRandom rnd = new SplittableRandom(23);
        for (int trial = 0; trial < 3000; trial++) {
            int n = trial < 1000 ? 3 + rnd.nextInt(2000) : trial < 2000 ? 1 + rnd.nextInt(Integer.MAX_VALUE) : Integer.MAX_VALUE - rnd.nextInt(1000);
            n = Math.max(n, 3);
            int draw = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(n - 1) : n - 1 - rnd.nextInt(Math.max(1, n / 100 + 1));
            int t = Math.max(1, Math.min(n - 1, draw));
            int h = 1 + rnd.nextInt(n - 1);
            double eps = rnd.nextInt(5) == 0 ? 0 : 12 * rnd.nextDouble();
            int[] g = {h, n - h};
            for (int[] ab : new int[][] {{0, 1}, {1, 0}}) {
                MovePair p = new MovePair(Sampling.WITHOUT_REPLACEMENT, g, ab[0], ab[1], t);
                MovePair.Region r = p.hockeyRegion(eps);
                int lo = Math.max(0, t - (n - g[ab[0]])); // the outer hypergeometric's support starts here
                long hi = r.to();
                long want = LogConcaveSum.firstTrue(lo, hi, ka -> p.logRho(ka, t - ka) < -eps);
                assertEquals(want, r.from(), "n=" + n + " T=" + t + " h=" + h + " pair " + ab[0] + "->" + ab[1] + " eps=" + eps);
            }
        }
        for (int trial = 0; trial < 2000; trial++) {
            int lo = rnd.nextInt(1000);
            int hi = lo + rnd.nextInt(1000);
            int edge = lo + rnd.nextInt(hi - lo + 2);
            long guess = lo - 100 + rnd.nextInt(hi - lo + 300);
            assertEquals(edge, MovePair.firstTrueNear(lo, hi, guess, k -> k >= edge));
        }
    }
    @Test
    void rowSumsEqualTheGenericRegionSumOfTheSameTerms() {
        // three or more categories: the hockey-stick by rows (largest row first, linear-space rows) against the generic
        // log-space region sum walking from the law's mode; both are certified sums of the same terms
        SplittableRandom rnd = new SplittableRandom(26);
        for (int c = 0; c < 120; c++) {
            Sampling sampling = rnd.nextInt(3) == 0 ? Sampling.WITH_REPLACEMENT : Sampling.WITHOUT_REPLACEMENT;
            long n = 30 + rnd.nextLong(rnd.nextBoolean() ? 2_000 : 200_000);
            long lost = 1 + rnd.nextLong(Math.min(n / 2, 3_000));
            long t = sampling == Sampling.WITHOUT_REPLACEMENT ? n - lost : 1 + rnd.nextLong(Math.min(n, 3_000));
            long ha = 1 + rnd.nextLong(n - 2);
            long hb = rnd.nextLong(n - ha);
            long[] g = {ha, hb, n - ha - hb};
            double eps = rnd.nextInt(5) == 0 ? 0 : 3 * rnd.nextDouble();
            MovePair pair = new MovePair(sampling, g, 0, 1, t);
            MovePair.Sum rows = pair.hockeyStick(eps, SamplingHistogramMechanism.RELATIVE_TOLERANCE);
            MovePair.Sum generic = pair.regionSum(true, -eps, lr -> org.privacybounds.numeric.LogMath.log1mexp(eps + lr),
                    SamplingHistogramMechanism.RELATIVE_TOLERANCE);
            String where = sampling + " " + Arrays.toString(g) + " T=" + t + " eps=" + eps;
            if (generic.log() == Double.NEGATIVE_INFINITY) {
                assertEquals(Double.NEGATIVE_INFINITY, rows.log(), where);
                continue;
            }
            assertEquals(generic.log(), rows.log(), 1e-11 + 1e-14 * Math.abs(generic.log()), where);
            assertTrue(rows.relativeTruncation() < 1e-10, where + ": " + rows.relativeTruncation());
        }
    }
}
