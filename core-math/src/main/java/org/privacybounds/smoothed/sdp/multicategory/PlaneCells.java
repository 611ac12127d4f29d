package org.privacybounds.smoothed.sdp.multicategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogConcaveSum;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.sdp.pair.PairDivergence;

/**
 * {@code E[pair(X_r, X_c)]} bounded by sums over cells of planes of two category counts, where (X_r, X_c, rest) is
 * Multinomial(n; p_r, p_c, 1 - p_r - p_c) and {@code pair} is a pair's divergence ({@link PairDivergence}), non-increasing in
 * both counts. The lower side takes each cell's probability from below times the pair at the cell's upper corner (the DP
 * delta where a count is 0: delta(h) is the DP delta there); the upper
 * side covers the whole plane, each cell's probability from above times the pair at its lower corner (T/n where a count is
 * 0). Cells are evaluated (the pair at their corners) and then halved, along the count the pair depends on more, where
 * what the cell's bound could still change is largest (probability times the spread of the pair over the cell, and on the
 * upper side the spread of the condition below), over every plane at once, within a budget of pair evaluations. Until a cell
 * of the upper side is evaluated, its value is the pair at a point of the plane's ladder below it.
 *
 * <p>A plane of the upper side may carry the shares of the other categories: its sum then counts only the outcomes where
 * every other count comes after both of its own in the order of (count, index), so that the planes part the outcomes: the
 * pair is then the two smallest counts, and a tie is counted in one plane only (counted in both, the ties of two counts with
 * close shares made 4e-4 of the bound at n = 1e4). Given {@code (X_r, X_c) = (x, y)}, another count is
 * Binomial(n - x - y, q_k / (1 - p_r - p_c)); over a cell its probability of reaching {@code max(x, y)} (plus one where the
 * tie goes to the plane's count) is largest at the cell's lower corner, and the chance that all of them do is at most the
 * product of these (multinomial counts are negatively associated: Joag-Dev and Proschan, "Negative Association of Random
 * Variables, with Applications", 1983); with two other counts, near a tie at most their joint chance, given their sum one
 * binomial range ({@link #logBothReach}).
 *
 * <p>Cell probabilities: conditioning on X_r (or on X_c where the cell is narrower in c, roles swapped), X_c given X_r = x is Binomial(n - x, p_c / (1 - p_r)),
 * whose CDF grows with x; a cell is cut into {@value #SUB_ROWS} sub-rows {@code [s0, s1]}, over each of which
 * {@code P(X_c in [c0, c1] | x)} lies between {@code F(c1 | s0) - F(c0 - 1 | s1)} and {@code F(c1 | s1) - F(c0 - 1 | s0)}.
 * CDFs are Commons Statistics' binomial (the regularized incomplete beta), taken on the side where they are small and moved
 * outward by 1e-12 relative each, far more than their rounding (validated against exact sums of the pmf in the tests). Where
 * the larger of the two values would fall below 1e-250, both are certified log-space sums of the pmf ({@link LogConcaveSum})
 * instead, from above on the upper side and from below on the lower, so no cell probability underflows.
 */
final class PlaneCells {
    static final int SUB_ROWS = 32;
    private static final double CDF_MARGIN = 1e-12;
    /** Below this an upper CDF value is summed in log space instead. */
    private static final double TINY = 1e-250;
    /**
     * The log-space sums of the far tails stop where the rest is provably below this share of the sum (an upper sum adds that
     * bound, a lower one leaves it out): a millionth of a cell's probability, for about 2.5 times fewer terms than 1e-15 at 40
     * standard deviations out.
     */
    private static final double TAIL_TOLERANCE = 1e-6;
    /** Terms summed in log space by this thread's cell probabilities, counted as work. */
    private static final ThreadLocal<long[]> TAIL_TERMS = ThreadLocal.withInitial(() -> new long[1]);

    /**
     * One plane: the shares of its two categories (r the first, c the second), and for the upper side the shares of the other
     * categories (empty: no condition on them). {@code shift = {s_r, s_c}}: the pair is taken at {@code (X_r + s_r, X_c + s_c)}
     * (counts known to lie at least that far above the law's, see {@link MonotoneBounds}); the ties then carry the shifts'
     * differences, so they may be negative or above 1.
     */
    record Plane(double pr, double pc, double[] others, int[][] ties, long[] shift) {
        /** A plane whose other counts need only reach the larger of its two, ties included (every tie offset 0). */
        Plane(double pr, double pc, double[] others) {
            this(pr, pc, others, new int[others.length][2]);
        }

        /** A plane of the law's own counts (no shift). */
        Plane(double pr, double pc, double[] others, int[][] ties) {
            this(pr, pc, others, ties, new long[2]);
        }
    }

    /**
     * A cell of a plane: its probability bound, the pair where it is taken (the bound's value) and at the opposite corner, and
     * {@code logPLeast}: on the upper side the probability with the condition on the other counts taken at the cell's upper
     * corner instead of its lower one (from below), on the lower side the bound itself. A cell not yet evaluated has no pair
     * values of its own: on the upper side its value is the smallest at an evaluated point of the plane's ladder below its lower
     * corner (monotonicity), T/n without one; on the lower side nothing. Its opposite value is then what evaluating it could
     * change (the same on the upper side, T/n on the lower).
     */
    private record Cell(int plane, long r0, long r1, long c0, long c1, double logP, double logPLeast, double logValue, double logOther,
            boolean evaluated) {
        /**
         * What splitting the cell could change: the distance between its bound (probability times value) and the same at the
         * opposite corner (the least probability times the opposite value), so that a cell of the upper side whose pair is flat
         * but whose condition on the other counts changes across it (a wide cell where two counts are close) is refined too.
         */
        double logGain() {
            if (!evaluated) {
                return logP + logOther;
            }
            double a = logP + logValue;
            double b = Double.isNaN(logPLeast) ? logP + logOther : logPLeast + logOther;
            return logGap(Math.max(a, b), Math.min(a, b));
        }

        boolean splittable() {
            return r1 > r0 || c1 > c0;
        }
    }

