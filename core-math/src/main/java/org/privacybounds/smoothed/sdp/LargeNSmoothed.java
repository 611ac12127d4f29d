package org.privacybounds.smoothed.sdp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.validation.BadInputException;

/**
 * Certified delta_SDP (seed 000 Algorithm 1) for two categories and at most two vertices at large
 * n, sampling without replacement (design note "The smoothed bound", step 3).
 *
 * <p>An assignment puts n1 records on the vertex with the larger category-1 probability p_hi and
 * n - n1 on the other (p_lo); the histogram is h = Bin(n1, p_hi) + Bin(n - n1, p_lo) and
 * f(n1) = E[delta(h)]. delta_SDP = max over n1 of f(n1). Every n1 in [0, n] is either evaluated
 * exactly or excluded by a proven upper bound:
 * <ul>
 *   <li><b>End scans.</b> For the K assignments next to an end (the "swing" records), h is a fixed
 *   binomial base plus the swing; with C(s) = sum_h base(h) delta(h + s), every f in the scan
 *   follows from C by a recursion of convex combinations in O(K^2) (no deconvolution, no
 *   cancellation). The base is truncated to a window whose left-out part is bounded with the
 *   closed-form {@link ChernoffBound}, and the window widens until that bound is below 1e-14 of
 *   the best value.</li>
 *   <li><b>Branch and bound.</b> For an interval of n1 outside the scans, f(n1) is at most the sum
 *   over blocks of h of (a Bernstein tail bound on the probability of reaching the block) times
 *   (the largest ChernoffBound in the block). Intervals whose bound is below the best evaluated
 *   value are excluded; the others are split. Where delta computed exactly still does not separate
 *   the assignments (f nearly flat), f is evaluated exactly at the ends of each remaining run and
 *   the points between are excluded by a proven slope bound (see {@code lipschitz}).</li>
 * </ul>
 * For n up to {@link #FULL_SCAN_MAX_N} one scan covers every assignment with no truncation at all.
 * delta(h) is requested through a {@link DeltaSource}, so a Spark job can compute it on executors.
 */
public final class LargeNSmoothed {
    /** Below this n every assignment is evaluated by one untruncated scan. */
    public static final int FULL_SCAN_MAX_N = 4_000;
    /** Relative size of what a window may leave out. */
    static final double WINDOW_TOLERANCE = 1e-14;
    private static final int BLOCK = 256;

    /**
     * Computes ln delta(h) for every requested h and every requested eps of the run: result[i][e] (NaN for an eps that was
     * not requested).
     */
    public interface DeltaSource {
        double[][] logDelta(int[] hs, boolean[] eps);
    }

    /** Evaluates a batch of exact expectations (stage 2); Spark spreads it over executors. */
    public interface StageTwo {
        double[][] evaluate(List<Expectation> batch);
    }

    private StageTwo stageTwo = batch -> {
        double[][] out = new double[batch.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = batch.get(i).evaluate();
        }
        return out;
    };

    /** Where stage 2's exact expectations run (default: here, sequentially). */
    public LargeNSmoothed withStageTwo(StageTwo s) {
        this.stageTwo = s;
        return this;
    }

    private final int n;
    private final int sampleSize;
    private final double[] vertexP; // category-1 probability of each vertex, in the caller's order
    private final double pHi;
    private final double pLo;
    private final boolean hiIsFirst;
    private final double[] eps;
    private final DeltaSource source;
    private final DeltaCache cache;
    private Consumer<String> progress = s -> { };
    private long deltaEvaluations;

    private int fullScanMaxN = FULL_SCAN_MAX_N;

    /** For tests: evaluate every assignment by one scan up to this n (default {@link #FULL_SCAN_MAX_N}). */
    LargeNSmoothed fullScanUpTo(int maxN) {
        this.fullScanMaxN = maxN;
        return this;
    }

