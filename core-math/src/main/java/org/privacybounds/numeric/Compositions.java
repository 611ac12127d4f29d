package org.privacybounds.numeric;

import java.util.ArrayList;
import java.util.List;

/** Weak compositions: every k in N^m with k_1 + ... + k_m = total (histograms, assignments). */
public final class Compositions {
    private Compositions() {
    }

    /** All compositions of {@code total} into {@code m} parts, in lexicographic order. */
    public static List<int[]> of(int total, int m) {
        return of(total, m, null);
    }

    /** All compositions of {@code total} into {@code m} parts with {@code k_i <= bound[i]} (no bound if null). */
    public static List<int[]> of(int total, int m, int[] bound) {
        List<int[]> out = new ArrayList<>();
        fill(m, bound, new int[m], 0, total, out);
        return out;
    }

    private static void fill(int m, int[] bound, int[] cur, int i, int left, List<int[]> out) {
        if (i == m - 1) {
            if (bound == null || left <= bound[i]) {
                cur[i] = left;
                out.add(cur.clone());
            }
            return;
        }
        int max = bound == null ? left : Math.min(left, bound[i]);
        for (int v = 0; v <= max; v++) {
            cur[i] = v;
            fill(m, bound, cur, i + 1, left - v, out);
        }
    }
}
