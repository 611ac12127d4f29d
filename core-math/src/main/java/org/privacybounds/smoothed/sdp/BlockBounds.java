package org.privacybounds.smoothed.sdp;

import java.util.List;

import org.privacybounds.numeric.LogMath;

/**
 * Certified upper bounds on ln delta(h) per block of {@link #BLOCK} values of h, for {@link LargeNSmoothed}: first one
 * {@link ChernoffBound#logUpperOver} per block, then, where the branch and bound needs it, the largest per-h
 * {@link HypergeometricBound} in the block, and the exact values once they are known. Also the bounds built on them:
 * the largest value over a range of h, and sums over blocks weighted by Bernstein tails.
 */
final class BlockBounds {
    static final int BLOCK = 256;

    private final LargeNProblem p;
    private final int n;
    /** ln of the bound per block. */
    final double[] max;
    /** Which blocks hold the per-h bound (or exact delta) rather than the block bound. */
    private final boolean[] fine;

    /**
     * Upper bounds on ln delta(h) per block of {@link #BLOCK} values of h, one {@link ChernoffBound#logUpperOver} per block
     * (and its mirror, delta(h) = delta(n - h)), in parallel: O(n / BLOCK) logarithms instead of O(n). Blocks are refined to
     * the per-h bound only where a branch and bound needs it ({@link #refine}).
     */
    BlockBounds(LargeNProblem p, ChernoffBound ub) {
        this.p = p;
        this.n = p.n;
        int blocks = n / BLOCK + 1;
        double[] m = new double[blocks];
        this.max = m;
        this.fine = new boolean[blocks];
        java.util.stream.IntStream.range(0, blocks).parallel().forEach(b -> {
            int lo = b * BLOCK;
            int hi = Math.min(n, lo + BLOCK - 1);
            m[b] = Math.min(ub.logUpperOver(lo, hi), ub.logUpperOver(n - hi, n - lo));
        });
    }

    /**
     * Replaces the block bound by the largest per-h bound min(UB(h), UB(n - h)) ({@link HypergeometricBound}) in every block that meets the ranges of h and is
     * not refined yet (in parallel); returns how many blocks changed.
     */
    int refine(HypergeometricBound ub, List<int[]> hRanges) {
        double[] m = max;
        java.util.Set<Integer> todo = new java.util.TreeSet<>();
        for (int[] r : hRanges) {
            for (int b = Math.max(0, r[0]) / BLOCK; b <= Math.min(n, r[1]) / BLOCK; b++) {
                if (!fine[b]) {
                    todo.add(b);
                }
                int mirror = (n - b * BLOCK) / BLOCK; // the blocks of n - h share the values
                if (mirror >= 0 && mirror < fine.length && !fine[mirror]) {
                    todo.add(mirror);
                }
            }
        }
        todo.parallelStream().forEach(b -> {
            int lo = b * BLOCK;
            int hi = Math.min(n, lo + BLOCK - 1);
            double v = Double.NEGATIVE_INFINITY;
            for (int h = lo; h <= hi; h++) {
                v = Math.max(v, Math.min(ub.logUpper(h), ub.logUpper(n - h)));
            }
            m[b] = Math.min(m[b], v);
        });
        for (int b : todo) {
            fine[b] = true;
        }
        if (!todo.isEmpty()) {
            p.progress.accept("refined the bound per h (hypergeometric tails) in " + todo.size() + " blocks of " + BLOCK);
        }
        return todo.size();
    }

    /** Block maxima after new delta values: exact delta where it is known, the per-h bound elsewhere. */
    void refresh(HypergeometricBound ub, int e) {
        double[] m = max;
        // blocks are independent (each writes its own slot): in parallel
        java.util.stream.IntStream.range(0, m.length).parallel().forEach(blk -> {
            int lo = blk * BLOCK;
            int hi = Math.min(n, lo + BLOCK - 1);
            if (!p.has(lo, e) && !p.has(hi, e)) {
                return;
            }
            double v = Double.NEGATIVE_INFINITY;
            for (int h = lo; h <= hi; h++) {
                double c = p.delta(h, e);
                v = Math.max(v, !Double.isNaN(c) ? c : ub.logUpper(h));
            }
            m[blk] = v;
            fine[blk] = true;
        });
    }