    private final boolean upper;
    private final PairDivergence pair;
    private final double eps;
    private final MonotoneBounds.PairSource source;
    private final long n;
    private final double logDp;
    private final List<Plane> planes;
    private final Map<Long, double[]> cache;
    private final List<List<long[]>> ladders = new ArrayList<>();
    /** Per plane, how fast ln pair changes per count along r and along c (from the tilt), to choose which side of a cell to halve. */
    private double[][] slopes;
    /** Per plane, the count to evaluate a flat r and a flat c at (-1 where the count is not flat). */
    private long[][] anchors;

    /**
     * ln pair moving by less than this over the window (13 sigma on the upper side, 16 on the lower) makes its count flat (a ten-thousandth of the value), where it
     * moves by more than {@link #SLOPED} per sigma along the other count (a pair flat in both is flat only near its mean).
     */
    private static final double FLAT = 1e-4;
    private static final double SLOPED = 1e-2;
    int evaluations;
    int cellCount;

    /** ln of what the cells could still gain when {@link #run} stopped (-infinity where nothing). */
    double logGainLeft = Double.NEGATIVE_INFINITY;
    /** ln of a part of the bound summed elsewhere (a plane bounded otherwise), added to the cells' total. */
    double logFixed = Double.NEGATIVE_INFINITY;
    /** Work done, in terms summed: the evaluations' own, and {@link #CDF_TERMS} for each CDF of a cell probability. */
    double work;

    /**
     * One binomial CDF of a cell's probability costs about as much as this many terms of a pair evaluation (a cell of 32
     * sub-rows, 256 CDFs, took 0.3 ms against 20 ns a term on an idle core, measured).
     */
    static final double CDF_TERMS = 60;

    /** Refinement stops where what it could still gain is below this share of the gap to the other side's bound. */
    static final double GAP_SHARE = 0.01;

    /**
     * Either side also stops where doubling its work narrowed the gap to the other side's bound by less than this share: the
     * upper cells' gain counts the distance from each cell's bound down to its least value, which says nothing of how far the
     * law G itself lies from the assignments (on the 2020 states' hull, at n = 1e6 to 1e7, the full budget left the gaps as they
     * were after its first rounds, to two digits).
     */
    static final double STALL_SHARE = 0.05;

    PlaneCells(boolean upper, PairDivergence pair, double eps, MonotoneBounds.PairSource source, List<Plane> planes) {
        this(upper, pair, eps, source, planes, new HashMap<>());
    }

    /**
     * Cells whose pair values are kept in {@code cache} ({lower, upper} value by point), shared by runs of the same pair and eps
     * so that a point is evaluated once; {@link #evaluations} counts the points this run evaluated.
     */
    PlaneCells(boolean upper, PairDivergence pair, double eps, MonotoneBounds.PairSource source, List<Plane> planes, Map<Long, double[]> cache) {
        this.upper = upper;
        this.cache = cache;
        this.pair = pair;
        this.eps = eps;
        this.source = source;
        this.n = pair.n();
        this.logDp = pair.mechanism().logDpDelta(n);
        this.planes = planes;
    }

