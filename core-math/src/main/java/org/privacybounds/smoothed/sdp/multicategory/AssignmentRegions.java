package org.privacybounds.smoothed.sdp.multicategory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToDoubleFunction;

import org.privacybounds.numeric.LogMath;

/**
 * Regions of assignments for the upper side's branch and bound ({@link MonotoneBounds#regions}). An assignment puts n_w of the
 * n records on each vertex w of the hull (every assignment of the hull is at most one of these: E[delta(H)] is linear in each
 * record's distribution). A region says, for each set S of vertices (a bit mask), that at least {@code atLeast[S]} records lie
 * on S; at most is "at least n - u on the others". Splitting a region on a vertex w at t gives "n_w >= t" and "n_w <= t - 1";
 * {@link #close} draws what follows (at least the sum on a union of disjoint sets, and {@code |A n B| >= |A| + |B| - n}).
 *
 * <p><b>A region's law from below.</b> With q the hull's smallest shares, every record is "category j" with chance q_j (the
 * law G of {@link MonotoneBounds}), and a record on a vertex of S in category j with chance at least q^S_j - q_j more (q^S the
 * smallest shares over S). Over a laminar family of sets (any two nested or disjoint), at least L(S) records lie on S, of which
 * those of the sets below S are counted there: H >= G + E count by count, E_j a sum of independent binomials, each part at
 * least its count e_j except with a Chernoff chance. The family is chosen where the moved counts lower the pair most
 * ({@link #proxy}).
 *
 * <p><b>Which regions to split.</b> The pair at the two smallest moved mean counts (x, y) is taken as
 * {@code alpha x + beta ln y} (ln pair, slopes measured at the lower bound's vertex): a region is left alone where that lies
 * {@link #MARGIN} below the vertex's own; otherwise it is split on the vertex and count whose two halves' larger value is least.
 * Where that sees no split lower a region, the value with what the counts near y add ({@link #tied}) splits it where
 * it falls by {@link #MARGIN}. Only a choice: the bound of every region is then summed exactly ({@link MonotoneBounds#shifted}).
 */
final class AssignmentRegions {
    /** The share of a side's budget the bands one round's halvings of v's region cut off may take ({@link MonotoneBounds#regions}). */
    static final double HALVING_SHARE = 1.0 / 3;

    /** How far (in ln of the pair) below the lower bound's vertex a region's moved means must lie to be left alone. */
    static final double MARGIN = 0.003;

    private final long n;
    private final int l;
    private final int full;
    private final double[][] vertices;
    private final double[] q;
    /** The smallest shares over each set of vertices. */
    private final double[][] qOf;
    private final double logBeta;
    private final double z;
    private final double alpha;
    private final double beta;
    /** The vertex whose orbit's fuller assignments are left out, and that orbit (a bit mask without it; 0 for none). */
    private final int orbitOf;
    private final int orbit;

    /**
     * A region, with the parts its relaxation takes ({records, set of vertices}: that many records, disjoint from the other
     * parts', lie on the set) and the proxy of the mean counts they move to, alone and with the counts near y ({@link #tied}).
     */
    record Region(long[] atLeast, long[][] parts, double proxy, double tied) {
    }

    /**
     * @param logBeta ln of the chance each part's count may miss ({@link MonotoneBounds#logBeta})
     * @param alpha   d ln pair / d x at the lower bound's vertex (x the smallest count)
     * @param beta    d ln pair / d ln y there (y the second smallest)
     */
    AssignmentRegions(long n, double[][] vertices, double logBeta, double alpha, double beta) {
        this(n, vertices, logBeta, alpha, beta, 0, 0);
    }

