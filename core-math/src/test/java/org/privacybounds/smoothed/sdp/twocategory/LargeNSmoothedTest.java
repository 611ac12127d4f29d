package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.ReferenceAlgorithm1;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.validation.BadInputException;

class LargeNSmoothedTest {
    static DistributionSet two(double p, double q) {
        return DistributionSet.of(List.of(new double[] {p, 1 - p}, new double[] {q, 1 - q}), List.of("a", "b"), "--distributions");
    }

    static List<SmoothedValue> large(int n, int t, DistributionSet v, double[] eps, int fullUpTo) {
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
        return new LargeNSmoothed(n, t, v, eps, LargeNSmoothed.local(m, n, eps), LargeNSmoothed.Options.defaults().withFullScanUpTo(fullUpTo)).solve();
    }

    @Test
    void chernoffBoundIsAnUpperBoundOfDelta() {
        for (int[] nt : new int[][] {{2000, 1996}, {5000, 4990}, {300, 150}}) {
            for (double eps : new double[] {0, 0.1, 1, 7}) {
                ChernoffBound ub = new ChernoffBound(nt[0], nt[1], eps);
                SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, nt[1]);
                for (int h = 0; h <= nt[0]; h += (h < 50 || h > nt[0] - 50 ? 1 : 7)) {
                    double d = m.profile(new int[] {h, nt[0] - h}, eps).logDelta();
                    assertTrue(d <= ub.logUpper(h) + 1e-12, "n=" + nt[0] + " h=" + h + " eps=" + eps + ": " + d + " > " + ub.logUpper(h));
                }
            }
        }
    }

    /** The hypergeometric bound is an upper bound of delta, and much closer to it than the Chernoff bound. */
    @Test
    void hypergeometricBoundIsATightUpperBoundOfDelta() {
        double worstGap = 0;
        for (int[] nt : new int[][] {{2000, 1996}, {5000, 4990}, {300, 150}, {20000, 19960}, {1000, 999}}) {
            for (double eps : new double[] {0, 0.1, 1, 7}) {
                HypergeometricBound hb = new HypergeometricBound(nt[0], nt[1], eps);
                ChernoffBound cb = new ChernoffBound(nt[0], nt[1], eps);
                SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, nt[1]);
                // the range form walks from pmf to pmf (a step per h) where logUpper(h) starts afresh: both must bound delta
                double[] range = hb.logUpperRange(0, nt[0]);
                for (int h = 0; h <= nt[0]; h += (h < 60 || h > nt[0] - 60 ? 1 : 11)) {
                    double d = m.profile(new int[] {h, nt[0] - h}, eps).logDelta();
                    double b = hb.logUpper(h);
                    assertTrue(d <= b + 1e-12, "n=" + nt[0] + " h=" + h + " eps=" + eps + ": " + d + " > " + b);
                    assertTrue(d <= range[h] + 1e-12, "range: n=" + nt[0] + " h=" + h + " eps=" + eps + ": " + d + " > " + range[h]);
                    assertTrue(b <= cb.logUpper(h), "never looser than Chernoff");
                    if (d > -600 && d > Double.NEGATIVE_INFINITY) {
                        worstGap = Math.max(worstGap, b - d);
                    }
                }
            }
        }
        // within a factor e^3 of delta wherever delta is representable (Chernoff: about sqrt(L) and more)
        assertTrue(worstGap < 3, "largest ln(bound / delta): " + worstGap);
    }

    /** One bound per block of h is at least the per-h bound of every h in the block (so it bounds delta too). */
    @Test
    void blockBoundCoversEveryHOfItsBlock() {
        SplittableRandom r = new SplittableRandom(19);
        for (int[] nt : new int[][] {{2000, 1996}, {100_000, 99_800}, {10_000_000, 9_980_000}, {300, 150}, {1_000_000, 999_990}}) {
            for (double eps : new double[] {0, 0.1, 1, 7}) {
                ChernoffBound ub = new ChernoffBound(nt[0], nt[1], eps);
                for (int trial = 0; trial < 60; trial++) {
                    int len = 1 + r.nextInt(trial % 2 == 0 ? 256 : 4096);
                    int lo = trial < 4 ? (trial % 2 == 0 ? 0 : Math.max(0, nt[0] - len + 1)) : r.nextInt(Math.max(1, nt[0] - len + 2));
                    int hi = Math.min(nt[0], lo + len - 1);
                    double block = ub.logUpperOver(lo, hi);
                    double worst = Double.NEGATIVE_INFINITY;
                    for (int h = lo; h <= hi; h++) {
                        worst = Math.max(worst, ub.logUpper(h));
                    }
                    assertTrue(worst <= block + 1e-12, "n=" + nt[0] + " [" + lo + ", " + hi + "] eps=" + eps + ": " + worst + " > " + block);
                }
            }
        }
    }

    @Test
    void agreesWithFullEnumeration() {
        double[] eps = {0, 0.5, 2};
        Object[][] cases = {{60, 40, two(0.3, 0.7)}, {120, 100, two(0.9446, 0.27)}, {80, 79, two(0.55, 0.5)}, {50, 25, two(0.2, 0.2)}};
        for (Object[] c : cases) {
            int n = (Integer) c[0];
            int t = (Integer) c[1];
            DistributionSet v = (DistributionSet) c[2];
            List<SmoothedValue> fast = large(n, t, v, eps, LargeNSmoothed.FULL_SCAN_MAX_N);
            List<SmoothedValue> ref = ReferenceAlgorithm1.enumerate(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t), n, v.vertices(), eps);
            for (int e = 0; e < eps.length; e++) {
                assertEquals(ref.get(e).logDelta(), fast.get(e).logDelta(), 1e-10, "n=" + n + " eps=" + eps[e]);
                assertTrue(fast.get(e).relativeErrorBound() < 1e-9);
            }
        }
    }

    @Test
    void branchAndBoundMatchesTheFullScan() {
        // n = 30000 > 20000: the certified branch and bound against one untruncated scan of every
        // assignment; 0.2 % lost, the 2020 jurisdictions' extremes
        int n = 30000;
        int t = 29940;
        double[] eps = {0.5, 7};
        DistributionSet v = two(0.94467, 0.228609);
        List<SmoothedValue> bnb = matchesTheFullScan(n, t, v, eps);
        for (SmoothedValue b : bnb) {
            assertTrue(b.excluded() > 0, "the bound excluded some assignments");
        }
        // at eps = 7 the maximum sits at an end: all records on the DC vertex
        assertArrayEquals(new long[] {n, 0}, bnb.get(1).argmaxAssignment());
    }

    @Test
    void historyHullAtLargeEpsMatchesTheFullScan() {
        // the paper's history hull (1924 and 1964), where delta grows fast with h and base(h) delta(h) peaks
        // off the mode: the windows widen on one side only and their tails are bounded with the per-h bound first
        int n = 40000;
        int t = 39920;
        double[] eps = {2, 7};
        DistributionSet v = two(0.6521679296057313, 0.3865529670619781);
        matchesTheFullScan(n, t, v, eps);
    }

    /** The certified search (branch and bound from n = 0 on) against one untruncated scan of every assignment. */
    private static List<SmoothedValue> matchesTheFullScan(int n, int t, DistributionSet v, double[] eps) {
        List<SmoothedValue> bnb = large(n, t, v, eps, 0);
        List<SmoothedValue> full = large(n, t, v, eps, n);
        for (int e = 0; e < eps.length; e++) {
            assertEquals(full.get(e).logDelta(), bnb.get(e).logDelta(), 1e-9 * Math.abs(full.get(e).logDelta()) + 1e-11, "eps " + eps[e]);
            assertArrayEquals(full.get(e).argmaxAssignment(), bnb.get(e).argmaxAssignment());
            assertEquals(n + 1L, bnb.get(e).evaluated() + bnb.get(e).excluded());
            assertTrue(bnb.get(e).relativeErrorBound() < 1e-9);
        }
        return bnb;
    }

    @Test
    void slopeBoundOnANearlyFlatObjectiveMatchesTheFullScan() {
        // the paper's code's symmetric history hull [1/2, 0.6522] at a small eps: f(n1) is nearly
        // flat, no bound on delta alone separates the assignments, the slope bound must
        int n = 25000;
        int t = 24950;
        double[] eps = {0.1};
        DistributionSet v = two(0.6522, 0.5);
        SmoothedValue bnb = large(n, t, v, eps, 0).get(0);
        SmoothedValue full = large(n, t, v, eps, n).get(0);
        assertEquals(full.logDelta(), bnb.logDelta(), 1e-9 * Math.abs(full.logDelta()) + 1e-11);
        assertArrayEquals(full.argmaxAssignment(), bnb.argmaxAssignment());
        assertTrue(bnb.method().contains("slope"), bnb.method());
        assertTrue(bnb.evaluated() < 5000, "evaluated " + bnb.evaluated());
    }

    @Test
    void designNoteSanityValues() {
        // 0.2 % lost, eps = 7, the 2020 hull: the maximum at an end, log10 delta_SDP
        // = -0.0495 at n = 1000 and -0.0990 at n = 2000 (measured with an independent implementation)
        DistributionSet v = two(317323.0 / (317323 + 18586), 65854.0 / (65854 + 222179));
        SmoothedValue a = large(1000, 998, v, new double[] {7}, LargeNSmoothed.FULL_SCAN_MAX_N).get(0);
        SmoothedValue b = large(2000, 1996, v, new double[] {7}, LargeNSmoothed.FULL_SCAN_MAX_N).get(0);
        assertEquals(-0.0495, a.log10Delta(), 5e-4);
        assertEquals(-0.0990, b.log10Delta(), 5e-4);
        assertArrayEquals(new long[] {1000, 0}, a.argmaxAssignment());
    }

    @Test
    void degenerateCases() {
        DistributionSet one = DistributionSet.of(List.of(new double[] {0.6, 0.4}), List.of("a"), "--distributions");
        // one vertex at large n: a certified window, not the whole support; agrees with the full scan at n = 6000
        SmoothedValue w = large(6000, 5988, one, new double[] {1}, 0).get(0);
        SmoothedValue f = large(6000, 5988, one, new double[] {1}, 6000).get(0);
        assertEquals(f.logDelta(), w.logDelta(), 1e-9 * Math.abs(f.logDelta()));
        assertTrue(large(1_000_000, 998_000, one, new double[] {1}, 0).get(0).log10Delta() < -10);
        // T = n: delta = 1; T = 0: delta = 0
        assertEquals(0.0, large(50000, 50000, two(0.3, 0.7), new double[] {1}, 0).get(0).logDelta(), 0);
        assertEquals(Double.NEGATIVE_INFINITY, large(50000, 0, two(0.3, 0.7), new double[] {1}, 0).get(0).logDelta(), 0);
    }

    /**
     * Heavy loss with close vertices: no bound separates the assignments, so halving would evaluate nearly all of them. The
     * run says so and stops at its work limit after three halvings instead of running on; a run whose first halving
     * excludes (the national case) never stops, whatever the limit.
     */
    @Test
    void slopeBoundStopsAtItsWorkLimitWhereNothingIsExcluded() {
        double[] eps = {1};
        DistributionSet close = DistributionSet.of(List.of(new double[] {0.3, 0.7}, new double[] {0.35, 0.65}), List.of("a", "b"), "Pi");
        int n = 10_000;
        SamplingHistogramMechanism half = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, n / 2);
        List<String> lines = new ArrayList<>();
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LargeNSmoothed(n, n / 2, close, eps, LargeNSmoothed.local(half, n, eps),
                        LargeNSmoothed.Options.defaults().withWorkLimit(1e-3).withProgress(lines::add)).solve());
        assertEquals("work limit", e.parameter());
        assertTrue(e.getMessage().contains("no bound separates the assignments"), e.getMessage());
        assertTrue(lines.stream().anyMatch(l -> l.contains("nothing excluded in 3 halvings")), String.join("\n", lines));
        // the national case under the same limit: its first halving excludes, nothing is projected
        DistributionSet far = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}), List.of("a", "b"), "Pi");
        int big = 1_000_000;
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 998_000);
        double[] all = {0.5, 1, 2, 7};
        List<SmoothedValue> v = new LargeNSmoothed(big, 998_000, far, all, LargeNSmoothed.local(m, big, all), LargeNSmoothed.Options.defaults().withWorkLimit(1e-3))
                .solve();
        assertEquals(4, v.size());
        assertEquals(-6.806698819410, v.get(0).log10Delta(), 1e-9);
    }

    /**
     * The eps solved at once on two threads give the sequential run's digits: the same ln delta bit for bit, the same
     * assignment, the same counts and error bound, the same number of delta(h) computed (each eps reads and writes only its
     * own delta; the shared first window is computed before they start). Cases: the national hull at n = 1e6, the 2020
     * extremes at n = 30,000, the history hull at n = 40,000 (windows that widen on one side).
     */
    @Test
    void parallelEpsilonsGiveTheSequentialDigits() throws Exception {
        Object[][] cases = {{1_000_000, 998_000, two(0.944667, 0.533392), new double[] {0.5, 1, 2, 7}},
            {30_000, 29_940, two(0.94467, 0.228609), new double[] {7, 0.5, 2, 1}},
            {40_000, 39_920, two(0.6521679296057313, 0.3865529670619781), new double[] {0.5, 2, 7}}};
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            for (Object[] c : cases) {
                int n = (Integer) c[0];
                int t = (Integer) c[1];
                DistributionSet v = (DistributionSet) c[2];
                double[] eps = (double[]) c[3];
                SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
                LargeNSmoothed seq = new LargeNSmoothed(n, t, v, eps, LargeNSmoothed.local(m, n, eps));
                List<SmoothedValue> a = seq.solve();
                List<String> lines = Collections.synchronizedList(new ArrayList<>());
                LargeNSmoothed par = new LargeNSmoothed(n, t, v, eps, LargeNSmoothed.parallel(m, n, eps), LargeNSmoothed.Options.defaults()
                        .withStageTwo(LargeNSmoothed.PARALLEL_STAGE_TWO).withParallelEpsilons().withProgress(lines::add));
                List<SmoothedValue> b = pool.submit(() -> par.solve()).get();
                for (int e = 0; e < eps.length; e++) {
                    String what = "n = " + n + ", eps = " + eps[e];
                    assertEquals(Double.doubleToLongBits(a.get(e).logDelta()), Double.doubleToLongBits(b.get(e).logDelta()), what);
                    assertEquals(eps[e], b.get(e).epsilon(), what);
                    assertArrayEquals(a.get(e).argmaxAssignment(), b.get(e).argmaxAssignment(), what);
                    assertEquals(a.get(e).evaluated(), b.get(e).evaluated(), what);
                    assertEquals(a.get(e).excluded(), b.get(e).excluded(), what);
                    assertEquals(a.get(e).relativeErrorBound(), b.get(e).relativeErrorBound(), 0, what);
                }
                assertEquals(seq.deltaEvaluations(), par.deltaEvaluations(), "delta(h) computed at n = " + n);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("slope bound, eps = ") || l.startsWith("branch and bound, eps = ")));
            }
            // one eps fails (its work limit): the run throws that failure, not an abandoned eps's, and the others stop
            DistributionSet close = DistributionSet.of(List.of(new double[] {0.3, 0.7}, new double[] {0.35, 0.65}), List.of("a", "b"), "Pi");
            double[] eps = {1, 0.5, 2};
            SamplingHistogramMechanism half = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 5_000);
            ExecutionException ex = assertThrows(ExecutionException.class, () -> pool.submit(
                    () -> new LargeNSmoothed(10_000, 5_000, close, eps, LargeNSmoothed.parallel(half, 10_000, eps), LargeNSmoothed.Options.defaults()
                            .withStageTwo(LargeNSmoothed.PARALLEL_STAGE_TWO).withParallelEpsilons().withWorkLimit(1e-3)).solve()).get());
            BadInputException bad = (BadInputException) ex.getCause();
            assertEquals("work limit", bad.parameter());
            assertTrue(bad.getMessage().contains("no bound separates the assignments"), bad.getMessage());
        } finally {
            pool.shutdown();
        }
    }
}