    /**
     * The bound: each plane starts from a grid of {@code perAxis} cells a side over [center - 8 sigma, center + {@link #above} sigma], the
     * center where the law tilted by the pair's slope peaks ({@code tilt[plane] = {g_r, g_c}}: ln pair grows by g per sigma
     * downwards), with cells 1, 2, 4, ... sigma wide beyond it out to the ends of the plane on the upper side. Cells are first
     * evaluated (their corners), then split, in the order of what they can still change. {@code logScale}: about ln of the
     * bound (the pair at the mean), against which a plane of the upper side too unlikely to matter gets no ladder.
     * {@code logOther}: ln of the other side's bound for the same quantity (on the upper side a lower bound, -infinity if none; on
     * the lower side an upper bound, +infinity if none); refinement stops where all it could still gain is below
     * {@value #GAP_SHARE} of the gap between the two, in value and in ln ({@link #narrows}), or where doubling
     * the work narrowed it by less than {@value #STALL_SHARE} of it; the bound is as certified either way.
     */
    double run(MonotoneBounds.Options options, double[][] tilt, int perAxis, double logScale, double logOther) {
        List<Cell> pending = new ArrayList<>();
        slopes = new double[planes.size()][];
        anchors = new long[planes.size()][];
        List<double[]> centers = new ArrayList<>();
        List<long[][]> grids = new ArrayList<>();
        List<long[]> probes = new ArrayList<>(); // {plane, count, anchor point, mean point}
        for (int p = 0; p < planes.size(); p++) {
            Plane pl = planes.get(p);
            double sr = Math.sqrt(n * pl.pr() * (1 - pl.pr()));
            double sc = Math.sqrt(n * pl.pc() * (1 - pl.pc()));
            // ln pair per count in each direction, each at least a twentieth of the other (and 1 per sigma where both are flat)
            double gr = tilt[p][0] / Math.max(1, sr);
            double gc = tilt[p][1] / Math.max(1, sc);
            if (gr == 0 && gc == 0) {
                gr = 1 / Math.max(1, sr);
                gc = 1 / Math.max(1, sc);
            }
            slopes[p] = new double[] {Math.max(gr, gc / 20), Math.max(gc, gr / 20)};
            double cr = center(n, pl.pr(), tilt[p][0]);
            double cc = center(n, pl.pc(), tilt[p][1]);
            // a count on which ln pair moves by less than FLAT over the whole window (and the other count matters) is
            // evaluated at the window's end (its lower end on the upper side, its upper end on the lower side): monotonicity
            // keeps the bound, and the cells of a column share one evaluation
            anchors[p] = new long[] {tilt[p][0] * (8 + above()) < FLAT && tilt[p][1] > SLOPED ? (long) Math.floor(cr + (upper ? -8 : above()) * sr) : -1,
                tilt[p][1] * (8 + above()) < FLAT && tilt[p][0] > SLOPED ? (long) Math.floor(cc + (upper ? -8 : above()) * sc) : -1};
            long mr = Math.round(n * pl.pr());
            long mc = Math.round(n * pl.pc());
            if (anchors[p][0] >= 0) {
                probes.add(new long[] {p, 0, anchors[p][0], mc, mr, mc});
            }
            if (anchors[p][1] >= 0) {
                probes.add(new long[] {p, 1, mr, anchors[p][1], mr, mc});
            }
            long[] rows = edges(cr, sr, perAxis);
            long[] cols = edges(cc, sc, perAxis);
            centers.add(new double[] {cr, sr, cc, sc});
            grids.add(new long[][] {rows, cols});
            for (int i = 0; i + 1 < rows.length; i++) {
                for (int j = 0; j + 1 < cols.length; j++) {
                    add(pending, p, rows[i], rows[i + 1] - 1, cols[j], cols[j + 1] - 1);
                }
            }
        }
        checkFlat(probes);
        pending = probabilities(pending);
        if (upper) {
            // a ladder of evaluated points under each plane whose cells could matter at T/n against the scale of the bound
            double[] mass = new double[planes.size()];
            Arrays.fill(mass, Double.NEGATIVE_INFINITY);
            for (Cell c : pending) {
                mass[c.plane] = LogMath.logAdd(mass[c.plane], c.logP);
            }
            List<long[]> ladderPoints = new ArrayList<>();
            for (int p = 0; p < planes.size(); p++) {
                double[] z = centers.get(p);
                boolean matters = mass[p] + logDp >= logScale + Math.log(1e-12);
                ladders.add(matters ? ladder(p, z[0], z[1], z[2], z[3], perAxis, grids.get(p)[0], grids.get(p)[1]) : List.of());
                for (long[] pt : ladders.get(p)) {
                    want(ladderPoints, p, pt[0], pt[1]);
                }
            }
            fill(ladderPoints);
        }
        PriorityQueue<Cell> cells = new PriorityQueue<>((x, y) -> Double.compare(y.logGain(), x.logGain()));
        cells.addAll(complete(pending, false));
        // splits of a flat count cost no evaluation: the cells themselves are bounded too
        int maxCells = 8 * options.maxEvaluations() + 50_000;
        // the first round always runs: without it no cell of the lower side has a value (a budget spent on the cells'
        // probabilities alone left the lower bound at 0)
        boolean first = true;
        double[] checkpoint = {-1, 0}; // the work and the bound where the last doubling of the work began
        while (cells.size() < maxCells && (first || (evaluations < options.maxEvaluations() && work < options.termsPerSide()))) {
            // the lower side's first round evaluates its whole grid even where the search for the mass spent its evaluations
            // (half lost at n = 2e5 with --refine-seconds 1: it had evaluated no cell and reported a lower bound of 0)
            boolean starved = first && !upper && evaluations >= options.maxEvaluations();
            first = false;
            double total = total(cells);
            double gain = logGain(cells);
            if (cells.isEmpty() || !(gain >= total + Math.log(options.relativeGain()))) {
                break;
            }
            if (upper ? logOther > Double.NEGATIVE_INFINITY : logOther < Double.POSITIVE_INFINITY) {
                if (upper ? total <= logOther : total >= logOther) {
                    break; // already past the other side's bound (a region of assignments below the lower bound's value)
                }
                // what the cells could still gain against the gap to the other side's bound (none left: stop)
                if (!narrows(upper, total, logOther, gain, GAP_SHARE) || stalled(checkpoint, total, logOther)) {
                    break;
                }
            }
            List<Cell> next = new ArrayList<>();
            List<Cell> keep = new ArrayList<>();
            int room = starved ? cells.size() : Math.max(4, Math.min(256, 4 * (options.maxEvaluations() - evaluations) / 6));
            while (next.size() < room && !cells.isEmpty() && cells.peek().logGain() > Double.NEGATIVE_INFINITY) {
                Cell c = cells.poll();
                if (!c.evaluated) {
                    next.add(c);
                } else if (!c.splittable()) {
                    keep.add(c);
                } else {
                    long rm = c.r0 + (c.r1 - c.r0) / 2;
                    long cm = c.c0 + (c.c1 - c.c0) / 2;
                    // halve the side along which the pair changes more (by the plane's slopes), both where they are comparable
                    double alongR = (c.r1 - c.r0 + 1) * slopes[c.plane][0];
                    double alongC = (c.c1 - c.c0 + 1) * slopes[c.plane][1];
                    // (a flat count is still halved where it is wide: its probabilities, and the condition on the other counts,
                    // tighten at no evaluation, since both halves share the anchor)
                    boolean cutR = c.r1 > c.r0 && (c.c1 == c.c0 || alongR >= alongC / 2);
                    boolean cutC = c.c1 > c.c0 && (c.r1 == c.r0 || alongC >= alongR / 2);
                    long[][] rs = cutR ? new long[][] {{c.r0, rm}, {rm + 1, c.r1}} : new long[][] {{c.r0, c.r1}};
                    long[][] cs = cutC ? new long[][] {{c.c0, cm}, {cm + 1, c.c1}} : new long[][] {{c.c0, c.c1}};
                    for (long[] r : rs) {
                        for (long[] cc : cs) {
                            add(next, c.plane, r[0], r[1], cc[0], cc[1]);
                        }
                    }
                }
            }
            cells.addAll(keep);
            if (next.isEmpty()) {
                break;
            }
            cells.addAll(complete(next, true));
        }
        cellCount = cells.size();
        logGainLeft = logGain(cells);
        // moved outward by 1e-12 for the rounding of the sum itself (every term is already a bound on its side)
        double total = total(cells);
        return upper ? Math.min(logDp, total + MonotoneBounds.SUM_ROUNDING) : total - MonotoneBounds.SUM_ROUNDING;
    }

    /** Where a count's cells start: {@code g} of its standard deviations below its mean under share {@code p}. */
    static double center(long n, double p, double g) {
        return n * p - g * Math.sqrt(n * p * (1 - p));
    }

    /** ln of what the cells could still gain, summed. */
    private static double logGain(Collection<Cell> cells) {
        LogSumExp gain = new LogSumExp();
        for (Cell c : cells) {
            gain.add(c.logGain());
        }
        return gain.log();
    }