    /**
     * The largest block maximum over h in [a, b] (within [0, n]): an upper bound on ln delta there (plus 1e-9 for the
     * relative error of the exact values some blocks hold).
     */
    double rangeMax(long a, long b) {
        double[] blockMax = max;
        double m = Double.NEGATIVE_INFINITY;
        for (long blk = a / BLOCK; blk <= b / BLOCK && blk < blockMax.length; blk++) {
            m = Math.max(m, blockMax[(int) blk]);
        }
        return m + 1e-9;
    }

    /** An upper bound on max_{s in [0, K]} UB(h + s) from the block maxima. */
    double windowMax(int h, int kSwing) {
        double[] blockMax = max;
        int b0 = h / BLOCK;
        int b1 = Math.min(blockMax.length - 1, (h + kSwing) / BLOCK);
        double m = Double.NEGATIVE_INFINITY;
        for (int b = b0; b <= b1; b++) {
            m = Math.max(m, blockMax[b]);
        }
        return m;
    }

    /** Per block, ln of the largest |delta(h+1) - delta(h)| (exact where known, else the Chernoff block maxima). */
    double[] slopeBlocks(int e) {
        double[] blockMax = max;
        double[] s = new double[blockMax.length];
        for (int blk = 0; blk < s.length; blk++) {
            int lo = blk * BLOCK;
            int hi = Math.min(n - 1, lo + BLOCK - 1);
            double m = Double.NEGATIVE_INFINITY;
            boolean exact = true;
            for (int h = lo; h <= hi && exact; h++) {
                double la = p.delta(h, e);
                double lb = p.delta(h + 1, e);
                if (Double.isNaN(la) || Double.isNaN(lb)) {
                    exact = false;
                    break;
                }
                double da = Math.exp(la);
                double db = Math.exp(lb);
                // each delta carries a relative error below 1e-10
                double diff = Math.abs(da - db) + 1e-10 * Math.max(da, db);
                double ld = diff > 0 ? Math.log(diff) : Math.max(la, lb) + Math.log(1e-10);
                m = Math.max(m, ld);
            }
            if (!exact) {
                m = Math.max(blockMax[blk], blk + 1 < blockMax.length ? blockMax[blk + 1] : Double.NEGATIVE_INFINITY);
            }
            s[blk] = m;
        }
        return s;
    }

    /**
     * Sum over blocks of (Bernstein bound on reaching the block) x (block value): blocks between
     * the means count once, at their largest value. Blocks further than the distance beyond which
     * even the largest block value times the Bernstein factor is below e^-60 of the largest value
     * are not visited; their total is bounded by (number of blocks) x (that factor) x (largest value).
     */
    static double blockSum(int n, double muA, double muB, double var, double[] blocks, double floorLog) {
        double globalMax = Double.NEGATIVE_INFINITY;
        for (double v : blocks) {
            globalMax = Math.max(globalMax, v);
        }
        if (globalMax == Double.NEGATIVE_INFINITY) {
            return globalMax;
        }
        // far enough that (number of blocks) x factor x largest value is below e^-40 of the floor
        double drop = Math.max(60, globalMax - floorLog + 40 + Math.log(blocks.length));
        double tcut = drop / 3 + Math.sqrt(drop * drop / 9 + 2 * drop * var);
        int from = (int) Math.max(0, Math.floor((muA - tcut) / BLOCK) - 1);
        int to = (int) Math.min(blocks.length - 1, Math.ceil((muB + tcut) / BLOCK) + 1);
        double mid = Double.NEGATIVE_INFINITY;
        double tails = Double.NEGATIVE_INFINITY;
        for (int blk = from; blk <= to; blk++) {
            if (blocks[blk] == Double.NEGATIVE_INFINITY) {
                continue;
            }
            double start = (double) blk * BLOCK;
            double end = Math.min(n, start + BLOCK - 1);
            if (end < muA) {
                double t = muA - end;
                tails = LogMath.logAdd(tails, -t * t / (2 * (var + t / 3)) + blocks[blk]);
            } else if (start > muB) {
                double t = start - muB;
                tails = LogMath.logAdd(tails, -t * t / (2 * (var + t / 3)) + blocks[blk]);
            } else {
                mid = Math.max(mid, blocks[blk]);
            }
        }
        if (from > 0 || to < blocks.length - 1) {
            tails = LogMath.logAdd(tails, Math.log(blocks.length) - drop + globalMax);
        }
        return LogMath.logAdd(mid, tails);
    }

}
