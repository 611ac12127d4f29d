package org.privacybounds.smoothed.sdp.twocategory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.LongStream;

/**
 * What every part of {@link LargeNSmoothed} shares: n, T, the two vertices' category-1 probabilities, the eps values, and
 * the cache of ln delta(h) filled from the {@link DeltaSource} (one request per batch of h), and the relative size of what a
 * window of h may leave out.
 */
final class LargeNProblem {
    /** Relative size of what a window may leave out. */
    static final double WINDOW_TOLERANCE = 1e-14;

    final long n;
    final long sampleSize;
    final double pHi;
    final double pLo;
    final double[] eps;
    private final DeltaSource source;
    private final DeltaCache cache;
    Consumer<String> progress = s -> { };
    /** delta(h) values computed (each for the eps requested); the eps of a run may be solved at once, each adding its own. */
    final AtomicLong deltaEvaluations = new AtomicLong();

    LargeNProblem(long n, long sampleSize, double pHi, double pLo, double[] eps, DeltaSource source) {
        this.n = n;
        this.sampleSize = sampleSize;
        this.pHi = pHi;
        this.pLo = pLo;
        this.eps = eps;
        this.source = source;
        this.cache = new DeltaCache(n, eps.length);
    }

    /** Whether delta(h) at eps index e is known. */
    boolean has(long h, int e) {
        return cache.has(Math.min(h, n - h), e);
    }

    /** Mean of h when {@code onHi} of {@code total} records are on the p_hi vertex and the rest on p_lo. */
    double mean(long onHi, long total) {
        return onHi * pHi + (double) (total - onHi) * pLo;
    }

    /** Variance of h for the same split. */
    double variance(long onHi, long total) {
        return onHi * pHi * (1 - pHi) + (double) (total - onHi) * pLo * (1 - pLo);
    }

    /** ln delta(h) at eps index e, NaN when not computed yet (delta(h) = delta(n - h)). */
    double delta(long h, int e) {
        return cache.get(Math.min(h, n - h), e);
    }

    /** The ranges clipped to [0, n], sorted and merged where they overlap or touch (thousands of overlapping windows become a few). */
    private List<Span> merged(List<Span> ranges) {
        List<Span> sorted = new ArrayList<>();
        for (Span r : ranges) {
            long lo = Math.max(0, r.from());
            long hi = Math.min(n, r.to());
            if (lo <= hi) {
                sorted.add(new Span(lo, hi));
            }
        }
        sorted.sort(Comparator.comparingLong(Span::from));
        List<Span> out = new ArrayList<>();
        for (Span r : sorted) {
            Span last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && r.from() <= last.to() + 1) {
                out.set(out.size() - 1, new Span(last.from(), Math.max(last.to(), r.to())));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Computes (in one request to the source) delta(h) for every h of the ranges not known yet, for eps index {@code only}
     * alone (what a branch and bound or an expectation of that eps needs), or for every eps when {@code only < 0}.
     */
    int ensure(List<Span> ranges, int only) {
        boolean[] which = new boolean[eps.length];
        for (int e = 0; e < eps.length; e++) {
            which[e] = only < 0 || e == only;
        }
        // the keys min(h, n - h) not known yet, in increasing order: each merged range of h gives one or two runs of keys
        // (itself below n/2, mirrored above), and the runs, merged again, are walked in order (no sort per key)
        long half = n / 2;
        List<Span> keyRuns = new ArrayList<>();
        for (Span r : merged(ranges)) {
            keyRuns.add(new Span(r.from(), Math.min(r.to(), half)));
            keyRuns.add(new Span(n - r.to(), Math.min(n - Math.max(r.from(), half + 1), half)));
        }
        LongStream.Builder keys = LongStream.builder();
        for (Span k : merged(keyRuns)) {
            for (long key = k.from(); key <= k.to(); key++) {
                for (int e = 0; e < eps.length; e++) {
                    if (which[e] && !cache.has(key, e)) {
                        keys.add(key);
                        break;
                    }
                }
            }
        }
        long[] hs = keys.build().toArray();
        if (hs.length == 0) {
            return 0;
        }
        progress.accept("computing delta(h) for " + hs.length + " values of h" + (only < 0 ? "" : " at eps = " + eps[only]));
        double[][] v = source.logDelta(hs, which);
        for (int i = 0; i < hs.length; i++) {
            cache.put(hs[i], v[i]);
        }
        deltaEvaluations.addAndGet(hs.length);
        return hs.length;
    }
}