    public LargeNSmoothed(int n, int sampleSize, DistributionSet vertices, double[] eps, DeltaSource source) {
        if (vertices.categories() != 2 || vertices.size() > 2) {
            throw new BadInputException("Pi", vertices.size() + " vertices over " + vertices.categories() + " categories",
                    "the large-n method needs two categories and at most two hull vertices");
        }
        if (n < 1) {
            throw new BadInputException("n", n, "must be >= 1");
        }
        this.n = n;
        this.sampleSize = sampleSize;
        this.vertexP = new double[vertices.size()];
        for (int i = 0; i < vertexP.length; i++) {
            vertexP[i] = vertices.get(i)[0];
        }
        this.hiIsFirst = vertexP.length == 1 || vertexP[0] >= vertexP[1];
        this.pHi = hiIsFirst ? vertexP[0] : vertexP[1];
        this.pLo = vertexP.length == 1 ? vertexP[0] : (hiIsFirst ? vertexP[1] : vertexP[0]);
        this.eps = eps.clone();
        this.source = source;
        this.cache = new DeltaCache(n, eps.length);
    }

    /** The default source: delta(h) computed here, sequentially. */
    public static DeltaSource local(SamplingHistogramMechanism mechanism, int n, double[] eps) {
        return (hs, which) -> {
            double[][] out = new double[hs.length][eps.length];
            for (int i = 0; i < hs.length; i++) {
                for (int e = 0; e < eps.length; e++) {
                    out[i][e] = which[e] ? mechanism.profile(new int[] {hs[i], n - hs[i]}, eps[e]).logDelta() : Double.NaN;
                }
            }
            return out;
        };
    }

    /** Receives progress lines. */
    public LargeNSmoothed onProgress(Consumer<String> listener) {
        this.progress = listener;
        return this;
    }

    /** Number of delta(h) values computed so far (each for every eps). */
    public long deltaEvaluations() {
        return deltaEvaluations;
    }

