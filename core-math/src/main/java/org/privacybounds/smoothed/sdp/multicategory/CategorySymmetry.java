package org.privacybounds.smoothed.sdp.multicategory;

import java.util.Arrays;

/**
 * Relabellings of the categories that map the hull's vertices onto themselves. The sampling-histogram mechanism treats the
 * categories alike: relabelling them by a permutation sigma relabels the released histogram, and delta(h) is the largest
 * divergence over every ordered pair of categories, so {@code delta(sigma h) = delta(h)}. Where sigma maps each vertex w onto
 * a vertex pi(w) (every share equal, as the doubles given), an assignment and its image (n_w records on pi(w)) have the same
 * E[delta(H)]. The vertices such a relabelling maps onto v are v's orbit; every assignment has an image that puts at least as
 * many records on v as on any vertex of v's orbit (map the orbit's fullest vertex onto v), so the upper side's branch and bound
 * may leave out every region in which some vertex of the orbit holds more records than v can ({@link AssignmentRegions}).
 * Two vertices that mirror each other, (0.35, 0.25, 0.40) and (0.25, 0.35, 0.40), are such an orbit: without it the regions near
 * the mirror vertex, whose value is v's own, were bounded from G's shares (the extra of the mirror's second smallest count taken
 * at a Chernoff count 9 standard deviations low) and left the whole hull 0.3 to 0.6 decades above the lower bound.
 */
final class CategorySymmetry {
    /** The most categories whose permutations are searched (8! = 40,320). */
    static final int MAX_CATEGORIES = 8;

    private CategorySymmetry() {
    }

    /**
     * The vertices other than v that some relabelling of the categories, mapping every vertex onto a vertex, maps onto v, as
     * a bit mask over {@code vertices} (at most 31 of them; 0 beyond that, or with more than {@value #MAX_CATEGORIES} categories).
     */
    static int orbit(double[][] vertices, int v) {
        int l = vertices.length;
        int m = vertices[0].length;
        if (l > 31 || m > MAX_CATEGORIES) {
            return 0;
        }
        int[] sigma = new int[m];
        for (int j = 0; j < m; j++) {
            sigma[j] = j;
        }
        int orbit = 0;
        double[] image = new double[m];
        do {
            int[] pi = new int[l];
            boolean maps = true;
            for (int w = 0; w < l && maps; w++) {
                // the relabelled vertex: share of category sigma[j] is w's share of j
                for (int j = 0; j < m; j++) {
                    image[sigma[j]] = vertices[w][j];
                }
                pi[w] = find(vertices, image);
                maps = pi[w] >= 0;
            }
            if (maps) {
                for (int w = 0; w < l; w++) {
                    if (w != v && pi[w] == v) {
                        orbit |= 1 << w;
                    }
                }
            }
        } while (next(sigma));
        return orbit;
    }

    private static int find(double[][] vertices, double[] p) {
        for (int w = 0; w < vertices.length; w++) {
            if (Arrays.equals(vertices[w], p)) {
                return w;
            }
        }
        return -1;
    }

    /** The next permutation in lexicographic order, in place; false after the last. */
    private static boolean next(int[] a) {
        int i = a.length - 2;
        while (i >= 0 && a[i] >= a[i + 1]) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        int j = a.length - 1;
        while (a[j] <= a[i]) {
            j--;
        }
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
        for (int x = i + 1, y = a.length - 1; x < y; x++, y--) {
            t = a[x];
            a[x] = a[y];
            a[y] = t;
        }
        return true;
    }
}