    /** ln(e^above - e^below) for an upper value {@code above} and a lower {@code below} (-infinity where above <= below). */
    static double logGap(double above, double below) {
        return below >= above ? Double.NEGATIVE_INFINITY : above + LogMath.log1mexp(below - above);
    }

    /**
     * Whether moving a side's bound {@code logBound} by {@code e^logChange} (down on the upper side, up on the lower) would narrow
     * the gap to the other side's {@code logOther} by at least {@code share} of it, in value or in ln: the two agree where the
     * gap is narrow; where it spans decades, a lower bound that rises by decades leaves the gap in value as it was but not the
     * log10 gap a user reads (with half the records lost at n = 1e6 and eps 1 the lower side had stopped 6.4 decades below the
     * upper bound that way; 5.0 now).
     */
    static boolean narrows(boolean upper, double logBound, double logOther, double logChange, double share) {
        double moved = upper ? logGap(logBound, logChange) : LogMath.logAdd(logBound, logChange);
        return atLeastShare(upper, logBound, logOther, logChange, Math.abs(moved - logBound), share);
    }

    /**
     * Whether a change of a side's bound, {@code e^logChange} in value and {@code lnChange} in ln, is at least {@code share} of the
     * gap between that bound, {@code logBound}, and the other side's, in either measure.
     */
    private static boolean atLeastShare(boolean upper, double logBound, double logOther, double logChange, double lnChange, double share) {
        double above = upper ? logBound : logOther;
        double below = upper ? logOther : logBound;
        return logChange >= logGap(above, below) + Math.log(share) || lnChange >= share * (above - below);
    }

    /**
     * Whether the work done since {@code checkpoint} = {work, ln bound}, at least as much as before it, moved this side's bound
     * {@code total} by less than {@link #STALL_SHARE} of the gap to {@code logOther} now, in value and in ln ({@link #narrows});
     * a new checkpoint once the work has doubled.
     */
    private boolean stalled(double[] checkpoint, double total, double logOther) {
        if (checkpoint[0] < 0 || work >= 2 * checkpoint[0]) {
            boolean stalled = checkpoint[0] >= 0 && !atLeastShare(upper, total, logOther,
                    upper ? logGap(checkpoint[1], total) : logGap(total, checkpoint[1]), Math.abs(total - checkpoint[1]), STALL_SHARE);
            checkpoint[0] = Math.max(work, 1);
            checkpoint[1] = total;
            return stalled;
        }
        return false;
    }

    /**
     * Keeps a count flat only where the pair at its anchor (with the other count at its mean) is within {@link #FLAT} of the
     * pair at the mean: the slope one sigma from the mean does not speak for the window's end.
     */
    private void checkFlat(List<long[]> probes) {
        List<long[]> need = new ArrayList<>();
        for (long[] pr : probes) {
            want(need, (int) pr[0], pr[2], pr[3]);
            want(need, (int) pr[0], pr[4], pr[5]);
        }
        fill(need);
        for (long[] pr : probes) {
            double atAnchor = value((int) pr[0], pr[2], pr[3], true);
            double atMean = value((int) pr[0], pr[4], pr[5], true);
            if (!(Math.abs(atAnchor - atMean) < FLAT)) {
                anchors[(int) pr[0]][(int) pr[1]] = -1;
            }
        }
    }

    /**
     * How many sigma above the center the window of the first grid reaches: 5 on the upper side (whose cells beyond it cover the
     * rest of the plane), 8 on the lower side (whose sum leaves out all beyond: the law's mass past 5 sigma, 3e-7 of each count's,
     * was a measurable part of the lower bound's distance to the exact value).
     */
    private int above() {
        return upper ? 5 : 8;
    }

    /** Adds the cell [r0, r1] x [c0, c1] cut to the plane's counts (r + c <= n), if anything is left. */
    private void add(List<Cell> to, int plane, long r0, long r1, long c0, long c1) {
        long top = Math.min(c1, n - (upper ? r0 : r1));
        if (r0 <= r1 && c0 <= top) {
            to.add(new Cell(plane, r0, r1, c0, top, Double.NaN, Double.NaN, 0, 0, false)); // probability not yet computed
        }
    }

    private double total(Iterable<Cell> cells) {
        LogSumExp s = new LogSumExp();
        s.add(logFixed);
        for (Cell c : cells) {
            s.add(c.logP + c.logValue);
        }
        return s.log();
    }

    /**
     * The edges of k cells over [center - 8 sigma, center + {@link #above} sigma], clamped to [0, n + 1]; on the upper side also edges 1, 2,
     * 4, ... sigma beyond that window and 0 and n + 1, so that the cells cover the plane.
     */
    private long[] edges(double center, double spread, int cells) {
        // a window of at least 8 counts below the center: with a spread below one count (a share of 1e-4 at n = 30) it had
        // been one cell at 0, and the 0.3 % of the law at a count of 1 or more was left out of the lower side
        double sigma = Math.max(1, spread);
        List<Long> e = new ArrayList<>();
        double step = Math.max(1, (8 + above()) * sigma / cells);
        for (double x = center - 8 * sigma; x <= center + above() * sigma + step / 2; x += step) {
            e.add((long) Math.floor(x));
        }
        if (upper) {
            e.add(0L);
            e.add(n + 1);
            for (double w = Math.max(1, sigma); center - 8 * sigma - w > 0 || center + 5 * sigma + w < n; w *= 2) {
                e.add((long) Math.floor(center - 8 * sigma - w));
                e.add((long) Math.floor(center + 5 * sigma + w));
            }
        }
        long[] out = e.stream().map(x -> Math.max(0, Math.min(n + 1, x))).distinct().sorted().mapToLong(Long::longValue).toArray();
        // a window wholly past either end of the plane (every edge clamped to one value) still gets one cell there
        return out.length >= 2 ? out : new long[] {Math.min(out[0], n), Math.min(out[0], n) + 1};
    }