    /**
     * Regions that leave out every assignment in which a vertex of {@code orbit} (a bit mask, {@link CategorySymmetry#orbit})
     * holds more records than v: a relabelling of the categories maps each such assignment onto one that is kept, of the same
     * value. 0 leaves nothing out.
     */
    AssignmentRegions(long n, double[][] vertices, double logBeta, double alpha, double beta, int v, int orbit) {
        this.orbitOf = v;
        this.orbit = orbit & ~(1 << v);
        this.n = n;
        this.l = vertices.length;
        this.full = (1 << l) - 1;
        this.vertices = vertices;
        int m = vertices[0].length;
        this.qOf = new double[full + 1][];
        for (int s = 1; s <= full; s++) {
            double[] min = new double[m];
            java.util.Arrays.fill(min, 1);
            for (int w = 0; w < l; w++) {
                if ((s >> w & 1) != 0) {
                    for (int j = 0; j < m; j++) {
                        min[j] = Math.min(min[j], vertices[w][j]);
                    }
                }
            }
            qOf[s] = min;
        }
        this.q = qOf[full];
        this.logBeta = logBeta;
        this.z = Math.sqrt(-2 * Math.min(-1, logBeta));
        this.alpha = Math.min(alpha, -1e-12);
        this.beta = Math.min(beta, 0);
    }

    /** Every assignment. */
    long[] root() {
        long[] a = new long[full + 1];
        a[full] = n;
        return a;
    }

    /** The region with at least t records on vertex w ({@code atMost} false) or at most t (true), closed; null where empty. */
    long[] with(long[] region, int w, long t, boolean atMost) {
        long[] a = region.clone();
        int s = atMost ? full ^ (1 << w) : 1 << w;
        long v = atMost ? n - t : t;
        a[s] = Math.max(a[s], v);
        return close(a);
    }

