package org.privacybounds.smoothed.sdp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogConcaveSum;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * Certified two-sided bounds on delta_SDP for three or more categories at any n up to 2^31 - 1, from a few hundred
 * evaluations of one pair's divergence ({@link PairDivergence}) instead of delta over every histogram. Both sides rest on
 * the monotonicity proven there: a pair's divergence cannot grow when records move into either of its categories.
 *
 * <p><b>Upper bound, every assignment at once.</b> Whatever the assignment of the records to distributions of Pi, each count
 * H_i is a sum of independent Bernoulli variables with means at least {@code q_i = min over the vertices of p_i}, so it is
 * stochastically at least Binomial(n, q_i) (couple each Bernoulli with one of mean q_i below it). For a ladder
 * {@code z_0 < z_1 < ...} let {@code t_i(z) = floor(n q_i - z s_i sigma_i)} with {@code sigma_i = sqrt(n q_i (1 - q_i))} and
 * steps s_i in [1, 4] chosen from how much delta depends on each count, and {@code A_k} the event that every
 * {@code H_i >= t_i(z_k)}. On A_k delta(H) is at most
 * {@code Psi_k = max over pairs {a, b} of pair(t_a, t_b, n - t_a - t_b)} (monotonicity), and everywhere at most T/n. By
 * summation by parts, {@code E[delta(H)] <= Psi_0 + sum_k (Psi_k - Psi_(k-1)) P(not A_(k-1)) + (T/n - Psi_K) P(not A_K)},
 * with {@code P(not A_k) <= min(1, sum_i P(Binomial(n, q_i) < t_i(z_k)))} summed exactly in log space
 * ({@link LogConcaveSum}, certified truncation). The ladder is refined where a finer step can lower the bound most.
 *
 * <p><b>Lower bound, one assignment.</b> Every record on one vertex v: delta_SDP is at least E[delta(H)],
 * H ~ Multinomial(n, p_v), and that is at least {@code sum over cells C of P((H_a, H_b) in C) pair(upper corner of C)}
 * for one pair {a, b} and any cells of the (h_a, h_b) plane (monotonicity again). Cells are refined (a quadtree) where the
 * pair's values at their two corners differ most, weighted by their probability ({@link VertexLowerBound}).
 *
 * <p>The gap between the two closes as the hull's coordinate-wise minima are attained by one vertex (then both sides start
 * from the same histogram) and as n grows slowly against the scale on which ln delta changes; it is reported, never hidden.
 */
public final class MonotoneBounds {
    /** Pair-divergence evaluations of one batch: {@code result[i] = {ln value, relative error}} of the points (ha[i], hb[i]). */
    public interface PairSource {
        double[][] log(long[] ha, long[] hb, double eps);
    }

    /**
     * A source on the calling JVM: the points of a batch as a parallel stream, so on the fork-join pool the caller runs in (a
     * pool of a chosen size when called inside it, else the common pool).
     */
    public static PairSource local(PairDivergence pair) {
        return (ha, hb, eps) -> IntStream.range(0, ha.length).parallel().mapToObj(i -> pair.log(ha[i], hb[i], eps)).toArray(double[][]::new);
    }

    /**
     * How far to refine: stop when what one more round could gain is below {@code relativeGain} of the bound, or after
     * {@code maxEvaluations} pair evaluations per side and eps.
     */
    public record Options(double relativeGain, int maxEvaluations) {
        public static Options defaults() {
            return new Options(1e-3, 600);
        }
    }

    /**
     * One eps: ln of the upper and lower bounds, with how each was obtained.
     *
     * @param lowerVertex the vertex every record of the lower bound's assignment is on (index into the vertices)
     * @param lowerPair   the pair of categories {a, b} of the lower bound
     */
    public record Bounds(double epsilon, double logUpper, int upperLevels, double zMax, double logLower, int lowerVertex, int[] lowerPair,
            int lowerCells, int evaluations) {
        public double log10Gap() {
            return LogMath.toLog10(logUpper) - LogMath.toLog10(logLower);
        }
    }

    /** What the rounding of a log-sum of positive terms can move it, far above its few ulps. */
    static final double SUM_ROUNDING = 1e-12;

    private MonotoneBounds() {
    }