    /**
     * The points of a plane's ladder: down the diagonal of the window's grid from its center, then 1, 2, 4, ... sigma beyond the
     * window in both counts at once (the lower corners of the cells on that diagonal), while both counts are at least 1; and
     * every edge of one count with the other at the window's lower end, which bounds every cell whose other count lies inside
     * the window.
     */
    private List<long[]> ladder(int plane, double cr, double sr, double cc, double sc, int cells, long[] rows, long[] cols) {
        List<long[]> out = new ArrayList<>();
        long rw = (long) Math.floor(cr - 8 * sr);
        long cw = (long) Math.floor(cc - 8 * sc);
        if (anchors[plane][0] < 0) {
            for (long x : rows) {
                out.add(new long[] {x, cw});
            }
        }
        if (anchors[plane][1] < 0) {
            for (long y : cols) {
                out.add(new long[] {rw, y});
            }
        }
        for (int j = cells; j >= 0; j--) {
            out.add(new long[] {(long) Math.floor(cr - 8 * sr + j * Math.max(1, 13 * sr / cells)), (long) Math.floor(cc - 8 * sc + j * Math.max(1, 13 * sc / cells))});
        }
        for (double k = 1; ; k *= 2) {
            long x = (long) Math.floor(cr - 8 * sr - k * Math.max(1, sr));
            long y = (long) Math.floor(cc - 8 * sc - k * Math.max(1, sc));
            if (x < 1 || y < 1) {
                break;
            }
            out.add(new long[] {x, y});
        }
        out.removeIf(pt -> pt[0] < 1 || pt[1] < 1 || pt[0] + pt[1] > n);
        return out;
    }

    /** The smallest upper value of the pair at a ladder point of the plane at or below (x, y); T/n if there is none. */
    private double ladderValue(int plane, long x, long y) {
        double best = logDp;
        if (plane < ladders.size()) {
            for (long[] pt : ladders.get(plane)) {
                if (pt[0] <= x && pt[1] <= y) {
                    best = Math.min(best, value(plane, pt[0], pt[1], true));
                }
            }
        }
        return best;
    }

    /** Evaluates the claimed points (one batch) into the cache: {lower, upper} values of each. */
    private void fill(List<long[]> need) {
        double[][] v = MonotoneBounds.evaluate(need, eps, source);
        evaluations += need.size();
        for (double[] x : v) {
            work += x.length > 2 ? x[2] : 0;
        }
        for (int i = 0; i < v.length; i++) {
            double low = v[i][1] >= 1 ? Double.NEGATIVE_INFINITY : v[i][0] + Math.log1p(-v[i][1]);
            double high = Math.min(logDp, v[i][0] + Math.log1p(v[i][1]));
            cache.put(key(need.get(i)[0], need.get(i)[1]), new double[] {low, high});
        }
    }

    /**
     * The cells with their probabilities, those not yet known computed in parallel (on the fork-join pool the caller runs in;
     * each on its own, so the values do not depend on the split). Work: {@link #CDF_TERMS} a CDF, and twice the terms its
     * log-space tail sums took (a term of those costs about twice a pair evaluation's).
     */
    private List<Cell> probabilities(List<Cell> cells) {
        long start = System.nanoTime();
        double workBefore = work;
        double[][] computed = cells.parallelStream().map(c -> {
            if (!Double.isNaN(c.logP)) {
                return null;
            }
            Plane pl = planes.get(c.plane);
            long[] terms = TAIL_TERMS.get();
            long before = terms[0];
            double[] logP = logCellProbabilities(n, pl.pr(), pl.pc(), c.r0, c.r1, c.c0, c.c1, upper, pl.others(), pl.ties());
            return new double[] {logP[0], logP[1], terms[0] - before, logP[2]};
        }).toArray(double[][]::new);
        List<Cell> out = new ArrayList<>();
        for (int i = 0; i < computed.length; i++) {
            Cell c = cells.get(i);
            double logP = c.logP;
            double logPLeast = c.logPLeast;
            if (computed[i] != null) {
                logP = computed[i][0];
                logPLeast = computed[i][1];
                work += CDF_TERMS * computed[i][3] + 2 * computed[i][2];
            }
            out.add(new Cell(c.plane, c.r0, c.r1, c.c0, c.c1, logP, logPLeast, c.logValue, c.logOther, c.evaluated));
        }
        if (work > workBefore) {
            source.spent(work - workBefore, (System.nanoTime() - start) / 1e9);
        }
        return out;
    }

    /**
     * The points where a cell's pair values are taken: {x of its bound, y of its bound, x of the other corner, y of the other
     * corner}. The bound's point is the lower corner on the upper side and the upper corner on the lower side; a flat count is
     * moved to its anchor where that keeps the bound (anchor below the lower corner, above the upper one).
     */
    private long[] points(Cell c) {
        long[] a = anchors[c.plane];
        long lowX = a[0] >= 0 && a[0] <= c.r0 && upper ? a[0] : c.r0;
        long lowY = a[1] >= 0 && a[1] <= c.c0 && upper ? a[1] : c.c0;
        long highX = !upper && a[0] >= c.r1 ? a[0] : c.r1;
        long highY = Math.min(!upper && a[1] >= c.c1 ? a[1] : c.c1, n - highX);
        if (!upper && highX != c.r1 && highY < c.c1) {
            highX = c.r1; // the anchor leaves no room for the cell's upper count
            highY = Math.min(c.c1, n - highX);
        }
        if (upper) {
            // the other corner shares the flat count's anchor, so the gain is what the other count can change
            long otherX = lowX != c.r0 ? lowX : c.r1;
            long otherY = lowY != c.c0 ? lowY : Math.min(c.c1, n - otherX);
            return new long[] {lowX, lowY, otherX, otherY};
        }
        long otherX = highX != c.r1 ? highX : c.r0;
        long otherY = highY != c.c1 ? highY : c.c0;
        return new long[] {highX, highY, otherX, otherY};
    }

