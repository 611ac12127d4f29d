package org.privacybounds.smoothed.sdp.twocategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogMath;

/**
 * The end scans of {@link LargeNSmoothed}: exact f for the K + 1 assignments next to one end, where h is a fixed binomial
 * base plus K swing records. With C(s) = sum_h base(h) delta(h + s), every f of the scan follows from C by a recursion of
 * convex combinations in O(K^2); the base is truncated to a window whose left-out part is bounded by the block bounds.
 */
final class EndScan {
    private EndScan() {
    }

    /** The result of one end scan: best f, its n1 (records on the p_hi vertex) and the truncation bound. */
    record Scan(double bestLog, long bestN1, double logSkipped) {
        double relErr() {
            return logSkipped == Double.NEGATIVE_INFINITY ? 0 : Math.exp(logSkipped - bestLog);
        }

        static Scan better(Scan a, Scan b) {
            if (a == null) {
                return b;
            }
            if (b == null) {
                return a;
            }
            return a.bestLog >= b.bestLog ? a : b;
        }
    }

    /**
     * Exact f for the K + 1 assignments at one end: n - K records on the end's vertex ("main") and
     * K swing records, k of them on the other vertex, k = 0..K.
     */
    static Scan scan(LargeNProblem p, int e, boolean hiEnd, int kSwing, BlockBounds blockMax, HypergeometricBound tight) {
        long n = p.n;
        double pHi = p.pHi;
        double pLo = p.pLo;
        double pm = hiEnd ? pHi : pLo;
        double po = hiEnd ? pLo : pHi;
        long baseN = n - kSwing;
        CountLaw base = CountLaw.binomial(baseN, pm);
        double sd = sd(baseN, pm);
        // each side of the window widens on its own: where delta grows away from the mode, base(h) delta(h) peaks off
        // the mode and only that side needs more values
        double zLo = FIRST_Z;
        double zHi = FIRST_Z;
        // what the previous (narrower) window computed, kept across widenings: its h range, ln base(h) over it, and
        // C(s) over it in units of e^prevScale. A wider window adds only its new values of h to C
        long prevLo = 0;
        long prevHi = -1;
        double[] prevLb = null;
        double[] prevConv = null;
        double prevScale = 0;
        double prevBeta = 0;
        while (true) {
            long hl;
            long hr;
            if (blockMax == null) { // full: no truncation
                hl = base.lower();
                hr = base.upper();
            } else {
                hl = windowLo(base, sd, zLo);
                hr = windowHi(base, sd, zHi);
            }
            p.progress.accept(String.format("scan %s end: K = %d, window h in [%d, %d], eps = %s", hiEnd ? "high" : "low", kSwing, hl, hr + kSwing, p.eps[e]));
            // the first window is the same for every eps (firstWindow): computed once for all of them; a widening
            // serves this eps alone
            p.ensure(List.of(new Span(hl, hr + kSwing)), zLo == FIRST_Z && zHi == FIRST_Z ? -1 : e);
            // C(s) = sum_h base(h) delta(h + s), in scaled doubles
            int w = Math.toIntExact(hr - hl + 1);
            double[] lb = new double[w];
            for (int i = 0; i < w; i++) {
                long h = hl + i;
                lb[i] = h >= prevLo && h <= prevHi ? prevLb[(int) (h - prevLo)] : base.logProbability(h);
            }
            double[] ld = new double[w + kSwing];
            for (int i = 0; i < ld.length; i++) {
                ld[i] = p.delta(hl + i, e);
            }
            // where delta spans too many nats over the window for one scale, the terms are tilted: base(h) e^{beta i} and
            // delta e^{-beta i} (i = h - hl), so that C(s) = e^{scale + beta s} x (the tilted sum); 0 elsewhere (the same digits)
            double beta = tilt(ld, kSwing + 1);
            if (beta != 0 && prevBeta != 0 && residualRange(ld, prevBeta) <= 2 * TILT_RANGE) {
                beta = prevBeta; // the last window's tilt still holds this one: widened from it, not recomputed
            }
            double maxB = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < w; i++) {
                maxB = Math.max(maxB, lb[i] + beta * i);
            }
            double maxD = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < ld.length; i++) {
                maxD = Math.max(maxD, ld[i] - beta * i);
            }
            if (maxD == Double.NEGATIVE_INFINITY) {
                return new Scan(Double.NEGATIVE_INFINITY, hiEnd ? n : 0, Double.NEGATIVE_INFINITY);
            }
            double[] b = new double[w];
            for (int i = 0; i < w; i++) {
                b[i] = Math.exp(lb[i] + beta * i - maxB);
            }
            double[] d = new double[ld.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = Math.exp(ld[i] - beta * i - maxD);
            }
            double scale = maxB + maxD;
            double[] g;
            if (prevConv == null || beta != prevBeta) { // a window widens from the last one under the same tilt (the offsets cancel)
                g = convolve(b, d, kSwing);
            } else {
                g = widen(prevConv, Math.exp(prevScale - scale), b, d, kSwing, (int) (prevLo - hl), (int) (prevHi - hl));
            }
            prevLo = hl;
            prevHi = hr;
            prevLb = lb;
            prevConv = g.clone(); // the recursion below overwrites g
            prevScale = scale;
            prevBeta = beta;
            // f(k) = sum_u Bin(u; k, po) G_{K-k}(u); G_{j+1}(u) = pm G_j(u+1) + (1 - pm) G_j(u). Tilted, G(u) = e^{beta u} g(u)
            // and g_{j+1}(u) = pm e^beta g_j(u+1) + (1 - pm) g_j(u)
            double best = Double.NEGATIVE_INFINITY;
            int bestK = 0;
            double skippedU = Double.NEGATIVE_INFINITY;
            double logGMax = Double.NEGATIVE_INFINITY; // ln of the largest G(u) (in units of e^scale)
            for (int u = 0; u < g.length; u++) {
                logGMax = Math.max(logGMax, Math.log(g[u]) + beta * u);
            }
            double pmTilted = pm * Math.exp(beta);
            double[] gt = beta == 0 ? null : new double[g.length];
            for (int j = 0; j <= kSwing; j++) {
                int k = kSwing - j;
                CountLaw other = CountLaw.binomial(k, po);
                double sdk = Math.sqrt(k * po * (1 - po)) + 1;
                int uLo = (int) Math.max(0, Math.floor(other.mode() - 40 * sdk));
                int uHi = (int) Math.min(k, Math.ceil(other.mode() + 40 * sdk));
                if (gt != null) {
                    for (int u = uLo; u <= uHi; u++) {
                        gt[u] = g[u] * Math.exp(beta * u);
                    }
                }
                double acc = binomialDot(other, k, po, uLo, uHi, gt == null ? g : gt);
                if (uLo > 0 || uHi < k) { // Bernstein: Pr[|U - mean| >= 39 sd] and G <= gMax
                    double t = 39 * sdk;
                    double var = k * po * (1 - po);
                    skippedU = Math.max(skippedU, Math.log(2) - t * t / (2 * (var + t / 3)) + logGMax + scale);
                }
                double lf = acc > 0 ? Math.log(acc) + scale : Double.NEGATIVE_INFINITY;
                if (lf > best) {
                    best = lf;
                    bestK = k;
                }
                if (j < kSwing) {
                    int len = kSwing - j; // G_{j+1} on u in [0, K - j - 1]
                    for (int u = 0; u < len; u++) {
                        g[u] = pmTilted * g[u + 1] + (1 - pm) * g[u];
                    }
                }
            }
            long bestN1 = hiEnd ? n - bestK : bestK;
            if (blockMax == null) {
                return new Scan(best, bestN1, skippedU);
            }
            // the window's tails, bounded with the block maxima. Where a side's bound is too large, first tighten the block
            // maxima there (the per-h hypergeometric bound: a few log-binomials per h, against a sum per h for exact delta);
            // widen that side only when they are tight already
            double logTol = Math.log(LargeNProblem.WINDOW_TOLERANCE);
            while (true) {
                Tail lo = windowTail(p, base, baseN, pm, hl, hr, kSwing, blockMax, best, -1);
                Tail hi = windowTail(p, base, baseN, pm, hl, hr, kSwing, blockMax, best, 1);
                double skipped = LogMath.logAdd(skippedU, LogMath.logAdd(lo.log(), hi.log()));
                if (skipped - best <= logTol || (hl == base.lower() && hr == base.upper())) {
                    return new Scan(best, bestN1, skipped);
                }
                // the sides that hold more than a third of the tolerance (at least one does when the total is above it)
                boolean wideLo = lo.log() - best > logTol - Math.log(3) && hl > base.lower();
                boolean wideHi = hi.log() - best > logTol - Math.log(3) && hr < base.upper();
                if (!wideLo && !wideHi) {
                    wideLo = hl > base.lower();
                    wideHi = hr < base.upper();
                }
                if (tight != null) {
                    List<Span> ranges = new ArrayList<>();
                    if (wideLo) {
                        ranges.add(new Span(lo.farthest(), hl - 1 + kSwing));
                    }
                    if (wideHi) {
                        ranges.add(new Span(hr + 1, hi.farthest() + kSwing));
                    }
                    if (blockMax.refine(tight, ranges) > 0) {
                        continue;
                    }
                }
                zLo *= wideLo ? 1.5 : 1;
                zHi *= wideHi ? 1.5 : 1;
                break;
            }
        }
    }

    /** The first window of a truncated scan: the base's mode +- this many standard deviations (then each side widens). */
    static final double FIRST_Z = 10;

    private static double sd(long baseN, double pm) {
        return Math.sqrt(baseN * pm * (1 - pm)) + 1;
    }

    private static long windowLo(CountLaw base, double sd, double z) {
        return (long) Math.max(base.lower(), Math.floor(base.mode() - z * sd));
    }

    private static long windowHi(CountLaw base, double sd, double z) {
        return (long) Math.min(base.upper(), Math.ceil(base.mode() + z * sd));
    }

    /**
     * The values of h whose delta the first window of a truncated scan at this end reads, [hl, hr + K]: the same for
     * every eps (what is computed for all of them at once before the eps are solved in parallel).
     */
    static Span firstWindow(LargeNProblem p, boolean hiEnd, int kSwing) {
        double pm = hiEnd ? p.pHi : p.pLo;
        long baseN = p.n - kSwing;
        CountLaw base = CountLaw.binomial(baseN, pm);
        double sd = sd(baseN, pm);
        return new Span(windowLo(base, sd, FIRST_Z), windowHi(base, sd, FIRST_Z) + kSwing);
    }

    /** Above this many nats between the smallest and the largest ln delta of a window, its terms are tilted ({@link #tilt}). */
    static final double TILT_RANGE = 500;

    /**
     * The slope beta of the tilt of a window's ln delta (the line through its first and last finite values), or 0 where its
     * values span at most {@link #TILT_RANGE} nats (one scale holds them: e^-745 is the smallest double) or where the tilt
     * over {@code span} steps would itself pass that many nats. One scale for values thousands of nats apart (delta at
     * large n and eps grows by that much across a window) would flush the terms that matter to zero.
     */
    static double tilt(double[] ld, int span) {
        int first = -1;
        int last = -1;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < ld.length; i++) {
            if (Double.isFinite(ld[i])) {
                first = first < 0 ? i : first;
                last = i;
                lo = Math.min(lo, ld[i]);
                hi = Math.max(hi, ld[i]);
            }
        }
        if (first < 0 || last == first || hi - lo <= TILT_RANGE) {
            return 0;
        }
        double beta = (ld[last] - ld[first]) / (last - first);
        return Math.abs(beta) * span < TILT_RANGE ? beta : 0;
    }

    /** The largest minus the smallest finite ld[i] - beta i. */
    static double residualRange(double[] ld, double beta) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < ld.length; i++) {
            if (Double.isFinite(ld[i])) {
                lo = Math.min(lo, ld[i] - beta * i);
                hi = Math.max(hi, ld[i] - beta * i);
            }
        }
        return hi - lo;
    }

    /** C(s) = sum_i b[i] d[i + s] for s in [0, K] ({@link SlidingDot}, on the fork-join pool). */
    static double[] convolve(double[] b, double[] d, int kSwing) {
        return SlidingDot.of(b, b.length, d, 0, kSwing + 1, true);
    }

    /**
     * C(s) of a widened window from that of the window it contains: {@code prev} (C over indices [from, to] of b, in
     * units that {@code rescale} converts to those of b and d) plus the sums over the new indices below {@code from} and
     * above {@code to}. The same terms as {@link #convolve} over the whole window, added in another order: equal to a few
     * ulps. A window widened three times costs its final width once instead of the sum of its four widths.
     */
    static double[] widen(double[] prev, double rescale, double[] b, double[] d, int kSwing, int from, int to) {
        double[] g = new double[kSwing + 1];
        for (int s = 0; s <= kSwing; s++) {
            g[s] = prev[s] * rescale;
        }
        if (from > 0) {
            double[] left = SlidingDot.of(b, from, d, 0, kSwing + 1, true);
            for (int s = 0; s <= kSwing; s++) {
                g[s] += left[s];
            }
        }
        if (to < b.length - 1) {
            double[] bRight = Arrays.copyOfRange(b, to + 1, b.length);
            double[] right = SlidingDot.of(bRight, bRight.length, d, to + 1, kSwing + 1, true);
            for (int s = 0; s <= kSwing; s++) {
                g[s] += right[s];
            }
        }
        return g;
    }

    /** Values of h next to the window bounded one at a time; further out, blocks of {@link BlockBounds#block}. */
    static final int PER_H = 4096;

    /** ln of the bound on one side's left-out part, and the farthest h whose share is within e^-20 of the tolerance. */
    record Tail(double log, long farthest) {
    }

    /**
     * Bound on sum over h below hl ({@code dir = -1}) or above hr ({@code dir = 1}) of base(h) max_{s in [0, K]} UB(h + s):
     * terms are summed outward while they matter, then the rest is bounded by Chernoff times T/n. Past the first
     * {@link #PER_H} values, a block of h counts as (its size) x base(h) at its end nearest the window (base decreases away
     * from the window, which holds the mode) x the block maxima over its h + [0, K].
     */
    private static Tail windowTail(LargeNProblem p, CountLaw base, long baseN, double pm, long hl, long hr, int kSwing, BlockBounds blockMax, double best,
            int dir) {
        double logDp = Math.log((double) p.sampleSize / p.n);
        double stop = best + Math.log(LargeNProblem.WINDOW_TOLERANCE) - 40;
        double significant = best + Math.log(LargeNProblem.WINDOW_TOLERANCE) - 20;
        double acc = Double.NEGATIVE_INFINITY;
        long start = dir < 0 ? hl - 1 : hr + 1;
        long farthest = start;
        long h = start;
        while (h >= base.lower() && h <= base.upper()) {
            int width = Math.abs(h - start) < PER_H ? 1 : blockMax.block;
            long far = dir < 0 ? Math.max(base.lower(), h - width + 1) : Math.min(base.upper(), h + width - 1);
            int span = (int) Math.abs(far - h);
            double term = Math.log(span + 1.0) + base.logProbability(h) + blockMax.windowMax(Math.min(h, far), span + kSwing);
            acc = LogMath.logAdd(acc, term);
            if (term > significant) {
                farthest = far;
            }
            // Chernoff: Pr[X <= h] (or >= h) for X ~ Bin(baseN, pm), times T/n, bounds everything from h outward
            double a = (double) h / baseN;
            double tail = ((dir < 0 && a < pm) || (dir > 0 && a > pm)) ? -baseN * ChernoffTail.kl(a, pm) : 0;
            if (tail + logDp < stop) {
                acc = LogMath.logAdd(acc, tail + logDp);
                break;
            }
            h = far + dir;
        }
        return new Tail(acc, farthest);
    }

    /**
     * sum over u in [lo, hi] of Bin(u; k, p) g[u], with the pmf from its mode by the ratio
     * recurrence Bin(u+1)/Bin(u) = ((k-u)/(u+1)) (p/(1-p)): one log-pmf call instead of one per
     * term (about 1e-13 relative over the ranges used here).
     */
    private static double binomialDot(CountLaw law, int k, double p, int lo, int hi, double[] g) {
        if (p == 0 || p == 1 || k == 0) {
            double acc = 0;
            for (int u = lo; u <= hi; u++) {
                acc += Math.exp(law.logProbability(u)) * g[u];
            }
            return acc;
        }
        int mode = (int) Math.max(lo, Math.min(hi, law.mode()));
        double odds = p / (1 - p);
        double pm = Math.exp(law.logProbability(mode));
        double acc = pm * g[mode];
        double v = pm;
        for (int u = mode; u < hi && v > 0; u++) {
            v *= (double) (k - u) / (u + 1) * odds;
            acc += v * g[u + 1];
        }
        v = pm;
        for (int u = mode; u > lo && v > 0; u--) {
            v *= (double) u / (k - u + 1) / odds;
            acc += v * g[u - 1];
        }
        return acc;
    }

}
