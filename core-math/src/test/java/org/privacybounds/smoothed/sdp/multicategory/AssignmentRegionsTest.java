package org.privacybounds.smoothed.sdp.multicategory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The regions of assignments of the upper side's branch and bound: what their closure draws, that their parts cover every
 * assignment (a region left out would be an assignment the upper bound never saw), and that a region's relaxation puts no
 * record in two parts nor more records on a set than the region guarantees.
 */
class AssignmentRegionsTest {
    private static final double[][] STATES = {
        {0.4277, 0.5283, 0.0440}, {0.9215, 0.0540, 0.0245}, {0.4786, 0.5122, 0.0092}, {0.6546, 0.3038, 0.0416}, {0.2970, 0.6863, 0.0167},
    };
    private static final double[][] HULL = {{0.45, 0.45, 0.10}, {0.50, 0.42, 0.08}, {0.40, 0.52, 0.08}};

    /** Every assignment of n records to l vertices (counts per vertex). */
    private static List<long[]> assignments(int n, int l) {
        List<long[]> out = new ArrayList<>();
        long[] c = new long[l];
        fill(out, c, 0, n);
        return out;
    }

    private static void fill(List<long[]> out, long[] c, int i, int left) {
        if (i == c.length - 1) {
            c[i] = left;
            out.add(c.clone());
            return;
        }
        for (int k = 0; k <= left; k++) {
            c[i] = k;
            fill(out, c, i + 1, left - k);
        }
    }

    /**
     * The shift of v's law for the assignments with lo to hi records on v: a count where v's share is above the other vertices'
     * smallest moves down by at least its mean loss over the n - lo records that may leave, a count where it is below moves up
     * by at most its mean gain over the n - hi that must, and the chance of missing is what was asked for. Both the direction
     * (which records may leave, which must) and the categories (v over q', q' over v) show here, where the bands' bounds at
     * n = 2,000 have more room than either would move them.
     */
    @Test
    void theVertexShiftLosesWhatMayLeaveAndGainsWhatMust() {
        double[][] v = {{0.3, 0.3, 0.4}, {0.25, 0.35, 0.4}, {0.35, 0.2, 0.45}, {0.3, 0.25, 0.45}};
        long n = 1_000_000;
        AssignmentRegions r = new AssignmentRegions(n, v, -20, -1e-3, -0.1);
        // vertex 3 against the others' smallest (0.25, 0.2, 0.4): loses 0.05 of every category, gains none
        // vertex 1 against (0.3, 0.2, 0.4): loses 0.15 of category 2, gains 0.05 of category 1
        long lo = n - 100_000;
        long hi = n - 20_000;
        AssignmentRegions.Moved three = r.vertexShift(3, lo, hi, -10);
        for (long c : three.counts()) {
            assertTrue(c <= -5_000 && c > -5_500, Arrays.toString(three.counts()));
        }
        AssignmentRegions.Moved one = r.vertexShift(1, lo, hi, -10);
        assertTrue(one.counts()[0] > 800 && one.counts()[0] <= 1_000, Arrays.toString(one.counts()));
        assertTrue(one.counts()[1] <= -15_000 && one.counts()[1] > -16_000, Arrays.toString(one.counts()));
        assertEquals(0, one.counts()[2]);
        assertTrue(one.logTail() <= Math.log(4) - 10 + 1e-9 && one.logTail() > -12, "" + one.logTail());
        // every record on v: nothing moves, and nothing can miss
        AssignmentRegions.Moved none = r.vertexShift(1, n, n, -10);
        assertArrayEquals(new long[3], none.counts());
        assertEquals(Double.NEGATIVE_INFINITY, none.logTail());
    }

    @Test
    void theClosureDrawsWhatTheBoundsImply() {
        AssignmentRegions r = new AssignmentRegions(100, HULL, -20, -1e-3, -0.1);
        // at most 79 on vertex 3 (so at least 21 on the others) and at most 9 on vertex 1: at least 12 on vertex 2
        long[] a = r.with(r.with(r.root(), 2, 79, true), 0, 9, true);
        assertEquals(21, a[0b011]);
        assertEquals(91, a[0b110]);
        assertEquals(12, a[0b010]);
        // and at least 60 on vertex 1 with at most 79 on vertex 3 and at most 30 on vertex 1 is empty; 70 + 40 > 100 too
        assertNull(r.with(r.with(r.root(), 0, 60, false), 0, 30, true));
        assertNull(r.with(r.with(r.root(), 0, 70, false), 1, 40, false));
        assertNotNull(r.with(r.with(r.root(), 0, 60, false), 1, 40, false));
    }