    /** The cells' probabilities and, when {@code evaluate}, the pair values at their points (one batch). */
    private List<Cell> complete(List<Cell> cells, boolean evaluate) {
        cells = probabilities(cells);
        if (evaluate) {
            List<long[]> need = new ArrayList<>();
            for (Cell c : cells) {
                long[] pt = points(c);
                want(need, c.plane, pt[0], pt[1]);
                want(need, c.plane, pt[2], pt[3]);
            }
            fill(need);
        }
        List<Cell> out = new ArrayList<>();
        for (Cell c : cells) {
            if (!evaluate) {
                double bound = upper ? ladderValue(c.plane, c.r0, c.c0) : Double.NEGATIVE_INFINITY;
                out.add(new Cell(c.plane, c.r0, c.r1, c.c0, c.c1, c.logP, c.logPLeast, bound, upper ? bound : logDp, false));
                continue;
            }
            long[] pt = points(c);
            out.add(new Cell(c.plane, c.r0, c.r1, c.c0, c.c1, c.logP, c.logPLeast, value(c.plane, pt[0], pt[1], upper),
                    value(c.plane, pt[2], pt[3], !upper), true));
        }
        return out;
    }

    /**
     * The pair at a point of a plane's law, moved by the plane's shift: its upper value (T/n where a count is 0) or its lower value
     * (-infinity where the point lies outside the plane's counts).
     */
    private double value(int plane, long x, long y, boolean high) {
        long[] shift = planes.get(plane).shift();
        x += shift[0];
        y += shift[1];
        if (!upper && x >= 0 && y >= 0 && x + y <= n && (x == 0 || y == 0)) {
            // a count of 0: delta(h) is the DP delta there (a record moved into that category is released with the DP
            // delta's chance, h never releases one), so the lower side counts it in full (with a share of 1e-6 at n = 1e4
            // the cells had started at a count of 1, left out the 0.99 of the law at 0 and reported a lower bound of 0)
            return logDp;
        }
        if (x < 1 || y < 1 || x + y > n) {
            return high ? logDp : Double.NEGATIVE_INFINITY;
        }
        return cache.get(key(x, y))[high ? 1 : 0];
    }

    private void want(List<long[]> need, int plane, long x, long y) {
        long[] shift = planes.get(plane).shift();
        x += shift[0];
        y += shift[1];
        if (x >= 1 && y >= 1 && x + y <= n && !cache.containsKey(key(x, y))) {
            cache.put(key(x, y), null); // claimed; filled after the batch
            need.add(new long[] {x, y});
        }
    }

    /** The pair is symmetric in its two counts: one key for (x, y) and (y, x). */
    private long key(long x, long y) {
        return Math.min(x, y) * (n + 1) + Math.max(x, y);
    }

    /** ln of a lower bound on the cell's probability (the lower side's). */
    static double logCellProbability(long n, double pr, double pc, long r0, long r1, long c0, long c1) {
        return logCellProbability(n, pr, pc, r0, r1, c0, c1, false, new double[0]);
    }

    /**
     * ln of a lower ({@code upper} false) or upper bound on {@code P(X_r in [r0, r1], X_c in [c0, c1])}, on the upper side times the
     * chance that every other count reaches the larger of the two ({@code others}: their shares), in sub-rows (see the class
     * comment).
     */
    static double logCellProbability(long n, double pr, double pc, long r0, long r1, long c0, long c1, boolean upper, double[] others) {
        return logCellProbabilities(n, pr, pc, r0, r1, c0, c1, upper, others, new int[others.length][2])[0];
    }

    /**
     * {@link #logCellProbability} and the cell's least probability, with the binomial CDFs it took: {@code {ln bound, ln least,
     * CDFs}}. On the upper side the least takes the condition on the other counts at each sub-row's upper corner, from below (at
     * least one minus the chances that each other count falls short), with the same rows and columns; on the lower side it is
     * the bound. The refinement uses the distance between the two. {@code ties[o] = {t_r, t_c}}: other count o must exceed X_r by
     * at least t_r and X_c by at least t_c (1 where a tie with that count goes to the plane's count, 0 else).
     */
    static double[] logCellProbabilities(long n, double pr, double pc, long r0, long r1, long c0, long c1, boolean upper, double[] others,
            int[][] ties) {
        // condition on the count whose sub-rows move the other's conditional law least against the other's width (a cell wide
        // in r and narrow in c is cut into rows of c): the law is the same with the two counts' roles swapped
        long wr = r1 - r0 + 1;
        long wc = c1 - c0 + 1;
        double driftByR = (pr >= 1 ? 0 : pc / (1 - pr)) * wr / Math.min(SUB_ROWS, wr) / wc;
        double driftByC = (pc >= 1 ? 0 : pr / (1 - pc)) * wc / Math.min(SUB_ROWS, wc) / wr;
        double[] byR = conditioned(n, pr, pc, r0, r1, c0, c1, upper, others, ties);
        if (driftByC < driftByR) {
            // both are bounds: the tighter (rows of c take the condition on the other counts at the cell's lowest r)
            int[][] swapped = new int[ties.length][];
            for (int o = 0; o < ties.length; o++) {
                swapped[o] = new int[] {ties[o][1], ties[o][0]};
            }
            double[] byC = conditioned(n, pc, pr, c0, c1, r0, r1, upper, others, swapped);
            double[] tighter = (upper ? byC[0] < byR[0] : byC[0] > byR[0]) ? byC : byR;
            return new double[] {tighter[0], tighter[1], byR[2] + byC[2]};
        }
        return byR;
    }