    /** delta_SDP for every eps of the run. */
    public List<SmoothedValue> solve() {
        List<SmoothedValue> out = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            out.add(solve(e));
        }
        return out;
    }

    // ------------------------------------------------------------------ one eps

    private SmoothedValue solve(int e) {
        if (sampleSize == n || sampleSize == 0) {
            // T = n: the output is the histogram itself, delta = 1 for every database; T = 0: nothing is released
            return new SmoothedValue(eps[e], sampleSize == n ? 0 : Double.NEGATIVE_INFINITY, vertexP.length == 1 ? new int[] {n}
                    : (hiIsFirst ? new int[] {n, 0} : new int[] {0, n}), 0,
                    sampleSize == n ? "closed form: T = n, delta = 1 for every database" : "closed form: T = 0, nothing released",
                    n + 1L, 0);
        }
        if (vertexP.length == 1 || pHi == pLo) {
            double[] bm = n <= fullScanMaxN ? null : blockMax(new ChernoffBound(n, sampleSize, eps[e]));
            Scan s = scan(e, true, 0, bm);
            return value(e, s.bestLog, n, s.relErr(), 1, 0, "exact: one assignment, certified truncation of the binomial");
        }
        if (n <= fullScanMaxN) {
            Scan s = scan(e, true, n, null);
            return value(e, s.bestLog, s.bestN1, s.relErr(), n + 1L, 0, "exact: every assignment evaluated, no truncation");
        }
        ChernoffBound ub = new ChernoffBound(n, sampleSize, eps[e]);
        HypergeometricBound tight = new HypergeometricBound(n, sampleSize, eps[e]);
        double[] blockMax = blockMax(ub);
        // start at the more extreme vertex
        boolean hiFirst = Math.max(pHi, 1 - pHi) >= Math.max(pLo, 1 - pLo);
        int kHi = hiFirst ? 2048 : -1;
        int kLo = hiFirst ? -1 : 2048;
        Scan sHi = kHi >= 0 ? scan(e, true, kHi, blockMax) : null;
        Scan sLo = kLo >= 0 ? scan(e, false, kLo, blockMax) : null;
        while (true) {
            refreshBlocks(blockMax, tight, e);
            Scan best = better(sHi, sLo);
            int midFrom = (sLo == null ? 0 : kLo + 1);
            int midTo = (sHi == null ? n : n - kHi - 1);
            List<int[]> unresolved = new ArrayList<>();
            long excluded = midTo >= midFrom ? branchAndBound(midFrom, midTo, best.bestLog, blockMax, e, unresolved) : 0;
            if (unresolved.isEmpty()) {
                long evaluated = (sHi == null ? 0 : kHi + 1L) + (sLo == null ? 0 : kLo + 1L);
                return value(e, best.bestLog, best.bestN1, best.relErr(), evaluated, excluded,
                        "exact: " + evaluated + " assignments evaluated, " + excluded + " excluded by a proven bound; certified truncation");
            }
            // first tighten the bound: the per-h Chernoff bound, then exact delta(h), where the unresolved assignments put their mass
            if (refineBlocks(blockMax, tight, massRanges(unresolved)) > 0) {
                continue;
            }
            if (refineWithExactDelta(unresolved, e)) {
                continue;
            }
            return lipschitz(e, unresolved, sHi, sLo, kHi, kLo, blockMax);
        }
    }

    /**
     * The assignments no bound on delta alone separates (f nearly flat): exact f at the ends of
     * each unresolved run of n1, and between two evaluated points the proven bound
     * f(n1) <= (f(a) + f(b) + (b - a) s) / 2, where s bounds |f(n1 + 1) - f(n1)|
     * = (p_hi - p_lo) |E[delta(h' + 1) - delta(h')]| (one record moved between the vertices) by block
     * maxima of |delta(h + 1) - delta(h)| with Bernstein tails. Intervals that the bound does not
     * exclude are halved and their midpoint evaluated.
     */
    private SmoothedValue lipschitz(int e, List<int[]> unresolved, Scan sHi, Scan sLo, int kHi, int kLo, double[] blockMax) {
        Scan sb = better(sHi, sLo);
        Best best = new Best(sb.bestLog, sb.bestN1, sb.relErr());
        double[] slope = slopeBlocks(blockMax, e);
        // merge the unresolved leaves into runs
        unresolved.sort((x, y) -> Integer.compare(x[0], y[0]));
        List<int[]> runs = new ArrayList<>();
        for (int[] iv : unresolved) {
            if (!runs.isEmpty() && runs.get(runs.size() - 1)[1] + 1 >= iv[0]) {
                runs.get(runs.size() - 1)[1] = Math.max(runs.get(runs.size() - 1)[1], iv[1]);
            } else {
                runs.add(iv.clone());
            }
        }
        long evaluated = (sHi == null ? 0 : kHi + 1L) + (sLo == null ? 0 : kLo + 1L);
        // known: n1 -> {ln f (lower bound), ln (f + truncation) (upper bound)}
        Map<Integer, double[]> known = new HashMap<>();
        List<Integer> first = new ArrayList<>();
        for (int[] run : runs) {
            first.add(run[0]);
            if (run[1] != run[0]) {
                first.add(run[1]);
            }
        }
        evaluateBatch(first, e, best, known, blockMax);
        long points = first.size();
        List<int[]> frontier = new ArrayList<>(runs);
        while (!frontier.isEmpty()) {
            List<int[]> split = new ArrayList<>();
            List<Integer> mids = new ArrayList<>();
            for (int[] iv : frontier) {
                if (iv[1] - iv[0] <= 1) {
                    continue;
                }
                double fa = Math.exp(known.get(iv[0])[1] - best.logF);
                double fb = Math.exp(known.get(iv[1])[1] - best.logF);
                double sl = Math.exp(slopeBound(iv[0], iv[1], slope, best.logF) - best.logF);
                double lip = (fa + fb + (iv[1] - iv[0]) * sl) / 2;
                double byDelta = Math.exp(intervalBound(iv[0] + 1, iv[1] - 1, blockMax, best.logF) - best.logF);
                if (Math.min(lip, byDelta) <= 1 - 1e-9) {
                    continue;
                }
                split.add(iv);
                mids.add((int) (((long) iv[0] + iv[1]) >>> 1));
            }
            if (mids.isEmpty()) {
                break;
            }
            evaluateBatch(mids, e, best, known, blockMax);
            points += mids.size();
            List<int[]> next = new ArrayList<>();
            for (int i = 0; i < split.size(); i++) {
                next.add(new int[] {split.get(i)[0], mids.get(i)});
                next.add(new int[] {mids.get(i), split.get(i)[1]});
            }
            frontier = next;
        }
        evaluated += points;
        long excluded = n + 1L - evaluated;
        progress.accept(String.format("slope bound, eps = %s: %d more assignments evaluated exactly, %d excluded in all", eps[e], points, excluded));
        return value(e, best.logF, best.n1, best.relErr, evaluated, excluded,
                "exact: " + evaluated + " assignments evaluated, " + excluded + " excluded by proven bounds (delta and slope); certified truncation");
    }

    /**
     * Exact f at every n1 of a batch, as one stage-2 job: the windows are fixed here (truncation
     * below 1e-14 of the best value so far), delta is computed for each window, and each
     * expectation travels with its own slice of delta. Updates best = {ln f, n1, relative error}.
     */
    private void evaluateBatch(List<Integer> n1s, int e, Best best, Map<Integer, double[]> known, double[] blockMax) {
        double logDp = Math.log((double) sampleSize / n);
        double target = best.logF + Math.log(WINDOW_TOLERANCE);
        List<Expectation> batch = new ArrayList<>();
        List<Expectation.Window> windows = new ArrayList<>();
        List<int[]> ranges = new ArrayList<>();
        for (int n1 : n1s) {
            Expectation.Window w = Expectation.window(n, pHi, pLo, n1, logDp, target, (a, b) -> rangeMax(blockMax, a, b));
            windows.add(w);
            ranges.add(new int[] {w.hFrom(), w.hTo()});
        }
        progress.accept(String.format("exact f at %d assignments, h in [%d, %d]", n1s.size(), ranges.stream().mapToInt(r -> r[0]).min().orElse(0),
                ranges.stream().mapToInt(r -> r[1]).max().orElse(0)));
        ensure(ranges, e); // one stage-1 request for the whole batch, this eps only
        for (int i = 0; i < n1s.size(); i++) {
            int n1 = n1s.get(i);
            Expectation.Window w = windows.get(i);
            double[] slice = new double[w.hTo() - w.hFrom() + 1];
            for (int j = 0; j < slice.length; j++) {
                slice[j] = delta(w.hFrom() + j, e);
            }
            batch.add(new Expectation(n, pHi, pLo, n1, w.xl(), w.xr(), w.yl(), w.yr(), w.hFrom(), slice, w.logTail()));
        }
        double[][] r = stageTwo.evaluate(batch);
        for (int i = 0; i < r.length; i++) {
            int n1 = n1s.get(i);
            known.put(n1, new double[] {r[i][0], LogMath.logAdd(r[i][0], r[i][1])});
            if (r[i][0] > best.logF) {
                best.logF = r[i][0];
                best.n1 = n1;
                best.relErr = r[i][1] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(r[i][1] - r[i][0]);
            }
        }
    }

    /** The best assignment evaluated so far: ln f, its n1 (records on the p_hi vertex) and the relative error of f. */
    private static final class Best {
        double logF;
        int n1;
        double relErr;

        Best(double logF, int n1, double relErr) {
            this.logF = logF;
            this.n1 = n1;
            this.relErr = relErr;
        }
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
        int mode = Math.max(lo, Math.min(hi, law.mode()));
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

    /** Per block, ln of the largest |delta(h+1) - delta(h)| (exact where known, else the Chernoff block maxima). */
    private double[] slopeBlocks(double[] blockMax, int e) {
        double[] s = new double[blockMax.length];
        for (int blk = 0; blk < s.length; blk++) {
            int lo = blk * BLOCK;
            int hi = Math.min(n - 1, lo + BLOCK - 1);
            double m = Double.NEGATIVE_INFINITY;
            boolean exact = true;
            for (int h = lo; h <= hi && exact; h++) {
                double la = cache.get(Math.min(h, n - h), e);
                double lb = cache.get(Math.min(h + 1, n - h - 1), e);
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

    /** ln of a bound on |f(n1 + 1) - f(n1)| for every n1 in [a, b - 1]. */
    private double slopeBound(int a, int b, double[] slope, double floorLog) {
        // h' counts the n - 1 records other than the one that moves
        double var = Math.max(variance(a, n - 1), variance(b - 1, n - 1));
        return Math.log(pHi - pLo) + blockSum(mean(a, n - 1), mean(b - 1, n - 1), var, slope,
                floorLog - Math.log(pHi - pLo) - Math.log(Math.max(1, b - a)));
    }

    /**
     * Sum over blocks of (Bernstein bound on reaching the block) x (block value): blocks between
     * the means count once, at their largest value. Blocks further than the distance beyond which
     * even the largest block value times the Bernstein factor is below e^-60 of the largest value
     * are not visited; their total is bounded by (number of blocks) x (that factor) x (largest value).
     */
    private double blockSum(double muA, double muB, double var, double[] blocks, double floorLog) {
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

    /**
     * Computes exact delta(h) over the h-ranges (mean +- 8 sd) of the unresolved assignments that
     * are not known yet (the next {@link #refreshBlocks} then lowers the block maxima there from the
     * Chernoff bound to the exact values). Returns false when there was nothing left to compute.
     */
    private boolean refineWithExactDelta(List<int[]> unresolved, int e) {
        return ensure(massRanges(unresolved), e) > 0;
    }

    /** The values of h where the unresolved assignments put their mass (means +- 8 standard deviations). */
    private List<int[]> massRanges(List<int[]> unresolved) {
        double sd = Math.sqrt(n * 0.25) + 1;
        List<int[]> ranges = new ArrayList<>();
        for (int[] iv : unresolved) {
            ranges.add(new int[] {(int) Math.max(0, Math.floor(mean(iv[0], n) - 8 * sd)), (int) Math.min(n, Math.ceil(mean(iv[1], n) + 8 * sd))});
        }
        return ranges;
    }

    private SmoothedValue value(int e, double logDelta, int n1Hi, double relErr, long evaluated, long excluded, String method) {
        int[] assignment;
        if (vertexP.length == 1) {
            assignment = new int[] {n};
        } else {
            assignment = hiIsFirst ? new int[] {n1Hi, n - n1Hi} : new int[] {n - n1Hi, n1Hi};
        }
        return new SmoothedValue(eps[e], logDelta, assignment, relErr + SamplingHistogramMechanism.FLOATING_POINT_ALLOWANCE + 1e-12,
                method, evaluated, excluded);
    }

    private static Scan better(Scan a, Scan b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.bestLog >= b.bestLog ? a : b;
    }

    // ------------------------------------------------------------------ end scans

    /** The result of one end scan: best f, its n1 (records on the p_hi vertex) and the truncation bound. */
    private record Scan(double bestLog, int bestN1, double logSkipped) {
        double relErr() {
            return logSkipped == Double.NEGATIVE_INFINITY ? 0 : Math.exp(logSkipped - bestLog);
        }
    }

    /**
     * Exact f for the K + 1 assignments at one end: n - K records on the end's vertex ("main") and
     * K swing records, k of them on the other vertex, k = 0..K.
     */
    private Scan scan(int e, boolean hiEnd, int kSwing, double[] blockMax) {
        double pm = hiEnd ? pHi : pLo;
        double po = hiEnd ? pLo : pHi;
        int baseN = n - kSwing;
        CountLaw base = CountLaw.binomial(baseN, pm);
        double sd = Math.sqrt(baseN * pm * (1 - pm)) + 1;
        double z = 10;
        while (true) {
            int hl;
            int hr;
            if (blockMax == null) { // full: no truncation
                hl = base.lower();
                hr = base.upper();
            } else {
                hl = (int) Math.max(base.lower(), Math.floor(base.mode() - z * sd));
                hr = (int) Math.min(base.upper(), Math.ceil(base.mode() + z * sd));
            }
            progress.accept(String.format("scan %s end: K = %d, window h in [%d, %d], eps = %s", hiEnd ? "high" : "low", kSwing, hl, hr + kSwing, eps[e]));
            // the first window is the same for every eps: computed once for all of them; a widening serves this eps alone
            ensure(List.of(new int[] {hl, hr + kSwing}), z == 10 ? -1 : e);
            // C(s) = sum_h base(h) delta(h + s), in scaled doubles
            int w = hr - hl + 1;
            double[] lb = new double[w];
            double maxB = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < w; i++) {
                lb[i] = base.logProbability(hl + i);
                maxB = Math.max(maxB, lb[i]);
            }
            double[] ld = new double[w + kSwing];
            double maxD = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < ld.length; i++) {
                ld[i] = delta(hl + i, e);
                maxD = Math.max(maxD, ld[i]);
            }
            if (maxD == Double.NEGATIVE_INFINITY) {
                return new Scan(Double.NEGATIVE_INFINITY, hiEnd ? n : 0, Double.NEGATIVE_INFINITY);
            }
            double[] b = new double[w];
            for (int i = 0; i < w; i++) {
                b[i] = Math.exp(lb[i] - maxB);
            }
            double[] d = new double[ld.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = Math.exp(ld[i] - maxD);
            }
            double[] g = new double[kSwing + 1];
            final int width = w;
            java.util.stream.IntStream.rangeClosed(0, kSwing).parallel().forEach(sw -> { // each C(s) on its own: the same sums in any order
                double acc = 0;
                for (int i = 0; i < width; i++) {
                    acc += b[i] * d[i + sw];
                }
                g[sw] = acc;
            });
            double scale = maxB + maxD;
            // f(k) = sum_u Bin(u; k, po) G_{K-k}(u); G_{j+1}(u) = pm G_j(u+1) + (1 - pm) G_j(u)
            double best = Double.NEGATIVE_INFINITY;
            int bestK = 0;
            double skippedU = Double.NEGATIVE_INFINITY;
            double gMax = 0;
            for (double v : g) {
                gMax = Math.max(gMax, v);
            }
            for (int j = 0; j <= kSwing; j++) {
                int k = kSwing - j;
                CountLaw other = CountLaw.binomial(k, po);
                double sdk = Math.sqrt(k * po * (1 - po)) + 1;
                int uLo = (int) Math.max(0, Math.floor(other.mode() - 40 * sdk));
                int uHi = (int) Math.min(k, Math.ceil(other.mode() + 40 * sdk));
                double acc = binomialDot(other, k, po, uLo, uHi, g);
                if (uLo > 0 || uHi < k) { // Bernstein: Pr[|U - mean| >= 39 sd] and G <= gMax
                    double t = 39 * sdk;
                    double var = k * po * (1 - po);
                    skippedU = Math.max(skippedU, Math.log(2) - t * t / (2 * (var + t / 3)) + Math.log(gMax) + scale);
                }
                double lf = acc > 0 ? Math.log(acc) + scale : Double.NEGATIVE_INFINITY;
                if (lf > best) {
                    best = lf;
                    bestK = k;
                }
                if (j < kSwing) {
                    int len = kSwing - j; // G_{j+1} on u in [0, K - j - 1]
                    for (int u = 0; u < len; u++) {
                        g[u] = pm * g[u + 1] + (1 - pm) * g[u];
                    }
                }
            }
            int bestN1 = hiEnd ? n - bestK : bestK;
            if (blockMax == null) {
                return new Scan(best, bestN1, skippedU);
            }
            double skipped = LogMath.logAdd(skippedU, windowTail(base, baseN, pm, hl, hr, kSwing, blockMax, best));
            if (skipped - best <= Math.log(WINDOW_TOLERANCE) || (hl == base.lower() && hr == base.upper())) {
                return new Scan(best, bestN1, skipped);
            }
            z *= 1.5;
        }
    }

    /**
     * Bound on sum over h outside [hl, hr] of base(h) max_{s in [0, K]} UB(h + s): terms are
     * summed outward while they matter, then the rest is bounded by Chernoff times T/n.
     */
    private double windowTail(CountLaw base, int baseN, double pm, int hl, int hr, int kSwing, double[] blockMax, double best) {
        double logDp = Math.log((double) sampleSize / n);
        double stop = best + Math.log(WINDOW_TOLERANCE) - 40;
        double acc = Double.NEGATIVE_INFINITY;
        for (int dir = -1; dir <= 1; dir += 2) {
            int h = dir < 0 ? hl - 1 : hr + 1;
            while (h >= base.lower() && h <= base.upper()) {
                double lp = base.logProbability(h);
                acc = LogMath.logAdd(acc, lp + windowMax(h, kSwing, blockMax));
                // Chernoff: Pr[X <= h] (or >= h) for X ~ Bin(baseN, pm)
                double a = (double) h / baseN;
                double tail = ((dir < 0 && a < pm) || (dir > 0 && a > pm)) ? -baseN * ChernoffBound.kl(a, pm) : 0;
                if (tail + logDp < stop) {
                    acc = LogMath.logAdd(acc, tail + logDp);
                    break;
                }
                h += dir;
            }
        }
        return acc;
    }

    /**
     * The largest block maximum over h in [a, b] (within [0, n]): an upper bound on ln delta there (plus 1e-9 for the
     * relative error of the exact values some blocks hold).
     */
    private static double rangeMax(double[] blockMax, long a, long b) {
        double m = Double.NEGATIVE_INFINITY;
        for (long blk = a / BLOCK; blk <= b / BLOCK && blk < blockMax.length; blk++) {
            m = Math.max(m, blockMax[(int) blk]);
        }
        return m + 1e-9;
    }

    /** An upper bound on max_{s in [0, K]} UB(h + s) from the block maxima. */
    private double windowMax(int h, int kSwing, double[] blockMax) {
        int b0 = h / BLOCK;
        int b1 = Math.min(blockMax.length - 1, (h + kSwing) / BLOCK);
        double m = Double.NEGATIVE_INFINITY;
        for (int b = b0; b <= b1; b++) {
            m = Math.max(m, blockMax[b]);
        }
        return m;
    }

    // ------------------------------------------------------------------ branch and bound

    /**
     * Upper bounds on ln delta(h) per block of {@link #BLOCK} values of h, one {@link ChernoffBound#logUpperOver} per block
     * (and its mirror, delta(h) = delta(n - h)), in parallel: O(n / BLOCK) logarithms instead of O(n). Blocks are refined to
     * the per-h bound only where a branch and bound needs it ({@link #refineBlocks}).
     */
    private double[] blockMax(ChernoffBound ub) {
        int blocks = n / BLOCK + 1;
        double[] m = new double[blocks];
        fine = new boolean[blocks];
        java.util.stream.IntStream.range(0, blocks).parallel().forEach(b -> {
            int lo = b * BLOCK;
            int hi = Math.min(n, lo + BLOCK - 1);
            m[b] = Math.min(ub.logUpperOver(lo, hi), ub.logUpperOver(n - hi, n - lo));
        });
        return m;
    }

    /** Which blocks hold the per-h bound (or exact delta) rather than the block bound. */
    private boolean[] fine;

    /**
     * Replaces the block bound by the largest per-h bound min(UB(h), UB(n - h)) ({@link HypergeometricBound}) in every block that meets the ranges of h and is
     * not refined yet (in parallel); returns how many blocks changed.
     */
    private int refineBlocks(double[] m, HypergeometricBound ub, List<int[]> hRanges) {
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
            progress.accept("refined the bound per h (hypergeometric tails) in " + todo.size() + " blocks of " + BLOCK);
        }
        return todo.size();
    }

    /** Block maxima after new delta values: exact delta where it is known, the per-h bound elsewhere. */
    private void refreshBlocks(double[] m, HypergeometricBound ub, int e) {
        // blocks are independent (each writes its own slot): in parallel
        java.util.stream.IntStream.range(0, m.length).parallel().forEach(blk -> {
            int lo = blk * BLOCK;
            int hi = Math.min(n, lo + BLOCK - 1);
            if (!cache.has(Math.min(lo, n - lo), e) && !cache.has(Math.min(hi, n - hi), e)) {
                return;
            }
            double v = Double.NEGATIVE_INFINITY;
            for (int h = lo; h <= hi; h++) {
                double c = cache.get(Math.min(h, n - h), e);
                v = Math.max(v, !Double.isNaN(c) ? c : ub.logUpper(h));
            }
            m[blk] = v;
            fine[blk] = true;
        });
    }

    /** Excludes what it can of [from, to]; returns the number excluded and fills unresolved intervals. */
    private long branchAndBound(int from, int to, double bestLog, double[] blockMax, int e, List<int[]> unresolved) {
        double threshold = bestLog + Math.log1p(-1e-9);
        long excluded = 0;
        // breadth first, one level at a time: the interval bounds of a level are independent (read-only arrays), so they are
        // evaluated in parallel; the outcome does not depend on the order
        List<int[]> level = new ArrayList<>();
        level.add(new int[] {from, to});
        while (!level.isEmpty()) {
            final List<int[]> cur = level;
            double[] bound = java.util.stream.IntStream.range(0, cur.size()).parallel()
                    .mapToDouble(i -> intervalBound(cur.get(i)[0], cur.get(i)[1], blockMax, bestLog)).toArray();
            List<int[]> next = new ArrayList<>();
            for (int i = 0; i < cur.size(); i++) {
                int[] iv = cur.get(i);
                if (bound[i] <= threshold) {
                    excluded += iv[1] - iv[0] + 1L;
                } else if (iv[1] - iv[0] < 64) {
                    unresolved.add(iv);
                } else {
                    int mid = (int) (((long) iv[0] + iv[1]) >>> 1);
                    next.add(new int[] {iv[0], mid});
                    next.add(new int[] {mid + 1, iv[1]});
                }
            }
            level = next;
        }
        progress.accept(String.format("branch and bound, eps = %s: %d assignments excluded, %d intervals left%s", eps[e], excluded, unresolved.size(),
                unresolved.isEmpty() ? "" : " (n1 on the p_hi vertex in [" + unresolved.stream().mapToInt(iv -> iv[0]).min().getAsInt() + ", "
                        + unresolved.stream().mapToInt(iv -> iv[1]).max().getAsInt() + "])"));
        return excluded;
    }

    /**
     * Upper bound on f(n1) for every n1 in [a, b]: h has mean in [mu(a), mu(b)] and variance at
     * most sigma^2; blocks below or above that range are reached with Bernstein-bounded
     * probability, blocks inside with probability at most 1 (taken once, at their largest UB).
     */
    double intervalBound(int a, int b, double[] blockMax, double floorLog) {
        return blockSum(mean(a, n), mean(b, n), Math.max(variance(a, n), variance(b, n)), blockMax, floorLog);
    }

    /** Mean of h when {@code onHi} of {@code total} records are on the p_hi vertex and the rest on p_lo. */
    private double mean(int onHi, int total) {
        return onHi * pHi + (double) (total - onHi) * pLo;
    }

    /** Variance of h for the same split. */
    private double variance(int onHi, int total) {
        return onHi * pHi * (1 - pHi) + (double) (total - onHi) * pLo * (1 - pLo);
    }

    // ------------------------------------------------------------------ delta cache

    private double delta(int h, int e) {
        return cache.get(Math.min(h, n - h), e);
    }

    /**
     * Computes (in one request to the source) delta(h) for every h of the ranges not known yet, for eps index {@code only}
     * alone (what a branch and bound or an expectation of that eps needs), or for every eps when {@code only < 0}.
     */
    private int ensure(List<int[]> ranges, int only) {
        boolean[] which = new boolean[eps.length];
        for (int e = 0; e < eps.length; e++) {
            which[e] = only < 0 || e == only;
        }
        java.util.Set<Integer> uniq = new java.util.LinkedHashSet<>();
        for (int[] r : ranges) {
            for (int h = Math.max(0, r[0]); h <= Math.min(n, r[1]); h++) {
                int key = Math.min(h, n - h);
                for (int e = 0; e < eps.length; e++) {
                    if (which[e] && !cache.has(key, e)) {
                        uniq.add(key);
                        break;
                    }
                }
            }
        }
        if (uniq.isEmpty()) {
            return 0;
        }
        int[] hs = uniq.stream().mapToInt(Integer::intValue).toArray();
        progress.accept("computing delta(h) for " + hs.length + " values of h" + (only < 0 ? "" : " at eps = " + eps[only]));
        double[][] v = source.logDelta(hs, which);
        for (int i = 0; i < hs.length; i++) {
            cache.put(hs[i], v[i]);
        }
        deltaEvaluations += hs.length;
        return hs.length;
    }
}
