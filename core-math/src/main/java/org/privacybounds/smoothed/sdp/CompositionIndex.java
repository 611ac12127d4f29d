package org.privacybounds.smoothed.sdp;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The histograms of k records over m categories (compositions of k into m parts), ranked 0..C(k+m-1, m-1)-1 in lexicographic
 * order of their counts: {@code rank(h) = sum_i sum_{v < h_i} count(m - i - 1, k - h_1 - .. - h_{i-1} - v)}, with
 * {@code count(d, r) = C(r + d - 1, d - 1)} the histograms of r records over d categories. Instances are shared per (k, m).
 */
public final class CompositionIndex {
    private static final ConcurrentHashMap<Long, CompositionIndex> CACHE = new ConcurrentHashMap<>();

    private final int k;
    private final int m;
    /** count[d][r]: histograms of r records over d categories, C(r + d - 1, d - 1); count[d + 1][x] is also sum_{u <= x} count[d][u]. */
    private final long[][] count;
    private final int size;

    private CompositionIndex(int k, int m) {
        this.k = k;
        this.m = m;
        // count[d][r]: compositions of r into d parts, d = 0..m, r = 0..k
        count = new long[m + 1][k + 1];
        for (int r = 0; r <= k; r++) {
            count[0][r] = r == 0 ? 1 : 0;
            count[1][r] = 1;
        }
        for (int d = 2; d <= m; d++) {
            long acc = 0;
            for (int r = 0; r <= k; r++) {
                acc += count[d - 1][r];
                count[d][r] = acc; // C(r + d - 1, d - 1) = sum_{v <= r} C(v + d - 2, d - 2)
            }
        }
        long s = count[m][k];
        if (s > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many histograms: " + s);
        }
        size = (int) s;
    }

    /** The index of the histograms of k records over m categories (shared per (k, m)). */
    public static CompositionIndex of(int k, int m) {
        return CACHE.computeIfAbsent(((long) k << 20) | m, key -> new CompositionIndex(k, m));
    }

    /** The number of histograms, C(k + m - 1, m - 1). */
    public int size() {
        return size;
    }

    /** The rank of a histogram of k records. */
    public int rank(int[] h) {
        long r = 0;
        int left = k;
        for (int i = 0; i < m - 1; i++) {
            int d = m - i - 1; // categories after i
            // compositions with a smaller count at i: counts v = 0..h_i - 1, the rest (left - v) over d categories
            // sum_{v < h_i} count[d][left - v] = sum_{u = left - h_i + 1}^{left} count[d][u]
            r += cumulative(d, left) - cumulative(d, left - h[i]);
            left -= h[i];
        }
        return (int) r;
    }

    /** sum_{u = 0}^{x} count[d][u] (0 for x < 0), which is count[d + 1][x]. */
    private long cumulative(int d, int x) {
        return x < 0 ? 0 : count[d + 1][x];
    }

    /** The histogram of a rank, into {@code h}. */
    public void unrank(int rank, int[] h) {
        long r = rank;
        int left = k;
        for (int i = 0; i < m - 1; i++) {
            int d = m - i - 1;
            int v = 0;
            // the largest v with cumulative(d, left) - cumulative(d, left - v) <= r
            while (true) {
                long block = count[d][left - v];
                if (r < block) {
                    break;
                }
                r -= block;
                v++;
            }
            h[i] = v;
            left -= v;
        }
        h[m - 1] = left;
    }
}