    /**
     * What follows from the bounds, to a fixed point: at least the sum on a union of disjoint sets (so at least as many on a
     * larger set), and at least |A| + |B| - n on A n B; null where some set and its complement need more than n records.
     */
    long[] close(long[] a) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int s = 1; s <= full; s++) {
                for (int t = (s - 1) & s; t > 0; t = (t - 1) & s) {
                    long v = a[t] + a[s ^ t];
                    if (v > a[s]) {
                        a[s] = Math.min(v, n + 1);
                        changed = true;
                    }
                }
            }
            for (int x = 1; x <= full; x++) {
                for (int y = x + 1; y <= full; y++) {
                    long v = a[x] + a[y] - n;
                    if (v > a[x & y]) {
                        a[x & y] = v;
                        changed = true;
                    }
                }
            }
            for (int s = 0; s <= full; s++) {
                if (a[s] + a[full ^ s] > n) {
                    return null;
                }
            }
        }
        return a;
    }

    /**
     * Whether every assignment of the region puts more records on some vertex of the orbit than on v (so its image under a
     * relabelling lies in a region kept, with the same value): some w of the orbit has at least more than v can have.
     */
    boolean outside(long[] region) {
        if (region == null || orbit == 0) {
            return false;
        }
        long most = n - region[full ^ (1 << orbitOf)];
        for (int w = 0; w < l; w++) {
            if ((orbit >> w & 1) != 0 && region[1 << w] > most) {
                return true;
            }
        }
        return false;
    }

    /** Whether the region holds the assignment {@code counts} (records on each vertex). */
    boolean holds(long[] region, long[] counts) {
        for (int s = 1; s <= full; s++) {
            long on = 0;
            for (int w = 0; w < l; w++) {
                on += (s >> w & 1) != 0 ? counts[w] : 0;
            }
            if (on < region[s]) {
                return false;
            }
        }
        return true;
    }

    /** The mean counts G + E moves to, each part's E taken z standard deviations down (the search's stand-in for {@link #shift}). */
    private double[] movedMeans(long[][] parts) {
        double[] mean = new double[q.length];
        for (int j = 0; j < q.length; j++) {
            mean[j] = n * q[j];
        }
        for (long[] p : parts) {
            double[] qs = qOf[(int) p[1]];
            for (int j = 0; j < q.length; j++) {
                double d = qs[j] - q[j];
                mean[j] += Math.max(0, p[0] * d - z * Math.sqrt(p[0] * d * (1 - d)));
            }
        }
        return mean;
    }

    /** {@code alpha x + beta ln y} at the two smallest of the counts. */
    double proxy(double[] counts) {
        int[] two = MonotoneBounds.twoSmallest(counts);
        return alpha * counts[two[0]] + beta * Math.log(Math.max(1, counts[two[1]]));
    }

    /**
     * {@link #proxy} plus what the other counts near y add ({@link #nearY}): a region is split by it where the proxy says no
     * split lowers the region ({@link #refine}).
     */
    double tied(double[] counts) {
        int[] two = MonotoneBounds.twoSmallest(counts);
        return proxy(counts) + nearY(counts, two, beta / Math.max(1, counts[two[1]]));
    }

    /**
     * About ln of {@code E[e^(s min(Y, Z_1, ...))] / E[e^(s Y)]}, Y the second smallest count and Z_j the counts outside the two
     * smallest, each Poisson with its mean (independent), s = beta / y the pair's slope per record: {@code P(Y_s < every Z_j)}
     * plus, for each j, {@code E[e^(s Z_j)] / E[e^(s Y)] P(Z_j,s < Y)}, with Y_s and Z_j,s the counts tilted by s and each
     * chance from a normal law. About 0 where the others lie far above y; for a tie, s times the distance of the least of two
     * like counts below y where s is small, ln 2 where the pair changes by much per record. Where two vertices swap the shares
     * of two categories, G lets those categories tie as the second smallest, which no assignment near either vertex does; the
     * proxy (y alone) saw no split of such a region lower it, so the region stayed above the lower bound.
     */
    static double nearY(double[] counts, int[] two, double s) {
        double tilt = Math.exp(s);
        double muY = Math.max(1, counts[two[1]]);
        double mY = muY * tilt;
        double lambdaY = muY * Math.expm1(s);
        double first = 0;
        double rest = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < counts.length; j++) {
            if (j == two[0] || j == two[1]) {
                continue;
            }
            double mu = Math.max(1, counts[j]);
            double m = mu * tilt;
            first += logPhi((mu - mY) / Math.sqrt(mu + mY));
            rest = LogMath.logAdd(rest, mu * Math.expm1(s) - lambdaY + logPhi((muY - m) / Math.sqrt(muY + m)));
        }
        return LogMath.logAdd(first, rest);
    }

    /** ln Phi(z), the standard normal law's CDF. */
    private static double logPhi(double z) {
        return LogMath.logHalfErfc(-z / Math.sqrt(2));
    }

    /**
     * The region with its parts: a laminar family of sets (any two nested or disjoint), each set S holding L(S) records less those
     * of the sets below it, with S's extra shares; the family whose extra counts lower the proxy most, the proxy taken as a line
     * through the moved means (its gradient: alpha on the smallest count, beta / y on the second), by dynamic programming over the
     * sets (the best family topped by S: one below it topped by T, or two disjoint ones topped by T and S - T, plus the rest of
     * L(S) with S's extra shares), three times, each at the means the last family moved to.
     */
    Region relax(long[] region) {
        long[][] parts = new long[0][];
        double[] mean = movedMeans(parts);
        for (int iter = 0; iter < 3; iter++) {
            double[] gain = new double[q.length];
            // every extra count a little (the others keep their distance from the two smallest), the two smallest's by the line
            java.util.Arrays.fill(gain, -alpha * 1e-6);
            int[] two = MonotoneBounds.twoSmallest(mean);
            gain[two[0]] += -alpha;
            gain[two[1]] += -beta / Math.max(1, mean[two[1]]);
            double[] best = new double[full + 1];
            int[] below = new int[full + 1];
            boolean[] both = new boolean[full + 1];
            for (int set = 1; set <= full; set++) {
                double g = 0;
                for (int j = 0; j < q.length; j++) {
                    g += gain[j] * (qOf[set][j] - q[j]);
                }
                best[set] = region[set] * g; // nothing below
                below[set] = 0;
                for (int t = (set - 1) & set; t > 0; t = (t - 1) & set) {
                    double one = best[t] + (region[set] - region[t]) * g;
                    if (one > best[set]) {
                        best[set] = one;
                        below[set] = t;
                        both[set] = false;
                    }
                    int u = set ^ t;
                    if (t < u) {
                        double two2 = best[t] + best[u] + (region[set] - region[t] - region[u]) * g;
                        if (two2 > best[set]) {
                            best[set] = two2;
                            below[set] = t;
                            both[set] = true;
                        }
                    }
                }
            }
            List<long[]> out = new ArrayList<>();
            collect(full, region, below, both, out);
            parts = out.toArray(long[][]::new);
            mean = movedMeans(parts);
        }
        return new Region(region, parts, proxy(mean), tied(mean));
    }

    /** The parts of the family topped by {@code set}: its own records (L(set) less those below) and those of the sets below. */
    private void collect(int set, long[] region, int[] below, boolean[] both, List<long[]> out) {
        long under = 0;
        int t = below[set];
        if (t != 0) {
            collect(t, region, below, both, out);
            under += region[t];
            if (both[set]) {
                collect(set ^ t, region, below, both, out);
                under += region[set ^ t];
            }
        }
        long own = region[set] - under;
        if (own > 0) {
            out.add(new long[] {own, set});
        }
    }

    /**
     * The counts each category of a region is moved up by, and for each category ln of the chance that it misses its count (the
     * sum of its Chernoff tails).
     */
    record Moved(long[] counts, double[] logTails) {
        /** ln of the chance that some category misses its count. */
        double logTail() {
            return logTailExcept(-1);
        }

        /** ln of the chance that some category other than j misses its count. */
        double logTailExcept(int j) {
            double s = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < logTails.length; i++) {
                s = i == j ? s : LogMath.logAdd(s, logTails[i]);
            }
            return Math.min(0, s);
        }
    }

    /** Adds each category's tails to {@code into} (ln). */
    private static void addTails(double[] into, double[] tails) {
        for (int i = 0; i < into.length; i++) {
            into[i] = LogMath.logAdd(into[i], tails[i]);
        }
    }

    /**
     * A region's moved counts: each part's count where its Chernoff tail is at most e^logBeta over the parts, summed; the chance
     * they miss is at most the sum of the parts' tails.
     */
    Moved shift(Region r) {
        long[][] parts = r.parts();
        long[] e = new long[q.length];
        double[] tails = new double[q.length];
        Arrays.fill(tails, Double.NEGATIVE_INFINITY);
        double each = logBeta - Math.log(Math.max(1, parts.length));
        for (long[] p : parts) {
            double[] qs = qOf[(int) p[1]];
            long[] part = MonotoneBounds.chernoffCounts(p[0], qs, q, each, false);
            for (int j = 0; j < e.length; j++) {
                e[j] += part[j];
            }
            addTails(tails, MonotoneBounds.chernoffMisses(p[0], qs, q, part, false));
        }
        return new Moved(e, tails);
    }

    /**
     * The levels of category j's extra count in a region whose relaxation moved it by e0 ({@link RegionStrata}): a part's
     * record is residual where it is not G's (chance 1 - sum of q) and then of category j with chance at least
     * (q^S_j - q_j) / (1 - sum of q); null if none.
     */
    RegionStrata.Levels strata(Region r, int j, long e0) {
        long[][] parts = r.parts();
        long[] records = new long[parts.length];
        double[] extra = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            records[i] = parts[i][0];
            extra[i] = qOf[(int) parts[i][1]][j] - q[j];
        }
        return RegionStrata.of(records, extra, 1 - java.util.Arrays.stream(q).sum(), j, e0, logBeta);
    }

    /**
     * The levels of category j's extra count among the records off v of {@link #vertexShift} (at least n - hi of them), e0 its
     * shift there: each record's draw from v and its own category share min(v, q') (q' the smallest shares off v), the rest
     * residual (chance 1 - sum of min(v, q')), where the record's own category is j with chance at least
     * (q'_j - v_j)_+ / (1 - sum of min(v, q')), independently of the draws given which records are residual; null if none.
     */
    RegionStrata.Levels vertexStrata(int v, long hi, int j, long e0, double logBeta) {
        double[] own = vertices[v];
        double[] rest = qOf[full ^ (1 << v)];
        double common = 0;
        for (int i = 0; i < own.length; i++) {
            common += Math.min(own[i], rest[i]);
        }
        return RegionStrata.of(new long[] {n - hi}, new double[] {rest[j] - own[j]}, 1 - common, j, e0, logBeta);
    }

    /**
     * The assignments with between {@code lo} and {@code hi} records on vertex v, from v's own law: couple each record's category
     * with a draw from v (every record's draw together X ~ Multinomial(n, v)). A record on v has its draw. A record on another
     * vertex (at most n - lo of them, at least n - hi, each with shares at least q', the smallest over the other vertices) takes
     * its draw's category with the chance of min(v, q'); otherwise its draw's category j is lost (chance (v_j - q'_j)_+) and the
     * record may take one of q''s extra shares (chance (q'_j - v_j)_+, at least). So {@code H >= X - D + E} count by count, D_j
     * at most Binomial(n - lo, (v_j - q'_j)_+) and E_j at least Binomial(n - hi, (q'_j - v_j)_+), each taken at a count it passes
     * with a chance of at most {@code e^logBeta} (Chernoff). Where few records leave v this loses only theirs, where the
     * relaxation of {@link #shift} lets every record on v fall short of its extra shares.
     *
     * @return the shift {@code e - d} of each count, and ln of the chance that D or E misses its count in some category
     */
    Moved vertexShift(int v, long lo, long hi, double logBeta) {
        double[] own = vertices[v];
        double[] rest = qOf[full ^ (1 << v)];
        long[] d = MonotoneBounds.chernoffCounts(n - lo, own, rest, logBeta, true);
        long[] e = MonotoneBounds.chernoffCounts(n - hi, rest, own, logBeta, false);
        long[] shift = new long[q.length];
        for (int j = 0; j < q.length; j++) {
            shift[j] = e[j] - d[j];
        }
        double[] tails = MonotoneBounds.chernoffMisses(n - lo, own, rest, d, true);
        addTails(tails, MonotoneBounds.chernoffMisses(n - hi, rest, own, e, false));
        return new Moved(shift, tails);
    }

    /**
     * The proxy at the mean counts {@link #vertexShift} moves v's law to, each part z standard deviations the wrong way, z for a
     * chance of 1e-8 over the factor by which losing n - lo records of the smallest count raises the pair (what the chance is
     * weighed by, see {@link MonotoneBounds#regions}).
     */
    double vertexProxy(int v, long lo, long hi) {
        double[] own = vertices[v];
        double[] rest = qOf[full ^ (1 << v)];
        double[] mean = times(own, n);
        double zv = Math.sqrt(2 * (Math.log(1e8) + Math.log(2.0 * q.length) - alpha * (n - lo)));
        for (int j = 0; j < q.length; j++) {
            double out = Math.max(0, own[j] - rest[j]);
            double in = Math.max(0, rest[j] - own[j]);
            mean[j] -= (n - lo) * out + zv * Math.sqrt((n - lo) * out * (1 - out));
            mean[j] += Math.max(0, (n - hi) * in - zv * Math.sqrt((n - hi) * in * (1 - in)));
        }
        return proxy(mean);
    }

    /**
     * Branch and bound on the proxy: the region of at least n - K records on v is one leaf (it holds v's own assignment, so no
     * split makes it lower); the rest is split ({@link #refine}) until every region's proxy lies {@link #MARGIN} below v's own
     * means' or there are {@code maxRegions}. Returns the leaves, v's first.
     */
    List<Region> partition(int v, long cut, int maxRegions) {
        if (orbit != 0 && v != orbitOf) {
            throw new IllegalArgumentException("the regions leave out vertex " + orbitOf + "'s orbit, not vertex " + v + "'s");
        }
        List<Region> leaves = new ArrayList<>();
        leaves.add(relax(with(root(), v, n - cut, false)));
        long[] rest = with(root(), v, n - cut - 1, true);
        if (rest != null && !outside(rest)) {
            leaves.addAll(refine(relax(rest), ownProxy(v) - MARGIN, maxRegions - 1));
        }
        return leaves;
    }

    /** The proxy at vertex v's own mean counts. */
    double ownProxy(int v) {
        return proxy(times(vertices[v], n));
    }

    /**
     * A region split until each part's proxy lies at or below {@code target}, a split lowers no part's by a tenth of
     * {@link #MARGIN} (its assignments lie about as high), or there are {@code maxRegions} parts; the parts, in the order of their
     * proxy, largest first.
     */
    List<Region> refine(Region region, double target, int maxRegions) {
        PriorityQueue<Region> open = new PriorityQueue<>(Comparator.comparingDouble(Region::proxy).reversed());
        List<Region> done = new ArrayList<>();
        open.add(region);
        while (!open.isEmpty()) {
            Region r = open.poll();
            if (r.proxy() <= target || open.size() + done.size() + 2 > maxRegions) {
                done.add(r);
                continue;
            }
            Region[] halves = split(r);
            boolean leavesOut = halves != null && (halves[0] == OUTSIDE || halves[1] == OUTSIDE);
            if (halves != null && !leavesOut && Math.max(value(halves[0]), value(halves[1])) > r.proxy() - MARGIN / 10) {
                halves = untie(r);
            }
            if (halves == null) {
                done.add(r); // no split lowers it: its assignments' values lie about as high
                continue;
            }
            for (Region h : halves) {
                if (h != null && h != OUTSIDE) {
                    open.add(h);
                }
            }
        }
        done.sort(Comparator.comparingDouble(Region::proxy).reversed());
        return done;
    }

    private static double[] times(double[] p, long n) {
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = p[i] * n;
        }
        return out;
    }

    /**
     * The split of a region on the vertex and count whose two halves' larger proxy is least (per vertex, the count by bisection:
     * "at least t" falls as t grows, "at most t - 1" rises); null where no vertex has room.
     */
    Region[] split(Region r) {
        return split(r, AssignmentRegions::value);
    }

    /** {@link #split(Region)} by another value of the halves (null and {@code OUTSIDE} regions included). */
    private Region[] split(Region r, ToDoubleFunction<Region> value) {
        long[] a = r.atLeast();
        Region[] best = null;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int w = 0; w < l; w++) {
            long lo = a[1 << w];
            long hi = n - a[full ^ (1 << w)];
            if (hi - lo < 1) {
                continue;
            }
            // t in (lo, hi]: the halves n_w >= t and n_w <= t - 1
            long from = lo + 1;
            long to = hi;
            while (from < to) {
                long mid = from + (to - from) / 2;
                Region[] h = halves(a, w, mid);
                if (value.applyAsDouble(h[0]) > value.applyAsDouble(h[1])) {
                    from = mid + 1;
                } else {
                    to = mid;
                }
            }
            Region[] h = halves(a, w, from);
            double v = Math.max(value.applyAsDouble(h[0]), value.applyAsDouble(h[1]));
            if (from > lo + 1) {
                Region[] g = halves(a, w, from - 1);
                double u = Math.max(value.applyAsDouble(g[0]), value.applyAsDouble(g[1]));
                if (u < v) {
                    h = g;
                    v = u;
                }
            }
            if (v < bestValue) {
                best = h;
                bestValue = v;
            }
        }
        return best;
    }

    /** The two halves of a split, each null where it is empty and {@link #OUTSIDE} where it is {@link #outside}. */
    private Region[] halves(long[] a, int w, long t) {
        long[] up = with(a, w, t, false);
        long[] down = with(a, w, t - 1, true);
        return new Region[] {half(up), half(down)};
    }

    private Region half(long[] region) {
        return region == null ? null : outside(region) ? OUTSIDE : relax(region);
    }

    /** A half that {@link #outside} leaves out (its proxy the least, so a split that leaves out most is preferred). */
    private static final Region OUTSIDE = new Region(new long[0], new long[0][], Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);

    /**
     * The split whose halves' larger {@link #tied} value lies {@link #MARGIN} below the region's, or null: it takes off what
     * other counts near the second smallest add, which the proxy does not see (two vertices that swap two categories' shares:
     * a region of both lets those categories tie, its halves keep them apart).
     */
    private Region[] untie(Region r) {
        if (!(r.tied() - r.proxy() > MARGIN)) {
            return null;
        }
        Region[] halves = split(r, AssignmentRegions::tiedValue);
        if (halves == null || Math.max(tiedValue(halves[0]), tiedValue(halves[1])) > r.tied() - MARGIN) {
            return null;
        }
        return halves;
    }

    private static double tiedValue(Region r) {
        return r == null ? Double.NEGATIVE_INFINITY : r.tied();
    }

    private static double value(Region r) {
        return r == null ? Double.NEGATIVE_INFINITY : r.proxy();
    }
}