    /** {@link #logCellProbabilities} in sub-rows of the first count. */
    private static double[] conditioned(long n, double pr, double pc, long r0, long r1, long c0, long c1, boolean upper, double[] others,
            int[][] ties) {
        LogSumExp above = new LogSumExp();
        LogSumExp below = new LogSumExp();
        long width = r1 - r0 + 1;
        int subs = (int) Math.min(SUB_ROWS, width);
        double pi = pr >= 1 ? 0 : Math.min(1, pc / (1 - pr));
        double restShare = 1 - pr - pc;
        int cdfs = 0;
        for (int k = 0; k < subs; k++) {
            long s0 = r0 + width * k / subs;
            long s1 = r0 + width * (k + 1) / subs - 1;
            if (s0 > n) {
                continue;
            }
            double up;
            double down;
            if (upper) {
                up = logBetweenUpper(n, n, pr, s0, s1);
                if (up > Double.NEGATIVE_INFINITY) {
                    up += logBetweenUpper(Math.max(0, n - s1), n - s0, pi, c0, Math.min(c1, n - s0));
                }
                down = up;
            } else {
                double rowP = logBetweenLower(n, n, pr, s0, s1);
                down = rowP == Double.NEGATIVE_INFINITY ? rowP : rowP + logBetweenLower(n - s0, Math.max(0, n - s1), pi, c0, c1);
                up = down;
            }
            cdfs += 4;
            if (upper) {
                double free = up;
                double miss = 0;
                for (int o = 0; o < others.length; o++) {
                    double share = restShare <= 0 ? 1 : Math.min(1, others[o] / restShare);
                    long trials = n - s0 - c0;
                    long reach = Math.max(s0 + ties[o][0], c0 + ties[o][1]);
                    double factor = trials < 0 ? Double.NEGATIVE_INFINITY : logBetweenUpper(trials, trials, share, reach, trials);
                    up += Math.min(0, factor);
                    long fewest = n - s1 - Math.min(c1, n - s1);
                    long most = Math.max(s1 + ties[o][0], Math.min(c1, n - s1) + ties[o][1]);
                    miss += fewest < 0 || most > fewest ? 1 : -Math.expm1(logBetweenLower(fewest, fewest, share, most, fewest));
                    cdfs += 4;
                }
                down += miss >= 1 ? Double.NEGATIVE_INFINITY : Math.log1p(-miss);
                // near a tie of the two with the pair's larger count (the product between e^-40 and 0.999), their joint chance
                if (others.length == 2 && up - free < -1e-3 && up - free > -40) {
                    int[] more = {0};
                    up = Math.min(up, free + logBothReach(n, s0, s1, c0, c1, others, restShare, ties, more));
                    cdfs += more[0];
                }
            }
            above.add(up);
            below.add(down);
        }
        return upper ? new double[] {above.log(), Math.min(above.log(), below.log()), cdfs} : new double[] {below.log(), below.log(), cdfs};
    }

    /**
     * ln of an upper bound on the chance that both of two other counts reach their thresholds ({@code max(x + t_r, y + t_c)}, see
     * {@link #logCellProbabilities}) for some (x, y) of the sub-row [s0, s1] x [c0, c1]. Given (x, y), their sum S is
     * Binomial(N, their share of the rest), N = n - x - y (all of N where they fill the rest, a vertex's own law, but where
     * one of the N records falls in the rounding of its shares' sum), and given S the first is Binomial(S, its share of the
     * two) and the second S minus it, so both reach where the first lies in [t_1, S - t_2]. Over bands of S (each about half
     * a standard deviation of the first, within 8 of S's own around its mean, and the two tails beyond), each band's chance
     * over every N of the sub-row times that range's chance over every S of the band, at the lower corner's thresholds
     * (where they fill the rest, the one range over every N). The product of the two chances
     * (negative association) lies far above this where the pair's larger count is near the others' (with thresholds at half
     * of S, about 1/4 against the chance of one binomial value), so with three tied shares the cells had stayed above the
     * value at any refinement (one vertex (0.3, 0.3, 0.3, 0.1) at n = 1e5, eps 1: log10 gap 0.064, now 0.0011). {@code cdfs}
     * gets the CDFs it took.
     */
    private static double logBothReach(long n, long s0, long s1, long c0, long c1, double[] others, double restShare, int[][] ties, int[] cdfs) {
        long nMax = n - s0 - c0;
        if (nMax < 0) {
            return Double.NEGATIVE_INFINITY;
        }
        long nMin = Math.max(0, n - s1 - c1);
        long reach1 = Math.max(0, Math.max(s0 + ties[0][0], c0 + ties[0][1]));
        long reach2 = Math.max(0, Math.max(s0 + ties[1][0], c0 + ties[1][1]));
        double both = others[0] + others[1];
        if (!(both > 0)) {
            return 0;
        }
        double share = Math.min(1, others[0] / both);
        // shares that sum to 1 leave a rest u of rounding: S is N but where one of the N records is in u (chance N u / rest)
        double pS = restShare <= 0 || both >= restShare * (1 - 1e-12) ? 1 : both / restShare;
        if (pS >= 1) {
            cdfs[0] += 2;
            double u = restShare - both;
            double joint = logBetweenUpper(nMin, nMax, share, reach1, nMax - reach2);
            return u > 0 ? Math.min(0, LogMath.logAdd(joint, Math.log(nMax * u / restShare))) : joint;
        }
        long least = reach1 + reach2;
        double mean = nMax * pS;
        double sd = Math.sqrt(nMax * pS * (1 - pS));
        long bottom = Math.max(least, (long) Math.floor(mean - 8 * sd));
        long top = Math.min(nMax, (long) Math.ceil(mean + 8 * sd));
        if (bottom > top) {
            cdfs[0] += 2;
            return logBetweenUpper(nMin, nMax, pS, least, nMax);
        }
        long width = Math.max(1, Math.max((long) (0.5 * Math.sqrt(mean * share * (1 - share))), (top - bottom + 1) / 64));
        LogSumExp sum = new LogSumExp();
        sum.add(logBetweenUpper(nMin, nMax, pS, least, bottom - 1));
        sum.add(logBetweenUpper(nMin, nMax, pS, top + 1, nMax));
        for (long lo = bottom; lo <= top; lo += width) {
            long hi = Math.min(top, lo + width - 1);
            double band = logBetweenUpper(nMin, nMax, pS, lo, hi);
            if (band > Double.NEGATIVE_INFINITY) {
                sum.add(band + logBetweenUpper(lo, hi, share, reach1, hi - reach2));
            }
            cdfs[0] += 4;
        }
        cdfs[0] += 4;
        return Math.min(0, sum.log());
    }

