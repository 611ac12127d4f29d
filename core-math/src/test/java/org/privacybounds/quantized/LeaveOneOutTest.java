package org.privacybounds.quantized;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The leave-one-out code-sum polynomials against counting the subsets of a small database one by one. */
class LeaveOneOutTest {
    private static final int[] CODES = {-2, 0, 1, 4};
    private static final int[] COUNTS = {2, 1, 3, 2};
    private static final int TOP = 4;

    /** levels[t][s - t lo] = the number of t-subsets of the records with code sum s (records are distinct). */
    static double[][] bySubsets(List<Integer> records, int lo, int width) {
        double[][] p = new double[TOP + 1][];
        for (int t = 0; t <= TOP; t++) {
            p[t] = new double[t * width + 1];
        }
        int r = records.size();
        for (int mask = 0; mask < 1 << r; mask++) {
            int t = Integer.bitCount(mask);
            if (t > TOP) {
                continue;
            }
            int s = 0;
            for (int i = 0; i < r; i++) {
                if ((mask >> i & 1) == 1) {
                    s += records.get(i);
                }
            }
            p[t][s - t * lo]++;
        }
        return p;
    }

    static List<Integer> records(int leaveOut) {
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < CODES.length; j++) {
            for (int k = 0; k < COUNTS[j] - (j == leaveOut ? 1 : 0); k++) {
                out.add(CODES[j]);
            }
        }
        return out;
    }

    @Test
    void everyCodeLeftOutCountsTheSubsetsOfTheRest() {
        int width = CODES[CODES.length - 1] - CODES[0];
        LeaveOneOut loo = new LeaveOneOut(CODES, COUNTS, TOP, 1.0); // rho = 1: coefficients are plain counts, exact in doubles
        List<Integer> seen = new ArrayList<>();
        loo.run((j, levels) -> {
            seen.add(j);
            double[][] want = bySubsets(records(j), CODES[0], width);
            for (int t = 0; t <= TOP; t++) {
                assertArrayEquals(want[t], levels[t], 0, "code " + CODES[j] + " left out, level " + t);
            }
        });
        assertEquals(List.of(0, 1, 2, 3), seen);
        double[][] full = loo.full();
        double[][] want = bySubsets(records(-1), CODES[0], width);
        for (int t = 0; t <= TOP; t++) {
            assertArrayEquals(want[t], full[t], 0, "whole database, level " + t);
        }
        assertEquals(3 * CODES[0], loo.base(3));
    }

    @Test
    void onlyTheWantedCodesAreVisitedAndRhoWeighsEachRecord() {
        double rho = 0.5;
        int width = CODES[CODES.length - 1] - CODES[0];
        List<Integer> seen = new ArrayList<>();
        new LeaveOneOut(CODES, COUNTS, TOP, rho).run(new boolean[] {false, false, true, false}, (j, levels) -> {
            seen.add(j);
            double[][] want = bySubsets(records(j), CODES[0], width);
            for (int t = 0; t <= TOP; t++) {
                for (int i = 0; i < want[t].length; i++) {
                    assertEquals(want[t][i] * Math.pow(rho, t), levels[t][i], 1e-15 * want[t][i] + 1e-300);
                }
            }
        });
        assertEquals(List.of(2), seen);
    }
}