    @Test
    void thePartsCoverEveryAssignmentAndARegionsPartsFitInIt() {
        for (double[][] v : new double[][][] {HULL, STATES}) {
            int n = v.length == 3 ? 40 : 14;
            AssignmentRegions r = new AssignmentRegions(n, v, -4, -0.05, -0.5);
            List<long[]> all = assignments(n, v.length);
            for (int lower = 0; lower < v.length; lower++) {
                for (long cut : new long[] {1, n / 3, n - 1}) {
                    List<AssignmentRegions.Region> leaves = r.partition(lower, cut, 24);
                    // refine every leaf once more, as the bounds' rounds do: its parts cover it
                    List<AssignmentRegions.Region> refined = new ArrayList<>();
                    for (AssignmentRegions.Region leaf : leaves) {
                        refined.addAll(r.refine(leaf, leaf.proxy() - 1, 6));
                    }
                    for (List<AssignmentRegions.Region> set : List.of(leaves, refined)) {
                        for (long[] a : all) {
                            boolean held = set.stream().anyMatch(x -> r.holds(x.atLeast(), a));
                            assertTrue(held, Arrays.deepToString(v) + " lower " + lower + " cut " + cut + ": " + Arrays.toString(a) + " in no region");
                        }
                    }
                    assertTrue(leaves.size() >= 2 && leaves.size() <= 24, "leaves " + leaves.size());
                    for (AssignmentRegions.Region x : refined) {
                        long total = 0;
                        for (long[] p : x.parts()) {
                            total += p[0];
                            // no part holds more records than the region puts on its set
                            assertTrue(p[0] >= 1 && p[0] <= x.atLeast()[(int) p[1]], Arrays.deepToString(x.parts()));
                        }
                        assertTrue(total <= n, "the parts hold " + total + " of " + n + " records");
                        // every assignment the region holds has at least each part's records on its set, summed over the parts
                        // below it: checked through the laminar family's sums per set
                        for (long[] a : all) {
                            if (!r.holds(x.atLeast(), a)) {
                                continue;
                            }
                            for (long[] p : x.parts()) {
                                long under = 0;
                                for (long[] o : x.parts()) {
                                    if ((o[1] & ~p[1]) == 0) {
                                        under += o[0];
                                    }
                                }
                                long on = 0;
                                for (int w = 0; w < v.length; w++) {
                                    on += (p[1] >> w & 1) != 0 ? a[w] : 0;
                                }
                                assertTrue(on >= under, Arrays.toString(a) + " has " + on + " on set " + p[1] + ", the parts there " + under);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * A region that the orbit leaves out only in pieces (a cyclic hull, at most 80 of 300 records on v: some other vertex holds
     * at least 110, but no one vertex is known to hold more than 80) is not {@code outside} itself, and refines to no part:
     * each split leaves both halves out. Every assignment it holds has a vertex of the orbit fuller than v.
     */
    @Test
    void aRegionLeftOutOnlyInPiecesRefinesToNoPart() {
        double[][] v = {{0.5, 0.3, 0.2}, {0.2, 0.5, 0.3}, {0.3, 0.2, 0.5}};
        int n = 300;
        int orbit = CategorySymmetry.orbit(v, 0);
        assertEquals(0b110, orbit);
        AssignmentRegions s = new AssignmentRegions(n, v, -20, -1e-3, -0.1, 0, orbit);
        long[] rest = s.with(s.root(), 0, 80, true);
        assertTrue(!s.outside(rest));
        assertEquals(List.of(), s.refine(s.relax(rest), Double.NEGATIVE_INFINITY, 64));
        for (long[] a : assignments(n, 3)) {
            if (s.holds(rest, a)) {
                assertTrue(a[1] > a[0] || a[2] > a[0], Arrays.toString(a));
            }
        }
    }

    /**
     * What counts near the second smallest add to the proxy: nothing where they lie far above it; for a tie, the expected
     * least of two like counts (sqrt(y / pi) below y) times a small slope, and ln 2 where the pair changes by much per record.
     */
    @Test
    void countsNearTheSecondSmallestAddWhatTheirMinimumTakes() {
        int[] two = {0, 1};
        assertEquals(0, AssignmentRegions.nearY(new double[] {1_000, 1_500, 2_000, 2_500}, two, -4e-4), 1e-12);
        double tie = AssignmentRegions.nearY(new double[] {1_000, 1_500, 1_500}, two, -4e-4);
        assertEquals(4e-4 * Math.sqrt(1_500 / Math.PI), tie, 0.05 * tie);
        assertEquals(Math.log(2), AssignmentRegions.nearY(new double[] {1_000, 1_500, 1_500}, two, -0.5), 0.05);
        // a count 2 standard deviations of the difference above: between none and the tie's
        double near = AssignmentRegions.nearY(new double[] {1_000, 1_500, 1_610}, two, -4e-4);
        assertTrue(near > 0 && near < tie / 5, near + " against " + tie);
    }

    /**
     * Two vertices that swap the shares of two categories, one of them the lower bound's vertex's second smallest (five
     * categories, n = 1e4, slopes as measured at eps 1): the region of the records off that vertex lets those categories tie
     * at 0.15 in G, which no assignment does, and the proxy alone saw no split lower it (the region stayed whole, 3.6e-3 in
     * log10 above the lower bound); split where the tie comes apart, its parts' tie-aware values lie below the region's.
     */
    @Test
    void aRegionWhoseCategoriesTieInGIsSplitWhereTheTieComesApart() {
        double[][] v = {{0.3, 0.25, 0.2, 0.15, 0.1}, {0.25, 0.3, 0.15, 0.2, 0.1}, {0.2, 0.2, 0.2, 0.2, 0.2}};
        long n = 10_000;
        AssignmentRegions r = new AssignmentRegions(n, v, -24, -0.00296, -0.592, 0, CategorySymmetry.orbit(v, 0));
        List<AssignmentRegions.Region> leaves = r.partition(0, 580, MonotoneBounds.MAX_REGIONS / (MonotoneBounds.REFINE_ROUNDS + 1));
        assertTrue(leaves.size() >= 3, "v's region and at least two parts: " + leaves.size());
        double whole = r.relax(r.with(r.root(), 0, n - 581, true)).tied();
        for (AssignmentRegions.Region part : leaves.subList(1, leaves.size())) {
            assertTrue(part.tied() <= whole - AssignmentRegions.MARGIN, part.tied() + " against " + whole);
        }
    }
}