    /**
     * ln of a lower bound on {@code P(Bin(N, p) in [lo, hi])} for every N in [trialsForLo, trialsForHi]: with the trials for hi
     * first (the CDF falls as the trials grow) {@code F_hi(hi) - F_lo(lo - 1)}, in survival form above the mean, each value moved
     * by 1e-12 relative to lower it; or where its larger value is below 1e-250 (the whole range in a far tail, where the CDFs
     * lose their relative accuracy and then underflow) the same difference with both values summed in log space (the first
     * from below, the second from above), so that no probability of the lower side underflows to 0 either.
     */
    static double logBetweenLower(long trialsForHi, long trialsForLo, double p, long lo, long hi) {
        lo = Math.max(lo, 0);
        hi = Math.min(hi, trialsForHi);
        if (lo > hi) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p <= 0) {
            return lo == 0 ? 0 : Double.NEGATIVE_INFINITY;
        }
        if (p >= 1) {
            return lo <= trialsForLo && hi >= trialsForHi ? 0 : Double.NEGATIVE_INFINITY;
        }
        BinomialDistribution forHi = BinomialDistribution.of((int) trialsForHi, p);
        BinomialDistribution forLo = BinomialDistribution.of((int) trialsForLo, p);
        boolean below = hi <= forHi.getMean();
        double a;
        double b;
        if (below) {
            a = forHi.cumulativeProbability((int) hi);
            b = lo <= 0 ? 0 : forLo.cumulativeProbability((int) (lo - 1));
        } else {
            a = lo <= 0 ? 1 : forLo.survivalProbability((int) (lo - 1));
            b = forHi.survivalProbability((int) hi);
        }
        if (a >= TINY) {
            double diff = a - b - 2 * CDF_MARGIN * Math.max(a, b);
            return diff > 0 ? Math.log(diff) : Double.NEGATIVE_INFINITY;
        }
        double logA = below ? logBinomialRangeBelow(trialsForHi, p, 0, hi) : logBinomialRangeBelow(trialsForLo, p, lo, trialsForLo);
        double logB = below ? (lo <= 0 ? Double.NEGATIVE_INFINITY : logBinomialRange(trialsForLo, p, 0, lo - 1, TAIL_TOLERANCE))
                : (hi >= trialsForHi ? Double.NEGATIVE_INFINITY : logBinomialRange(trialsForHi, p, hi + 1, trialsForHi, TAIL_TOLERANCE));
        double rest = -Math.expm1(Math.min(0, logB - logA)) - 2 * CDF_MARGIN;
        return rest > 0 ? logA + Math.log(rest) : Double.NEGATIVE_INFINITY;
    }

    /**
     * ln of an upper bound on {@code P(Bin(N, p) in [lo, hi])} for every N in [nMin, nMax]: {@code F_nMin(hi) - F_nMax(lo - 1)}
     * (the CDF falls as the trials grow), in survival form above the smaller law's mean, moved up by 1e-12 relative per value;
     * where the larger value is below 1e-250 (the whole range in a far tail) both are summed in log space instead.
     */
    static double logBetweenUpper(long nMin, long nMax, double p, long lo, long hi) {
        lo = Math.max(lo, 0);
        hi = Math.min(hi, nMax);
        if (lo > hi) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p <= 0) {
            return lo == 0 ? 0 : Double.NEGATIVE_INFINITY;
        }
        if (p >= 1) {
            return hi >= nMin ? 0 : Double.NEGATIVE_INFINITY;
        }
        BinomialDistribution small = BinomialDistribution.of((int) nMin, p);
        BinomialDistribution large = BinomialDistribution.of((int) nMax, p);
        boolean below = hi <= nMin * p;
        double a;
        double b;
        if (below) {
            a = small.cumulativeProbability((int) Math.min(Integer.MAX_VALUE, hi));
            b = lo <= 0 ? 0 : large.cumulativeProbability((int) (lo - 1));
        } else {
            a = lo <= 0 ? 1 : large.survivalProbability((int) (lo - 1));
            b = small.survivalProbability((int) Math.min(Integer.MAX_VALUE, hi));
        }
        if (a >= TINY) {
            return Math.min(0, Math.log(Math.max(a - b, 0) + 2 * CDF_MARGIN * Math.max(a, b)));
        }
        // the same difference with both values summed in log space (the first from above, the second from below)
        double logA = below ? logBinomialRange(nMin, p, 0, hi, TAIL_TOLERANCE) : logBinomialRange(nMax, p, lo, nMax, TAIL_TOLERANCE);
        double logB = below ? (lo <= 0 ? Double.NEGATIVE_INFINITY : logBinomialRangeBelow(nMax, p, 0, lo - 1))
                : (hi >= nMin ? Double.NEGATIVE_INFINITY : logBinomialRangeBelow(nMin, p, hi + 1, nMin));
        return Math.min(0, logA + Math.log(Math.max(0, -Math.expm1(Math.min(0, logB - logA))) + 2 * CDF_MARGIN));
    }

    /** ln of a lower bound on {@code P(Bin(trials, p) in [lo, hi])}: the summed terms (truncation only leaves terms out), lowered by 1e-9. */
    private static double logBinomialRangeBelow(long trials, double p, long lo, long hi) {
        LogConcaveSum.Result r = LogConcaveSum.sum(CountLaw.binomial(trials, p), lo, hi, k -> 0, TAIL_TOLERANCE);
        TAIL_TERMS.get()[0] += r.terms();
        return r.logSum() - 1e-9;
    }

    /**
     * ln of an upper bound on {@code P(Bin(trials, p) in [lo, hi])}: the terms summed outward from the one nearest the mode
     * (certified truncation), raised by the truncation bound and 1e-9 relative for the log-pmfs' rounding.
     */
    static double logBinomialRange(long trials, double p, long lo, long hi) {
        return logBinomialRange(trials, p, lo, hi, 1e-15);
    }

    /** {@link #logBinomialRange(long, double, long, long)} whose sum stops where the rest is below {@code tolerance} of it. */
    private static double logBinomialRange(long trials, double p, long lo, long hi, double tolerance) {
        LogConcaveSum.Result r = LogConcaveSum.sum(CountLaw.binomial(trials, p), lo, hi, k -> 0, tolerance);
        TAIL_TERMS.get()[0] += r.terms();
        return Math.min(0, r.logSum() + Math.log1p(r.relativeTruncation()) + 1e-9);
    }
}
