package org.privacybounds.smoothed.sdp;

import java.util.List;
import java.util.function.Consumer;

/**
 * What every part of {@link LargeNSmoothed} shares: n, T, the two vertices' category-1 probabilities, the eps values, and
 * the cache of ln delta(h) filled from the {@link LargeNSmoothed.DeltaSource} (one request per batch of h).
 */
final class LargeNProblem {
    final int n;
    final int sampleSize;
    final double pHi;
    final double pLo;
    final double[] eps;
    private final LargeNSmoothed.DeltaSource source;
    private final DeltaCache cache;
    Consumer<String> progress = s -> { };
    long deltaEvaluations;

    LargeNProblem(int n, int sampleSize, double pHi, double pLo, double[] eps, LargeNSmoothed.DeltaSource source) {
        this.n = n;
        this.sampleSize = sampleSize;
        this.pHi = pHi;
        this.pLo = pLo;
        this.eps = eps;
        this.source = source;
        this.cache = new DeltaCache(n, eps.length);
    }

    /** Whether delta(h) at eps index e is known. */
    boolean has(int h, int e) {
        return cache.has(Math.min(h, n - h), e);
    }

    /** Mean of h when {@code onHi} of {@code total} records are on the p_hi vertex and the rest on p_lo. */
    double mean(int onHi, int total) {
        return onHi * pHi + (double) (total - onHi) * pLo;
    }

    /** Variance of h for the same split. */
    double variance(int onHi, int total) {
        return onHi * pHi * (1 - pHi) + (double) (total - onHi) * pLo * (1 - pLo);
    }

    /** ln delta(h) at eps index e, NaN when not computed yet (delta(h) = delta(n - h)). */
    double delta(int h, int e) {
        return cache.get(Math.min(h, n - h), e);
    }

    /**
     * Computes (in one request to the source) delta(h) for every h of the ranges not known yet, for eps index {@code only}
     * alone (what a branch and bound or an expectation of that eps needs), or for every eps when {@code only < 0}.
     */
    /** The ranges clipped to [0, n], sorted and merged where they overlap or touch (thousands of overlapping windows become a few). */
    private List<int[]> merged(List<int[]> ranges) {
        List<int[]> sorted = new java.util.ArrayList<>();
        for (int[] r : ranges) {
            int lo = Math.max(0, r[0]);
            int hi = Math.min(n, r[1]);
            if (lo <= hi) {
                sorted.add(new int[] {lo, hi});
            }
        }
        sorted.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<int[]> out = new java.util.ArrayList<>();
        for (int[] r : sorted) {
            int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && (long) r[0] <= (long) last[1] + 1) {
                last[1] = Math.max(last[1], r[1]);
            } else {
                out.add(r);
            }
        }
        return out;
    }

    int ensure(List<int[]> ranges, int only) {
        boolean[] which = new boolean[eps.length];
        for (int e = 0; e < eps.length; e++) {
            which[e] = only < 0 || e == only;
        }
        // the keys min(h, n - h) not known yet, in increasing order (a bit set: no boxing over ranges of millions of h)
        java.util.BitSet missing = new java.util.BitSet(n / 2 + 1);
        for (int[] r : merged(ranges)) {
            int lo = r[0];
            int hi = r[1];
            // the keys of [lo, hi]: [lo, hi] itself below n/2, mirrored above
            int[][] keyRanges = {{lo, Math.min(hi, n / 2)}, {n - hi, Math.min(n - Math.max(lo, n / 2 + 1), n / 2)}};
            for (int[] k : keyRanges) {
                for (int key = k[0]; key <= k[1]; key++) {
                    if (missing.get(key)) {
                        continue;
                    }
                    for (int e = 0; e < eps.length; e++) {
                        if (which[e] && !cache.has(key, e)) {
                            missing.set(key);
                            break;
                        }
                    }
                }
            }
        }
        if (missing.isEmpty()) {
            return 0;
        }
        int[] hs = missing.stream().toArray();
        progress.accept("computing delta(h) for " + hs.length + " values of h" + (only < 0 ? "" : " at eps = " + eps[only]));
        double[][] v = source.logDelta(hs, which);
        for (int i = 0; i < hs.length; i++) {
            cache.put(hs[i], v[i]);
        }
        deltaEvaluations += hs.length;
        return hs.length;
    }
}