    /** Both bounds for every eps over one set of vertices (the hull of Pi). */
    public static Bounds[] of(PairDivergence pair, DistributionSet vertices, double[] eps, PairSource source, Options options, Consumer<String> progress) {
        return of(pair, vertices, vertices, eps, source, options, progress);
    }

    /**
     * Both bounds for every eps, one after the other (each batch of evaluations runs on the source). The upper bound needs only
     * the smallest share of each category over Pi, which {@code upperSet} must attain (the hull, or an enclosing simplex); the
     * lower bound puts every record on one of {@code lowerSet}'s distributions, which must lie in Pi (hull vertices).
     */
    public static Bounds[] of(PairDivergence pair, DistributionSet upperSet, DistributionSet lowerSet, double[] eps, PairSource source, Options options,
            Consumer<String> progress) {
        if (upperSet.categories() < 3 || lowerSet.categories() != upperSet.categories()) {
            throw new IllegalArgumentException("the monotone bounds need three or more categories");
        }
        if (pair.n() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("n must be at most 2^31 - 1");
        }
        Bounds[] out = new Bounds[eps.length];
        PairSource timed = progressing(source, 2L * (options.maxEvaluations() + 64) * eps.length, progress);
        for (int e = 0; e < eps.length; e++) {
            long t0 = System.nanoTime();
            Upper up = upper(pair, upperSet, eps[e], timed, options);
            VertexLowerBound.Result lo = VertexLowerBound.of(pair, lowerSet, eps[e], timed, options);
            double logUpper = Math.max(up.log, lo.logLower());
            out[e] = new Bounds(eps[e], logUpper, up.levels, up.zMax, lo.logLower(), lo.vertex(), lo.pair(), lo.cells(), up.evaluations + lo.evaluations());
            progress.accept(String.format(Locale.ROOT, "eps = %g: %.6g <= log10 delta_SDP <= %.6g (log10 gap %.3g), %d pair evaluations, %.1f s", eps[e],
                    LogMath.toLog10(lo.logLower()), LogMath.toLog10(logUpper), out[e].log10Gap(), out[e].evaluations(), (System.nanoTime() - t0) / 1e9));
        }
        return out;
    }

    /** The source with a progress line at most every 30 s: evaluations done against the run's budget, elapsed time and an ETA. */
    private static PairSource progressing(PairSource source, long budget, Consumer<String> progress) {
        long start = System.nanoTime();
        long[] state = {0, start}; // evaluations done, time of the last line
        return (ha, hb, eps) -> {
            double[][] v = source.log(ha, hb, eps);
            state[0] += ha.length;
            long now = System.nanoTime();
            if (now - state[1] > 30e9) {
                state[1] = now;
                double elapsed = (now - start) / 1e9;
                double done = Math.min(1, (double) state[0] / budget);
                progress.accept(String.format(Locale.ROOT, "%,d pair evaluations (budget about %,d), %.0f s, ETA about %.0f s", state[0], budget,
                        elapsed, elapsed / done * (1 - done)));
            }
            return v;
        };
    }

    /** The upper bound of one eps. */
    record Upper(double log, int levels, double zMax, int evaluations) {
    }

    /** One level of the ladder: ln Psi (upper-rounded) and ln of the bound on P(not A). */
    private record Level(double logPsi, double logTail) {
    }

