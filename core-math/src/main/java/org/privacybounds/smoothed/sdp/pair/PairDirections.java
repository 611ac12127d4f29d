package org.privacybounds.smoothed.sdp.pair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.DoubleSupplier;
import java.util.stream.IntStream;

import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * An upper bound on {@code E[pair(H_a, H_b)]}, the largest of a pair's four divergences ({@link PairDivergence}) over
 * (H_a, H_b, rest) ~ Multinomial(n; pa, pb, 1 - pa - pb), from its two directions summed over the lost and released counts
 * ({@link DirectionSum#logUpper}).
 *
 * <p><b>Two directions.</b> With {@code A(h) = d(h, h - e_a + e_b)} and {@code B(h) = d(h, h + e_a - e_b)},
 * {@code pair(h) = max(A(h), A(h + e_a - e_b), B(h), B(h - e_a + e_b))}. Where h_a, h_b >= 1 the monotonicity proven in
 * {@link PairDivergence} (a record moved from a third category r into a or b raises none of them) gives
 * {@code max(A(h), A(h + e_a - e_b)) <= A(h - e_b + e_r)} and {@code max(B(h), B(h - e_a + e_b)) <= B(h - e_a + e_r)}; where a count
 * is 0, pair(h) is at most the DP delta.
 *
 * <p><b>One record moved, by thinning.</b> {@code H - e_b + e_r} is not a multinomial law. Move each b-record of H to r with
 * chance theta: the result H' ~ Multinomial(n; pa, pb - theta pb, ...), and wherever at least one record moved,
 * {@code A(H - e_b + e_r) <= A(H')} (monotonicity again). None moved with chance {@code (1 - theta)^H_b}, so with
 * {@code U = E[A(H - e_b + e_r); H_b >= 1]} and any count h0, {@code U <= E[A(H')] + (1 - theta)^h0 U + P(H_b < h0) DP}, that is
 * {@code U <= (E[A(H')] + P(H_b < h0) DP) / (1 - (1 - theta)^h0)}; h0 is where P(H_b < h0) DP falls far below the floor and
 * theta = D / h0 (about D records moved, (1 - theta)^h0 <= e^-D). B alike with a's records. What this costs is D s + e^-D, s
 * the growth of ln E[A] per record moved out of b; D = ln(1 / s) (from 6 to 23) makes it least. Where that leaves more than
 * 1e-6 (ln), {@link #tilted} moves about one record instead: levels of one record thinned each, the chance that none moved
 * weighed exactly as the next level's (tilted) multinomial, which costs about 1.6 s.
 *
 * <p><b>The smaller direction, where it never matters.</b> Both together give {@code pair <= A' + B'}, which at n = 1e6 and
 * eps = 0.5 is 4e-4 above the larger alone. Over boxes of the (h_a, h_b) plane (edges 4 to 48 standard deviations from the
 * mean): on a box where the smaller direction at its lower corner (one record further out, as above) lies below the larger
 * at its upper corner (each moved by its error bound), the smaller is below the larger everywhere in it (both fall as the
 * counts grow), so the pair is the larger's; elsewhere the pair is at most its value at the box's lower corner, times the
 * box's chance from above. So {@code E[pair] <= E[larger, moved] + sum over the other boxes}, where that is smaller.
 *
 * <p><b>No record moved.</b> On the boxes where the smaller direction is shown, the pair is the larger of A(h) and its own
 * neighbour one record along the pair, {@code A(h + e_a - e_b)}; where that neighbour is shown at most A(h) plus a small excess
 * (row by row, {@link RowDomination}; else from a lattice of evaluations, {@link ShiftBoxes}), {@code E[pair] <= E[A(H)]}
 * (summed as it is, no record moved) plus each box's chance from above times its excess, plus the boxes not shown. The rows
 * run first (arithmetic only); the thinning, the lattice and the tilted levels only where they leave more than
 * {@link #LEFT_OUT_SHARE} of the floor.
 */
public final class PairDirections {
    /** Box edges, in standard deviations from each count's mean. */
    private static final double[] EDGES = {-48, -32, -24, -16, -12, -8, -6, -4, 0, 4, 6, 8, 12, 16, 24, 32, 48};
    /** Records moved by thinning at most: (1 - theta)^h0 <= e^-23. */
    private static final double MOVED = 23;
    /** Records moved per level of {@link #tilted}: about 1 (its levels' chance of none moved about e^-1). */
    static final double TILT_MOVED = 1;
    /**
     * Levels of {@link #tilted}: the last level's thinning (about 13 s above U at n = 1e6) is weighted by about e^-6, so it adds
     * about 0.03 s.
     */
    static final int TILT_LEVELS = 6;
    /** Where the thinned direction lies above the lower bound by more than this (ln), {@link #tilted} is tried. */
    private static final double TILT_WORTH = 1e-6;
    /**
     * The side's budgets (in terms) the lattice of {@link ShiftBoxes} may take, each evaluation counted at its direction's terms
     * at the means, {@link #LATTICE_TERM_COST} a term.
     */
    public static final double SHIFT_SHARE = 4;
    /**
     * A term of one direction's sum against the budget's term (a pair evaluation's, 25 ns): measured 0.22 ms for 23,159 terms
     * at n = 1e6, eps 0.5 (9.5 ns a term).
     */
    static final double LATTICE_TERM_COST = 0.4;
    /** How far from the means (standard deviations of each count) {@link ShiftBoxes} runs; beyond, boxes count in full. */
    static final double SHIFT_REGION = 6;
    /** Where the boxes within the region are cut (standard deviations from each count's mean), so their outer parts may count in full. */
    private static final double[] REGION_CUTS = {-5.5, -5, -4.5, 4.5, 5, 5.5};
    /**
     * The parts of the region's boxes that count in full instead of by the lattice add at most this share of the floor (a
     * lower bound of the expectation), so at most 4.3e-8 to a log10 gap.
     */
    static final double LEFT_OUT_SHARE = 1e-7;
    /** How far below the floor (ln) what is bounded rather than summed lies. */
    private static final double TAIL = -36;

    private PairDirections() {
    }

    /**
     * ln of the upper bound, or +infinity where it is not done (no loss, n past the int range, fewer than 46 records at h0 to
     * thin, or the larger direction's exact sum beyond {@code maxRows}); each exact direction sum also runs to {@code maxRows}.
     *
     * @param mechanism the released mechanism, for the boxes' divergences (null: no boxes, the two directions' sum)
     * @param logFloor  ln of a value the expectation is about (a lower bound of it), to size what is bounded rather than summed
     */
    public static double logUpper(SamplingHistogramMechanism mechanism, long n, double pa, double pb, double eps, double maxRows, double logFloor) {
        return logUpper(mechanism, n, pa, pb, eps, maxRows, maxRows, logFloor, Double.POSITIVE_INFINITY);
    }

    /**
     * {@link #logUpper(SamplingHistogramMechanism, long, double, double, double, double, double)} with {@code directRows} for
     * each exact direction sum (CDF pairs), given up (+infinity) as soon as the larger direction alone lies above
     * {@code logWanted}: the bound would not be used.
     */
    public static double logUpper(SamplingHistogramMechanism mechanism, long n, double pa, double pb, double eps, double maxRows, double directRows,
            double logFloor, double logWanted) {
        return logUpper(mechanism, n, pa, pb, eps, maxRows, directRows, logFloor, logWanted, true);
    }

    /**
     * The same; with {@code refine} false neither the boxes of one record along the pair ({@link ShiftBoxes}) nor the tilted
     * levels run (where the bound moves many records anyway, they would not narrow it).
     */
    public static double logUpper(SamplingHistogramMechanism mechanism, long n, double pa, double pb, double eps, double maxRows, double directRows,
            double logFloor, double logWanted, boolean refine) {
        long sampleSize = mechanism.sampleSize();
        if (!(pa > 0 && pb > 0 && pa + pb < 1) || n > Integer.MAX_VALUE || n - sampleSize < 1) {
            return Double.POSITIVE_INFINITY;
        }
        double logDp = mechanism.logDpDelta(n);
        // each direction from its moments first (no CDF); the larger then summed exactly (within maxRows)
        // direction i = 0 moves a record from a to b, i = 1 from b to a
        // (an exact sum gets directRows)
        Direction direction = (i, exact, records) -> i == 0 ? thinned(n, sampleSize, pa, pb, eps, logDp, exact ? directRows : maxRows, logFloor, exact, records)
                : thinned(n, sampleSize, pb, pa, eps, logDp, exact ? directRows : maxRows, logFloor, exact, records);
        double[] dir = {direction.log(0, false, MOVED), direction.log(1, false, MOVED)};
        if (!(Math.max(dir[0], dir[1]) < Double.POSITIVE_INFINITY)) {
            return Double.POSITIVE_INFINITY;
        }
        int major = dir[0] >= dir[1] ? 0 : 1;
        if (dir[1 - major] > dir[major] - 0.1) {
            // two directions within 10 % of each other (a pair of equal shares): each is the larger on about half the plane, so
            // the boxes cannot show one below the other and their sum lies about twice the value: not worth the sums (at
            // n = 1e5 with shares (0.2, 0.2) they cost 24 s before the cells took over)
            return Double.POSITIVE_INFINITY;
        }
        // a count of 0: P(H_a = 0) + P(H_b = 0) times the DP delta
        double zero = logDp + LogMath.logAdd(n * Math.log1p(-pa), n * Math.log1p(-pb));
        Grid grid = grid(mechanism, n, pa, pb, major, eps, logDp, refine ? logFloor : Double.NEGATIVE_INFINITY);
        DoubleSupplier plain = new DoubleSupplier() {
            private double value = Double.NaN;

            @Override
            public double getAsDouble() {
                if (Double.isNaN(value)) {
                    value = major == 0 ? DirectionSum.logUpper(n, sampleSize, pa, pb, eps, directRows, logFloor, true)
                            : DirectionSum.logUpper(n, sampleSize, pb, pa, eps, directRows, logFloor, true);
                }
                return value;
            }
        };
        // first the rows (RowDomination): where they show the larger direction its own largest neighbour along the pair over the
        // boxes, leaving with the boxes not shown at most LEFT_OUT_SHARE of the floor, no record is moved at all: the direction
        // summed as it is (at the national n and eps 0.5 the records moved cost 4.2e-5 of the value, the rows leave e^-1,541 of it)
        double unmoved = Double.POSITIVE_INFINITY;
        double rows = refine ? grid.rows(mechanism, n, pa, pb, major, eps) : Double.POSITIVE_INFINITY;
        if (refine) {
            double left = LogMath.logAdd(LogMath.logAdd(zero, grid.notShown()), rows);
            if (left <= logFloor + Math.log(LEFT_OUT_SHARE)) {
                unmoved = LogMath.logAdd(plain.getAsDouble(), left);
            }
        }
        if (!(unmoved - logFloor <= TILT_WORTH)) {
            // else records moved by thinning: fewer cost less shift and more of (1 - theta)^h0: D s + e^-D is least at D = ln(1 / s), s
            // the growth of ln E per record moved, estimated from the normal estimate of the sums (a choice only: any D gives a
            // bound; the moments' bound, used before, had put s at the national n and eps 0.5 some 70 times too high, D = 8.5 where
            // 12.7 is best)
            double slope = major == 0 ? slope(n, sampleSize, pa, pb, eps, logDp, logFloor, maxRows) : slope(n, sampleSize, pb, pa, eps, logDp, logFloor, maxRows);
            double moved = slope > 0 ? Math.max(MOVED / 4, Math.min(MOVED, Math.log(1 / slope))) : MOVED;
            dir[major] = Math.min(dir[major], direction.log(major, true, moved));
            boolean worth = refine && dir[major] - logFloor > TILT_WORTH && dir[major] <= logWanted + 1;
            // where the records moved cost more than 1e-6, the lattice of ShiftBoxes tries to show the same from evaluations (the
            // rows' sum kept where it is less)
            double shifted = worth ? Math.min(rows, lattice(mechanism, n, pa, pb, major, eps, logDp, SHIFT_SHARE * maxRows * 40, grid, logFloor))
                    : Double.POSITIVE_INFINITY;
            if (shifted < Double.POSITIVE_INFINITY) {
                unmoved = Math.min(unmoved, LogMath.logAdd(LogMath.logAdd(LogMath.logAdd(plain.getAsDouble(), zero), grid.notShown()), shifted));
            }
            if (worth && !(unmoved - logFloor <= TILT_WORTH)) {
                // else the tilted levels: about one record moved instead of D = ln(1 / s)
                dir[major] = Math.min(dir[major], major == 0 ? tilted(n, sampleSize, pa, pb, eps, logDp, maxRows, logFloor)
                        : tilted(n, sampleSize, pb, pa, eps, logDp, maxRows, logFloor));
            }
        }
        if (!(Math.min(dir[major], unmoved) <= logWanted)) {
            return Double.POSITIVE_INFINITY;
        }
        double dominated = Math.min(unmoved, LogMath.logAdd(LogMath.logAdd(dir[major], zero), grid.notShown()));
        if (dominated - dir[major] > 1e-7) {
            // the boxes leave too much: the smaller direction too, summed exactly where it is more than 1e-6 of the two
            int minor = 1 - major;
            if (dir[minor] - LogMath.logAdd(dir[0], dir[1]) > Math.log(1e-6)) {
                dir[minor] = Math.min(dir[minor], direction.log(minor, true, MOVED));
            }
        }
        double both = LogMath.logAdd(LogMath.logAdd(dir[0], dir[1]), zero);
        return Math.min(both, dominated) + 1e-12;
    }

    /**
     * ln of a bound on the same U as {@link #thinned}, {@code U(p) = E[A(H_a, H_b - 1); H_b >= 1]}, that moves about one record
     * instead of D = ln(1 / s) (A taken as 1 where h_a = 0, as the direction sums count it). Thin b's records with chance theta,
     * M of them moved, H' the thinned histogram. On M >= 1, {@code A(H_a, H_b - 1) <= A(H')} (monotonicity); on M = 0, H' = H,
     * and weighting a multinomial by {@code (1 - theta)^h_b} gives rho times the multinomial of the tilted shares
     * {@code p~ = (pa, pb (1 - theta), rest) / (1 - theta pb)}, {@code rho = (1 - theta pb)^n}. Hence exactly
     * {@code U(p) <= E_p'[A] - rho E_p~[A] + rho U(p~)}, the first from above and the second from below by the direction sums, and
     * the last the same bound again at p~: {@value #TILT_LEVELS} levels of theta n pb = {@value #TILT_MOVED}, then
     * {@link #thinned} (or 1) at the last shares, weighted by the product of the rhos (about e^-6). Each level's bracket is
     * positive (thinning only raises A). What it costs, s the growth of ln E[A] per record moved out of b: about
     * {@code s D / (1 - e^-D)} (1.6 s at D = 1) against {@code s ln(1 / s)} for {@link #thinned} (13 s at n = 1e6), for
     * {@code 2 x 6 + 1} direction sums instead of one (at n = 1e6, eps 0.5: 6.4 s on 2 cores); +infinity where one of them is
     * not done within {@code maxRows / 7} CDF pairs, so the 13 take at most 13/7 of {@code maxRows} (at n = 1e6 they took 12.8
     * core-seconds where their nominal cost was 45: walked rows run faster than the tenth of a CDF pair they count for).
     */
    static double tilted(long n, long sampleSize, double pa, double pb, double eps, double logDp, double maxRows, double logFloor) {
        double rows = maxRows / (TILT_LEVELS + 1);
        LogSumExp plus = new LogSumExp();
        LogSumExp minus = new LogSumExp();
        double logWeight = 0;
        double a = pa;
        double b = pb;
        for (int level = 0; level < TILT_LEVELS; level++) {
            double theta = TILT_MOVED / (n * b);
            if (!(theta < 0.5)) {
                return Double.POSITIVE_INFINITY;
            }
            double up = DirectionSum.logUpper(n, sampleSize, a, b * (1 - theta), eps, rows, logFloor, true);
            if (!(up < Double.POSITIVE_INFINITY)) {
                return Double.POSITIVE_INFINITY;
            }
            double logRho = n * Math.log1p(-theta * b);
            double nextA = a / (1 - theta * b);
            double nextB = b * (1 - theta) / (1 - theta * b);
            plus.add(logWeight + up);
            minus.add(logWeight + logRho + DirectionSum.logLower(n, sampleSize, nextA, nextB, eps, rows));
            logWeight += logRho;
            a = nextA;
            b = nextB;
        }
        // U at the last shares: thinning as above, or A <= 1; with P(H_a = 0), where A is taken as 1
        double last = Math.min(0, LogMath.logAdd(thinned(n, sampleSize, a, b, eps, logDp, rows, logFloor, true, MOVED), n * Math.log1p(-a)));
        plus.add(logWeight + last);
        double logPlus = plus.log();
        double logMinus = minus.log();
        if (!(logMinus < logPlus)) {
            return Double.POSITIVE_INFINITY;
        }
        // the difference's rounding: a few ulps of the larger, relative to the difference
        return logPlus + Math.log1p(-Math.exp(logMinus - logPlus)) + 1e-12 / -Math.expm1(logMinus - logPlus);
    }

    /** ln of one direction's bound ({@link #thinned}) by its index. */
    private interface Direction {
        double log(int index, boolean exact, double records);
    }

    /**
     * ln of the bound on E[A(H - e_b + e_r); H_b >= 1] of the class comment, A moving a record from the category of share pa to
     * that of pb; {@code exact} as in {@link DirectionSum#logUpper(long, long, double, double, double, double, double, boolean)}.
     */
    private static double thinned(long n, long sampleSize, double pa, double pb, double eps, double logDp, double maxRows, double logFloor,
            boolean exact, double records) {
        long h0 = h0(n, pb, logDp, logFloor);
        double theta = records / h0;
        if (h0 < 1 || theta >= 0.5) {
            return Double.POSITIVE_INFINITY;
        }
        double moved = DirectionSum.logUpper(n, sampleSize, pa, pb * (1 - theta), eps, maxRows, logFloor, exact);
        double factor = -Math.expm1(h0 * Math.log1p(-theta));
        return LogMath.logAdd(moved, ChernoffTail.logBinomialTail(n, pb, h0 - 1, false) + logDp) - Math.log(factor);
    }

    /**
     * The count h0 of {@link #thinned}: where P(H_b < h0) times the DP delta falls below e^{@value #TAIL} of the floor (and
     * e^-72), in steps of 2 standard deviations from 12; -1 where none does above 0.
     */
    private static long h0(long n, double pb, double logDp, double logFloor) {
        double sd = Math.sqrt(n * pb * (1 - pb));
        double target = Math.min(-72, logFloor + TAIL) - logDp;
        for (double z = 12; z < 1e3; z += 2) {
            long at = (long) Math.floor(n * pb - z * sd);
            if (at < 1) {
                break;
            }
            if (ChernoffTail.logBinomialTail(n, pb, at - 1, false) <= target) {
                return at;
            }
        }
        return -1;
    }

    /**
     * An estimate of s, the growth of ln E[A] per record moved out of b, from {@link DirectionSum#logApprox} at the shares of
     * {@link #thinned} with {@value #MOVED} records moved and with none; NaN where it is not done.
     */
    private static double slope(long n, long sampleSize, double pa, double pb, double eps, double logDp, double logFloor, double maxRows) {
        long h0 = h0(n, pb, logDp, logFloor);
        double theta = MOVED / h0;
        if (h0 < 1 || theta >= 0.5) {
            return Double.NaN;
        }
        double moved = DirectionSum.logApprox(n, sampleSize, pa, pb * (1 - theta), eps, logFloor, maxRows);
        double none = DirectionSum.logApprox(n, sampleSize, pa, pb, eps, logFloor, maxRows);
        return (moved - none) / (theta * n * pb);
    }

    /**
     * The boxes of the (h_a, h_b) plane: {@code shown} where the smaller direction is shown below the larger ({@code major}: 0
     * for a to b, 1 for b to a) over the box; {@code pairs} ln of the pair at each box's lower corner (raised by its error bound,
     * at most the DP delta); {@code notShown} ln of the sum over the boxes not shown of their chance from above times that
     * (-infinity where every box is shown).
     */
    record Grid(List<long[]> boxes, boolean[] shown, double[] pairs, double notShown) {
        /**
         * ln of the sum over the shown boxes of their chance from above times the smaller of the pair at their lower corner and
         * {@link RowDomination}'s excess over them: the larger direction's own neighbour one record along the pair (a record more
         * in its source, one fewer in its destination) exceeds it there by at most that; +infinity with replacement, where the
         * rows' argument is not made.
         */
        double rows(SamplingHistogramMechanism mechanism, long n, double pa, double pb, int major, double eps) {
            if (mechanism.sampling() != Sampling.WITHOUT_REPLACEMENT) {
                return Double.POSITIVE_INFINITY;
            }
            long lost = n - mechanism.sampleSize();
            double[] each = IntStream.range(0, boxes.size()).parallel().mapToDouble(i -> {
                long[] b = boxes.get(i);
                double chance = shown[i] ? ShiftBoxes.logBox(n, pa, pb, b[0], b[1], b[2], b[3]) : Double.NEGATIVE_INFINITY;
                if (chance == Double.NEGATIVE_INFINITY) {
                    return chance;
                }
                double tau = major == 0 ? RowDomination.logExcess(n, lost, b[0], b[1], b[2], b[3], eps)
                        : RowDomination.logExcess(n, lost, b[2], b[3], b[0], b[1], eps);
                return chance + Math.min(tau, pairs[i]);
            }).toArray();
            LogSumExp s = new LogSumExp();
            for (double x : each) {
                s.add(x);
            }
            return s.log() + 1e-12;
        }
    }

    /**
     * The {@link Grid} of boxes with edges {@link #EDGES} standard deviations from each count's mean and, where {@code logFloor}
     * lies so far down that the boxes beyond them matter (at the national n and eps 0.5 the floor is e^-2,100 and the box beyond
     * 48 standard deviations has a chance of about e^-1,150), further out ({@link #edges}). A box whose chance times the DP delta
     * lies e^{@value #TAIL} below the floor over the boxes' number is not evaluated: not shown, the pair at its corner taken as
     * the DP delta (at the national n most boxes; their evaluations had taken about 100 core-seconds).
     */
    static Grid grid(SamplingHistogramMechanism mechanism, long n, double pa, double pb, int major, double eps, double logDp, double logFloor) {
        long[] ea = edges(n, pa, logFloor);
        long[] eb = edges(n, pb, logFloor);
        List<long[]> boxes = new ArrayList<>();
        for (int i = 0; i + 1 < ea.length; i++) {
            for (int j = 0; j + 1 < eb.length; j++) {
                if (ea[i] + eb[j] <= n) {
                    boxes.add(new long[] {ea[i], ea[i + 1] - 1, eb[j], eb[j + 1] - 1});
                }
            }
        }
        // the smaller direction moves a record from x to y; its largest over a box, one record further out, at (x0, y0 - 1)
        int x = 1 - major;
        int y = major;
        boolean[] shown = new boolean[boxes.size()];
        double[] pairs = new double[boxes.size()];
        double negligible = logFloor + TAIL - Math.log(boxes.size());
        double[] left = IntStream.range(0, boxes.size()).parallel().mapToDouble(i -> {
            long[] box = boxes.get(i);
            long a0 = box[0];
            long b0 = box[2];
            long a1 = box[1];
            long b1 = box[3];
            double logP = Math.min(logInterval(n, pa, a0, a1), logInterval(n, pb, b0, b1));
            if (logP == Double.NEGATIVE_INFINITY) {
                return logP;
            }
            if (logP + logDp <= negligible) {
                // counted at the DP delta unevaluated: together at most e^TAIL of the floor
                pairs[i] = logDp;
                return logP + logDp;
            }
            long[] small = {a0 - (y == 0 ? 1 : 0), b0 - (y == 1 ? 1 : 0)};
            if (small[0] >= 1 && small[1] >= 1 && a1 + b1 <= n && b1 >= 1 && a1 >= 1) {
                double[] s = mechanism.logHockeyStick(new long[] {small[0], small[1], n - small[0] - small[1]}, x, y, eps);
                double[] l = mechanism.logHockeyStick(new long[] {a1, b1, n - a1 - b1}, y, x, eps);
                // the larger direction's everywhere in the box
                shown[i] = below(s, l);
            }
            double pairAt = a0 >= 1 && b0 >= 1 ? Math.min(logDp, atLeast(mechanism.pairProfile(new long[] {a0, b0, n - a0 - b0}, 0, 1, eps)))
                    : logDp;
            pairs[i] = pairAt;
            return logP + pairAt;
        }).toArray();
        LogSumExp notShown = new LogSumExp();
        for (int i = 0; i < left.length; i++) {
            if (!shown[i]) {
                notShown.add(left[i]);
            }
        }
        return new Grid(boxes, shown, pairs, notShown.log() + 1e-12);
    }

    /**
     * The sum of {@link Grid#rows} from {@link ShiftBoxes}' lattice of evaluations instead (+infinity where it does not fit
     * in {@code shiftTerms}, each evaluation counted at the terms of the direction at the means, {@link #LATTICE_TERM_COST}
     * each), within {@value #SHIFT_REGION} standard deviations of both means, over the grid's boxes whose smaller direction is
     * shown; those beyond the region count in full, their chance from exact binomial CDFs ({@link ShiftBoxes#logBox}: the
     * Chernoff bounds of the other boxes, up to 15 times the chance 6 standard deviations out, had left 1.5e-6 of the value
     * at n = 1e6) times the pair at their lower corner. Within the region the boxes are cut at {@link #REGION_CUTS} standard
     * deviations, and those of least chance count in full too, as long as together they add at most {@link #LEFT_OUT_SHARE}
     * of {@code logFloor} (the region's outer corners and edges: at n = 1e6, shares 0.08 and 0.40, about a fifth of the
     * lattice).
     */
    static double lattice(SamplingHistogramMechanism mechanism, long n, double pa, double pb, int major, double eps, double logDp,
            double shiftTerms, Grid grid, double logFloor) {
        List<long[]> boxes = grid.boxes();
        boolean[] shown = grid.shown();
        double[] pairs = grid.pairs();
        int src = major;
        int dst = 1 - major;
        double ps = major == 0 ? pa : pb;
        double pd = major == 0 ? pb : pa;
        double su = Math.sqrt(n * ps * (1 - ps));
        double sv = Math.sqrt(n * pd * (1 - pd));
        long mu = Math.round(n * ps);
        long mv = Math.round(n * pd);
        int height = ShiftBoxes.height(mechanism, n, src, dst, mu, mv, eps);
        if (height == 0) {
            return Double.POSITIVE_INFINITY;
        }
        // the shown boxes beyond the region (counted in full once the lattice fits), and the parts of the boxes within it, each
        // {u0, u1, v0, v1} in (source, destination) counts, with ln of its chance from above times the pair at its box's lower corner
        List<Integer> beyond = new ArrayList<>();
        List<long[]> parts = new ArrayList<>();
        List<Double> full = new ArrayList<>();
        for (int i = 0; i < boxes.size(); i++) {
            long[] b = boxes.get(i);
            long[] box = major == 0 ? b : new long[] {b[2], b[3], b[0], b[1]};
            // (two counts of slack for the edges' rounding)
            boolean inside = shown[i] && box[0] >= mu - SHIFT_REGION * su - 2 && box[1] <= mu + SHIFT_REGION * su + 2
                    && box[2] >= mv - SHIFT_REGION * sv - 2 && box[3] <= mv + SHIFT_REGION * sv + 2 && box[0] >= 1 && box[2] >= 1
                    && box[1] + 1 + box[3] <= n;
            if (!inside) {
                if (shown[i]) {
                    beyond.add(i);
                }
                continue;
            }
            for (long[] u : cut(box[0], box[1], mu, su)) {
                for (long[] v : cut(box[2], box[3], mv, sv)) {
                    long[] part = {u[0], u[1], v[0], v[1]};
                    parts.add(part);
                    full.add((major == 0 ? ShiftBoxes.logBox(n, pa, pb, u[0], u[1], v[0], v[1])
                            : ShiftBoxes.logBox(n, pa, pb, v[0], v[1], u[0], u[1])) + pairs[i]);
                }
            }
        }
        // the parts of least chance in full, within LEFT_OUT_SHARE of the floor; the others' lattice
        Integer[] order = IntStream.range(0, parts.size()).boxed().sorted(Comparator.comparingDouble(full::get)).toArray(Integer[]::new);
        double allowed = logFloor + Math.log(LEFT_OUT_SHARE);
        LogSumExp leftOut = new LogSumExp();
        List<long[]> fine = new ArrayList<>();
        double evaluations = 0;
        for (int k : order) {
            if (fine.isEmpty() && LogMath.logAdd(leftOut.log(), full.get(k)) <= allowed) {
                leftOut.add(full.get(k));
                continue;
            }
            long[] box = parts.get(k);
            fine.add(box);
            evaluations += ShiftBoxes.evaluations(box[0], box[1], box[2], box[3], height);
        }
        long[] center = new long[3];
        center[src] = mu;
        center[dst] = mv;
        center[2] = n - mu - mv;
        // each evaluation counted at the terms of the direction at the means, at LATTICE_TERM_COST of a term each
        if (evaluations * Math.max(1, mechanism.logHockeyStick(center, src, dst, eps, ShiftBoxes.TOLERANCE)[2]) * LATTICE_TERM_COST > shiftTerms) {
            return Double.POSITIVE_INFINITY;
        }
        LogSumExp s = new LogSumExp();
        for (int i : beyond) {
            long[] b = boxes.get(i);
            s.add(ShiftBoxes.logBox(n, pa, pb, b[0], b[1], b[2], b[3]) + pairs[i]);
        }
        s.add(leftOut.log());
        for (long[] box : fine) {
            s.add(ShiftBoxes.logLeft(mechanism, n, src, dst, ps, pd, box[0], box[1], box[2], box[3], height, eps, logDp));
        }
        return s.log() + 1e-12;
    }

    /** [lo, hi] cut where it crosses the mean plus {@link #REGION_CUTS} standard deviations: the intervals, in order. */
    private static List<long[]> cut(long lo, long hi, long mean, double sd) {
        List<long[]> out = new ArrayList<>();
        long from = lo;
        for (double z : REGION_CUTS) {
            long at = Math.round(mean + z * sd);
            if (at > from && at <= hi) {
                out.add(new long[] {from, at - 1});
                from = at;
            }
        }
        out.add(new long[] {from, hi});
        return out;
    }

    /** Whether {ln x, relative error} lies below {ln y, relative error} with both errors against it. */
    static boolean below(double[] x, double[] y) {
        return x[0] + Math.log1p(x[1]) <= y[0] + Math.log1p(-Math.min(0.5, y[1]));
    }

    /** ln of a value raised by its error bound. */
    static double atLeast(org.privacybounds.smoothed.ProfileValue v) {
        return v.logDelta() + Math.log1p(v.relativeErrorBound());
    }

    /**
     * Box edges for one count: 0, the mean plus {@link #EDGES} standard deviations (within [1, n]), n + 1; and beyond the
     * outermost, on each side, edges a third further out each while the count's chance to lie beyond the last (Chernoff) is
     * above e^{@value #TAIL} of {@code logFloor} (none where that is -infinity).
     */
    private static long[] edges(long n, double p, double logFloor) {
        double sd = Math.sqrt(n * p * (1 - p));
        TreeSet<Long> e = new TreeSet<>();
        e.add(0L);
        e.add(n + 1);
        for (double z : EDGES) {
            e.add(Math.max(1, Math.min(n, Math.round(n * p + z * sd))));
        }
        double outer = EDGES[EDGES.length - 1];
        for (int side = -1; side <= 1 && logFloor > Double.NEGATIVE_INFINITY; side += 2) {
            for (double z = outer; ; z *= 4.0 / 3) {
                long at = Math.round(n * p + side * z * sd);
                if (at < 1 || at > n || ChernoffTail.logBinomialTail(n, p, at, side > 0) <= logFloor + TAIL) {
                    break;
                }
                e.add(Math.max(1, Math.min(n, Math.round(n * p + side * z * 4 / 3 * sd))));
            }
        }
        return e.stream().mapToLong(Long::longValue).toArray();
    }

    /** ln of an upper bound on P(lo <= X <= hi), X ~ Binomial(n, p): a Chernoff tail where the interval lies to one side of the mean. */
    private static double logInterval(long n, double p, long lo, long hi) {
        if (hi < lo) {
            return Double.NEGATIVE_INFINITY;
        }
        if (hi < n * p) {
            return ChernoffTail.logBinomialTail(n, p, hi, false);
        }
        if (lo > n * p) {
            return ChernoffTail.logBinomialTail(n, p, lo, true);
        }
        return 0;
    }
}
