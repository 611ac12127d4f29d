package org.privacybounds.smoothed.sdp.twocategory;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;

import org.privacybounds.numeric.LogMath;

/**
 * Certified upper bounds on ln delta(h) per block of {@link #BLOCK} values of h, for {@link LargeNSmoothed}: first one
 * {@link ChernoffBound#logUpperOver} per block, then, where the branch and bound needs it, the largest per-h
 * {@link HypergeometricBound} in the block, and the exact values once they are known. Also the bounds built on them:
 * the largest value over a range of h, and sums over blocks weighted by Bernstein tails.
 */
final class BlockBounds {
    /** The block size up to n = 2^31 - 1. */
    static final int BLOCK = 256;
    /** The most blocks: past n = 2^31 - 1 the block size doubles as often as needed to stay within this many. */
    static final int MAX_BLOCKS = 1 << 23;

    /** The block size at n: {@link #BLOCK}, doubled until n / size + 1 is at most {@link #MAX_BLOCKS}. */
    static int blockSize(long n) {
        int b = BLOCK;
        while (n / b + 1 > MAX_BLOCKS) {
            b *= 2;
        }
        return b;
    }

    private final LargeNProblem p;
    private final long n;
    /** Values of h per block. */
    final int block;
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
        this.block = blockSize(n);
        int blocks = (int) (n / block + 1);
        double[] m = new double[blocks];
        this.max = m;
        this.fine = new boolean[blocks];
        IntStream.range(0, blocks).parallel().forEach(b -> {
            long lo = (long) b * block;
            long hi = Math.min(n, lo + block - 1);
            m[b] = Math.min(ub.logUpperOver(lo, hi), ub.logUpperOver(n - hi, n - lo));
        });
    }

    /**
     * Replaces the block bound by the largest per-h bound ({@link HypergeometricBound}) in every block that meets the ranges
     * of h and is not refined yet (in parallel); returns how many blocks changed. The bound at the mirror n - h (delta(h) =
     * delta(n - h)) bounds the same pairs from the other category's side and is never tighter by more than the two
     * bounds' rounding margins (below 1e-7 nats from n = 2,000 to 1.55e8, eps 0 to 7): it is not computed.
     */
    int refine(HypergeometricBound ub, List<Span> hRanges) {
        double[] m = max;
        BitSet marked = new BitSet(fine.length);
        for (Span r : hRanges) {
            for (int b = (int) (Math.max(0, r.from()) / block); b <= Math.min(n, r.to()) / block; b++) {
                if (!fine[b]) {
                    marked.set(b);
                }
            }
        }
        int[] todo = marked.stream().toArray();
        Arrays.stream(todo).parallel().forEach(b -> {
            long lo = (long) b * block;
            long hi = Math.min(n, lo + block - 1);
            double v = Double.NEGATIVE_INFINITY;
            for (double u : ub.logUpperRange(lo, hi)) {
                v = Math.max(v, u);
            }
            m[b] = Math.min(m[b], v);
        });
        for (int b : todo) {
            fine[b] = true;
        }
        summary = null;
        if (todo.length > 0) {
            p.progress.accept("refined the bound per h (hypergeometric tails) in " + todo.length + " blocks of " + block + ", eps = " + ub.epsilon());
        }
        return todo.length;
    }

    /** Block maxima after new delta values: exact delta where it is known, the per-h bound elsewhere. */
    void refresh(HypergeometricBound ub, int e) {
        double[] m = max;
        // blocks are independent (each writes its own slot): in parallel
        IntStream.range(0, m.length).parallel().forEach(blk -> {
            long lo = (long) blk * block;
            long hi = Math.min(n, lo + block - 1);
            if (!p.has(lo, e) && !p.has(hi, e)) {
                return;
            }
            double v = Double.NEGATIVE_INFINITY;
            double[] up = null; // the per-h bound of the block, computed once where a value of h is not known
            for (long h = lo; h <= hi; h++) {
                double c = p.delta(h, e);
                if (Double.isNaN(c) && up == null) {
                    up = ub.logUpperRange(lo, hi);
                }
                v = Math.max(v, !Double.isNaN(c) ? c : up[(int) (h - lo)]);
            }
            m[blk] = v;
            fine[blk] = true;
        });
        summary = null;
    }

    /**
     * The largest block maximum over h in [a, b] (within [0, n]): an upper bound on ln delta there (plus 1e-9 for the
     * relative error of the exact values some blocks hold).
     */
    double rangeMax(long a, long b) {
        double[] blockMax = max;
        double m = Double.NEGATIVE_INFINITY;
        for (long blk = a / block; blk <= b / block && blk < blockMax.length; blk++) {
            m = Math.max(m, blockMax[(int) blk]);
        }
        return m + 1e-9;
    }

    /** An upper bound on max_{s in [0, K]} UB(h + s) from the block maxima. */
    double windowMax(long h, int kSwing) {
        double[] blockMax = max;
        int b0 = (int) (h / block);
        int b1 = (int) Math.min(blockMax.length - 1, (h + kSwing) / block);
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
            long lo = (long) blk * block;
            long hi = Math.min(n - 1, lo + block - 1);
            double m = Double.NEGATIVE_INFINITY;
            boolean exact = true;
            for (long h = lo; h <= hi && exact; h++) {
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
     * Block values with what {@link #blockSum} needs of them besides: the largest value and the largest of each aligned
     * group of {@link #GROUP} and of {@link #SMALL} consecutive blocks. Computed once per state of the values (O(blocks)),
     * not once per sum.
     */
    static final class Summary {
        static final int GROUP = 64;
        /** A second, smaller group size for the tails near the means. */
        static final int SMALL = 8;
        /** The group sizes the tails try, largest first, and their logarithms. */
        static final int[] SIZES = {GROUP, SMALL};
        static final double[] LOG_SIZES = {Math.log(GROUP), Math.log(SMALL)};
        final double[] blocks;
        /** Values of h per block. */
        final int block;
        final double globalMax;
        /** Per size of {@link #SIZES}: the largest value of each aligned group of that many blocks. */
        final double[][] levelMax;

        Summary(double[] blocks, int block) {
            this.blocks = blocks;
            this.block = block;
            double[] g = new double[(blocks.length + GROUP - 1) / GROUP];
            double[] sm = new double[(blocks.length + SMALL - 1) / SMALL];
            Arrays.fill(g, Double.NEGATIVE_INFINITY);
            Arrays.fill(sm, Double.NEGATIVE_INFINITY);
            double m = Double.NEGATIVE_INFINITY;
            for (int b = 0; b < blocks.length; b++) {
                g[b / GROUP] = Math.max(g[b / GROUP], blocks[b]);
                sm[b / SMALL] = Math.max(sm[b / SMALL], blocks[b]);
                m = Math.max(m, blocks[b]);
            }
            this.levelMax = new double[][] {g, sm};
            this.globalMax = m;
        }

        /** The largest value over blocks [from, to]. */
        double max(int from, int to) {
            double m = Double.NEGATIVE_INFINITY;
            int b = from;
            while (b <= to) {
                if (b % GROUP == 0 && b + GROUP - 1 <= to) {
                    m = Math.max(m, levelMax[0][b / GROUP]);
                    b += GROUP;
                } else {
                    m = Math.max(m, blocks[b]);
                    b++;
                }
            }
            return m;
        }
    }

    private Summary summary;

    /** The summary of the current block values (recomputed after {@link #refine} or {@link #refresh} changed them). */
    Summary summary() {
        if (summary == null) {
            summary = new Summary(max, block);
        }
        return summary;
    }

    /** The last h of block blk (within [0, n]). */
    private static double blockEnd(long n, int block, int blk) {
        return Math.min(n, (double) blk * block + block - 1);
    }

    /**
     * Sum over blocks of (Bernstein bound on reaching the block) x (block value): blocks between
     * the means count once, at their largest value. Blocks further than the distance beyond which
     * even the largest block value times the Bernstein factor is below e^-60 of the largest value
     * are not visited; their total is bounded by (number of blocks) x (that factor) x (largest value).
     * In the tails, a group of {@link Summary#GROUP} (or, failing that, {@link Summary#SMALL}) blocks counts as one term,
     * (its size) x (the factor at its end nearest the means) x (its largest value), when that term is below
     * e^-40 / (number of blocks) of the floor; only groups that matter are visited block by block.
     */
    static double blockSum(long n, double muA, double muB, double var, Summary s, double floorLog) {
        double[] blocks = s.blocks;
        final int block = s.block;
        double globalMax = s.globalMax;
        if (globalMax == Double.NEGATIVE_INFINITY) {
            return globalMax;
        }
        // far enough that (number of blocks) x factor x largest value is below e^-40 of the floor
        double drop = Math.max(60, globalMax - floorLog + 40 + Math.log(blocks.length));
        double tcut = drop / 3 + Math.sqrt(drop * drop / 9 + 2 * drop * var);
        int from = (int) Math.max(0, Math.floor((muA - tcut) / block) - 1);
        int to = (int) Math.min(blocks.length - 1, Math.ceil((muB + tcut) / block) + 1);
        double negligible = floorLog - 40 - Math.log(blocks.length);
        // blocks [lowEnd + 1, highStart - 1] lie between the means (neither end < muA nor start > muB)
        int lowEnd = (int) Math.max(from - 1, Math.min(to, Math.ceil((muA - (block - 1)) / block) - 1));
        while (lowEnd >= from && blockEnd(n, block, lowEnd) >= muA) {
            lowEnd--;
        }
        while (lowEnd + 1 <= to && blockEnd(n, block, lowEnd + 1) < muA) {
            lowEnd++;
        }
        // the first block that starts above muB
        int highStart = (int) Math.max(lowEnd + 1, Math.min(to + 1L, (long) Math.floor(muB / block) + 1));
        double mid = lowEnd + 1 <= highStart - 1 ? s.max(lowEnd + 1, highStart - 1) : Double.NEGATIVE_INFINITY;
        double tails = Double.NEGATIVE_INFINITY;
        // the tails, from the means outward: below (dir = -1) and above (dir = 1)
        for (int dir = -1; dir <= 1; dir += 2) {
            int blk = dir < 0 ? lowEnd : highStart;
            while (dir < 0 ? blk >= from : blk <= to) {
                // the distance from the means to the block's end nearest them, and the Bernstein factor there
                double t = dir < 0 ? muA - blockEnd(n, block, blk) : (double) blk * block - muB;
                double factor = -t * t / (2 * (var + t / 3));
                double term = factor + blocks[blk];
                int step = 1;
                // the largest aligned group starting here (outward) that is negligible as a whole
                for (int level = 0; level < Summary.SIZES.length; level++) {
                    int size = Summary.SIZES[level];
                    int first = dir < 0 ? blk - size + 1 : blk;
                    if (first % size == 0 && first >= from && first + size - 1 <= to) {
                        double g = Summary.LOG_SIZES[level] + factor + s.levelMax[level][first / size];
                        if (g < negligible) {
                            term = g;
                            step = size;
                            break;
                        }
                    }
                }
                if (term != Double.NEGATIVE_INFINITY) {
                    tails = LogMath.logAdd(tails, term);
                }
                blk += dir * step;
            }
        }
        if (from > 0 || to < blocks.length - 1) {
            tails = LogMath.logAdd(tails, Math.log(blocks.length) - drop + globalMax);
        }
        return LogMath.logAdd(mid, tails);
    }

}