    static Upper upper(PairDivergence pair, DistributionSet vertices, double eps, PairSource source, Options options) {
        long n = pair.n();
        int m = vertices.categories();
        double logDp = pair.mechanism().logDpDelta(n);
        double[] q = new double[m];
        Arrays.fill(q, 1);
        for (int v = 0; v < vertices.size(); v++) {
            for (int i = 0; i < m; i++) {
                q[i] = Math.min(q[i], vertices.get(v)[i]);
            }
        }
        int[] evaluations = {0};
        double[] sigma = steps(pair, q, eps, source, evaluations);
        TreeMap<Double, Level> ladder = new TreeMap<>();
        List<Double> first = new ArrayList<>();
        for (double z = -4; z <= 6; z += 0.5) {
            first.add(z);
        }
        for (double z : new double[] {7, 8, 10, 12, 15, 20, 25, 30}) {
            first.add(z);
        }
        addLevels(ladder, first, n, q, sigma, eps, logDp, source, evaluations);
        // deeper until what lies beyond the last level is negligible at the worst case T/n
        double z = 30;
        while (true) {
            Level last = ladder.lastEntry().getValue();
            double bound = bound(ladder, logDp);
            if (last.logPsi >= logDp || last.logTail + logDp < bound + Math.log(1e-15) || z > 1e7) {
                break;
            }
            z *= 1.4;
            addLevels(ladder, List.of(z), n, q, sigma, eps, logDp, source, evaluations);
        }
        // refine: halve the steps whose finer split can lower the bound most
        while (evaluations[0] < options.maxEvaluations()) {
            double bound = bound(ladder, logDp);
            List<double[]> gains = new ArrayList<>();
            Double prevZ = null;
            Level prev = null;
            for (var en : ladder.entrySet()) {
                Level cur = en.getValue();
                if (prev != null && cur.logPsi > prev.logPsi && prev.logTail > cur.logTail && en.getKey() - prevZ > 1e-3) {
                    double gain = cur.logPsi + LogMath.log1mexp(prev.logPsi - cur.logPsi) + prev.logTail + LogMath.log1mexp(cur.logTail - prev.logTail);
                    gains.add(new double[] {gain, (prevZ + en.getKey()) / 2});
                }
                prevZ = en.getKey();
                prev = cur;
            }
            gains.sort((a, b) -> Double.compare(b[0], a[0]));
            double total = Double.NEGATIVE_INFINITY;
            for (double[] g : gains) {
                total = LogMath.logAdd(total, g[0]);
            }
            if (gains.isEmpty() || total < bound + Math.log(options.relativeGain())) {
                break;
            }
            List<Double> next = new ArrayList<>();
            int room = Math.max(1, Math.min(8, (options.maxEvaluations() - evaluations[0]) / (m * (m - 1) / 2)));
            for (int k = 0; k < Math.min(room, gains.size()); k++) {
                next.add(gains.get(k)[1]);
            }
            addLevels(ladder, next, n, q, sigma, eps, logDp, source, evaluations);
        }
        // raised by 1e-12 for the rounding of the sum itself (every term is already an upper value)
        return new Upper(Math.min(bound(ladder, logDp) + SUM_ROUNDING, logDp), ladder.size(), ladder.lastKey(), evaluations[0]);
    }

    /**
     * The step of each count per unit of z: {@code s_i sigma_i}. A count on which delta depends little (its ln Psi grows by g_i
     * per sigma_i, against g_max for the most telling count) steps {@code s_i = min(4, sqrt(g_max / g_i))} times faster, so its tail
     * leaves the union bound early at little cost to Psi. Any steps give a valid bound; these only make it tighter.
     */
    private static double[] steps(PairDivergence pair, double[] q, double eps, PairSource source, int[] evaluations) {
        long n = pair.n();
        int m = q.length;
        double[] sigma = new double[m];
        long[] t = new long[m];
        for (int i = 0; i < m; i++) {
            sigma[i] = Math.sqrt(n * q[i] * (1 - q[i]));
            t[i] = (long) Math.floor(n * q[i]);
        }
        if (Arrays.stream(t).anyMatch(x -> x < 2)) {
            return sigma;
        }
        // Psi at the means and with one count lowered by sigma_i (only the pairs with that count change)
        List<long[]> points = new ArrayList<>();
        for (int i = -1; i < m; i++) {
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    if (i < 0 || a == i || b == i) {
                        points.add(new long[] {lowered(t, sigma, i, a), lowered(t, sigma, i, b)});
                    }
                }
            }
        }
        double[][] v = evaluate(points, eps, source);
        evaluations[0] += points.size();
        int p = 0;
        double[] pairAt = new double[m * m];
        double base = Double.NEGATIVE_INFINITY;
        for (int a = 0; a < m; a++) {
            for (int b = a + 1; b < m; b++, p++) {
                pairAt[a * m + b] = v[p][0];
                base = Math.max(base, v[p][0]);
            }
        }
        double[] g = new double[m];
        for (int i = 0; i < m; i++) {
            double psi = Double.NEGATIVE_INFINITY;
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    psi = Math.max(psi, a == i || b == i ? v[p++][0] : pairAt[a * m + b]);
                }
            }
            g[i] = Math.max(0, psi - base);
        }
        double gMax = Arrays.stream(g).max().orElse(0);
        if (!(gMax > 0)) {
            return sigma;
        }
        for (int i = 0; i < m; i++) {
            double s = g[i] > 0 ? Math.sqrt(gMax / g[i]) : 4;
            sigma[i] *= Double.isFinite(s) ? Math.max(1, Math.min(4, s)) : 1;
        }
        return sigma;
    }

    private static long lowered(long[] t, double[] sigma, int i, int a) {
        return a == i ? Math.max(1, (long) Math.floor(t[a] - sigma[a])) : t[a];
    }

    /** Evaluates Psi and the tail bound at the given z (one batch), skipping z where some pair's thresholds exceed n. */
    private static void addLevels(TreeMap<Double, Level> ladder, List<Double> zs, long n, double[] q, double[] sigma, double eps, double logDp,
            PairSource source, int[] evaluations) {
        int m = q.length;
        List<long[]> points = new ArrayList<>();
        List<long[]> thresholds = new ArrayList<>();
        List<Double> kept = new ArrayList<>();
        for (double z : zs) {
            long[] t = new long[m];
            boolean feasible = true;
            for (int i = 0; i < m; i++) {
                t[i] = (long) Math.floor(Math.min(n, n * q[i] - z * sigma[i]));
            }
            for (int a = 0; a < m; a++) {
                for (int b = a + 1; b < m; b++) {
                    feasible &= t[a] + t[b] <= n;
                }
            }
            if (!feasible || ladder.containsKey(z)) {
                continue;
            }
            kept.add(z);
            thresholds.add(t);
            if (Arrays.stream(t).allMatch(x -> x >= 1)) {
                for (int a = 0; a < m; a++) {
                    for (int b = a + 1; b < m; b++) {
                        points.add(new long[] {t[a], t[b]});
                    }
                }
            }
        }
        double[][] values = evaluate(points, eps, source);
        evaluations[0] += points.size();
        int p = 0;
        for (int k = 0; k < kept.size(); k++) {
            long[] t = thresholds.get(k);
            double psi = logDp;
            if (Arrays.stream(t).allMatch(x -> x >= 1)) {
                psi = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < m * (m - 1) / 2; j++, p++) {
                    psi = Math.max(psi, values[p][0] + Math.log1p(values[p][1]));
                }
                psi = Math.min(psi, logDp);
            }
            LogSumExp tail = new LogSumExp();
            for (int i = 0; i < m; i++) {
                tail.add(logBinomialBelow(n, q[i], t[i]));
            }
            ladder.put(kept.get(k), new Level(psi, Math.min(0, tail.log())));
        }
    }

    /** The evaluations of a batch of (ha, hb) points. */
    static double[][] evaluate(List<long[]> points, double eps, PairSource source) {
        long[] ha = new long[points.size()];
        long[] hb = new long[points.size()];
        for (int i = 0; i < ha.length; i++) {
            ha[i] = points.get(i)[0];
            hb[i] = points.get(i)[1];
        }
        return ha.length == 0 ? new double[0][] : source.log(ha, hb, eps);
    }

    /**
     * ln of an upper bound on P(Binomial(n, q) < t): the terms summed outward from t - 1 (certified truncation), raised by the
     * truncation bound and 1e-9 relative for the log-pmfs' rounding.
     */
    static double logBinomialBelow(long n, double q, long t) {
        if (t <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (t > n || q == 0) {
            return 0;
        }
        LogConcaveSum.Result r = LogConcaveSum.sum(CountLaw.binomial(n, q), 0, t - 1, k -> 0, 1e-15);
        return Math.min(0, r.logSum() + Math.log1p(r.relativeTruncation()) + 1e-9);
    }

    /** ln of the layer-cake bound over the ladder: Psi made non-decreasing, the last step to T/n. */
    static double bound(TreeMap<Double, Level> ladder, double logDp) {
        LogSumExp s = new LogSumExp();
        double psiPrev = Double.NEGATIVE_INFINITY;
        double tailPrev = 0;
        boolean firstLevel = true;
        for (Level l : ladder.values()) {
            double psi = Math.max(l.logPsi, psiPrev);
            if (firstLevel) {
                s.add(psi);
                firstLevel = false;
            } else if (psi > psiPrev) {
                s.add(psi + LogMath.log1mexp(psiPrev - psi) + tailPrev);
            }
            psiPrev = psi;
            tailPrev = l.logTail;
        }
        if (logDp > psiPrev) {
            s.add(logDp + LogMath.log1mexp(psiPrev - logDp) + tailPrev);
        }
        return s.log();
    }
}
