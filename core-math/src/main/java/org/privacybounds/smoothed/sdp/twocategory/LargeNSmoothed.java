package org.privacybounds.smoothed.sdp.twocategory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.SmoothedValue;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Certified delta_SDP (Liu, Wang and Xia, "Smoothed Differential Privacy", Algorithm 1) for two categories and at most two vertices at large
 * n, sampling without replacement (docs/computing.md).
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
 *
 * <p>This class holds the search (one eps: end scans, branch and bound, exact batches, the slope bound); the end scans
 * are in {@link EndScan}, the certified bounds per block of h in {@link BlockBounds}, and what they share (n, T, the
 * vertices, the cache of delta) in {@link LargeNProblem}.
 *
 * <p>Example (n = 10^6, 0.2 % of the ballots lost, two vertices, eps = 1; delta(h) computed here):
 * <pre>{@code
 * SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 998_000);
 * DistributionSet pi = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}),
 *         List.of("1920", "2020"), "Pi");
 * double[] eps = {1};
 * SmoothedValue v = new LargeNSmoothed(1_000_000, 998_000, pi, eps, LargeNSmoothed.local(m, 1_000_000, eps)).solve().get(0);
 * }</pre>
 */
public final class LargeNSmoothed {
    /** Below this n every assignment is evaluated by one untruncated scan. */
    public static final int FULL_SCAN_MAX_N = 4_000;

    /** Evaluates a batch of exact expectations (stage 2); Spark spreads it over executors. */
    public interface StageTwo {
        double[][] evaluate(List<Expectation> batch);
    }

    /** Stage 2 here, sequentially. */
    public static final StageTwo SEQUENTIAL_STAGE_TWO = batch -> {
        double[][] out = new double[batch.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = batch.get(i).evaluate();
        }
        return out;
    };

    /** Stage 2 in parallel here, on the fork-join pool the caller runs in. */
    public static final StageTwo PARALLEL_STAGE_TWO = batch -> batch.parallelStream().map(Expectation::evaluate).toArray(double[][]::new);

    /**
     * How a run is carried out (none of it changes a value): where stage 2 runs, whether the eps are solved at once
     * ({@link ParallelEpsilons}), the projected work past which a run stops ({@link BadInputException} naming it), where
     * progress lines go, and up to which n every assignment is evaluated by one scan.
     */
    public record Options(StageTwo stageTwo, boolean parallelEpsilons, double workLimitSeconds, Consumer<String> progress, int fullScanMaxN) {
        /** Stage 2 here and sequentially, one eps after the other, no work limit, no progress lines. */
        public static Options defaults() {
            return new Options(SEQUENTIAL_STAGE_TWO, false, Double.POSITIVE_INFINITY, line -> { }, FULL_SCAN_MAX_N);
        }

        /** Stage 2's exact expectations run there. */
        public Options withStageTwo(StageTwo s) {
            return new Options(s, parallelEpsilons, workLimitSeconds, progress, fullScanMaxN);
        }

        /**
         * The eps of the run solved at once, on the fork-join pool the caller runs in. Only where the {@link DeltaSource} and
         * {@link StageTwo} compute on this pool's threads (as {@link #parallel} does): a source that waits inside a pool task
         * for work that needs a thread of the same pool can deadlock.
         */
        public Options withParallelEpsilons() {
            return new Options(stageTwo, true, workLimitSeconds, progress, fullScanMaxN);
        }

        /** Stops a run whose exact evaluations are projected (from the time they took so far) past this many seconds. */
        public Options withWorkLimit(double seconds) {
            return new Options(stageTwo, parallelEpsilons, seconds, progress, fullScanMaxN);
        }

        /** Progress lines go there, one at a time (the eps may be solved at once). */
        public Options withProgress(Consumer<String> listener) {
            return new Options(stageTwo, parallelEpsilons, workLimitSeconds, listener, fullScanMaxN);
        }

        /** For tests: every assignment by one scan up to this n. */
        Options withFullScanUpTo(int maxN) {
            return new Options(stageTwo, parallelEpsilons, workLimitSeconds, progress, maxN);
        }
    }

    private final long n;
    private final long sampleSize;
    private final double[] vertexP; // category-1 probability of each vertex, in the caller's order
    private final double pHi;
    private final double pLo;
    private final boolean hiIsFirst;
    private final double[] eps;
    private final LargeNProblem problem;
    private final StageTwo stageTwo;
    private final Consumer<String> progress;
    private final Options options;

    /** A run with {@link Options#defaults()}. */
    public LargeNSmoothed(long n, long sampleSize, DistributionSet vertices, double[] eps, DeltaSource source) {
        this(n, sampleSize, vertices, eps, source, Options.defaults());
    }

    public LargeNSmoothed(long n, long sampleSize, DistributionSet vertices, double[] eps, DeltaSource source, Options options) {
        if (vertices.categories() != 2 || vertices.size() > 2) {
            throw new BadInputException(Parameter.PI, vertices.size() + " vertices over " + vertices.categories() + " categories",
                    "the large-n method needs two categories and at most two hull vertices");
        }
        if (n < 1) {
            throw new BadInputException(Parameter.N, n, "must be >= 1");
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
        this.options = options;
        this.stageTwo = options.stageTwo();
        Consumer<String> listener = options.progress();
        this.progress = line -> { // one line at a time: the eps may be solved at once
            synchronized (listener) {
                listener.accept(line);
            }
        };
        this.problem = new LargeNProblem(n, sampleSize, pHi, pLo, this.eps, source);
        problem.progress = progress;
    }

    /** The default source: delta(h) computed here, sequentially. */
    public static DeltaSource local(SamplingHistogramMechanism mechanism, long n, double[] eps) {
        double[] e = eps.clone();
        return (hs, which) -> {
            double[][] out = new double[hs.length][];
            for (int i = 0; i < hs.length; i++) {
                out[i] = logDeltas(mechanism, n, hs[i], e, which);
            }
            return out;
        };
    }

    /**
     * A source that computes delta(h) here in parallel, on the fork-join pool the caller runs in (the common pool, or the
     * pool of a task submitted to one); each h on its own, so the values do not depend on the split.
     */
    public static DeltaSource parallel(SamplingHistogramMechanism mechanism, long n, double[] eps) {
        double[] e = eps.clone();
        return (hs, which) -> {
            double[][] out = new double[hs.length][];
            IntStream.range(0, hs.length).parallel().forEach(i -> out[i] = logDeltas(mechanism, n, hs[i], e, which));
            return out;
        };
    }

    /** ln delta_eps of the histogram (h, n - h) for each eps with {@code which} set, NaN for the others. */
    public static double[] logDeltas(SamplingHistogramMechanism mechanism, long n, long h, double[] eps, boolean[] which) {
        double[] r = new double[eps.length];
        ProfileValue[] v = mechanism.profiles(new long[] {h, n - h}, eps, which);
        for (int k = 0; k < eps.length; k++) {
            r[k] = which[k] ? v[k].logDelta() : Double.NaN;
        }
        return r;
    }

    /** Number of delta(h) values computed so far (each for every eps). */
    public long deltaEvaluations() {
        return problem.deltaEvaluations.get();
    }

    /** The scheduler of this run's eps (set by {@link #solve()}). */
    private ParallelEpsilons scheduler = ParallelEpsilons.sequential();

    /**
     * Above this n the eps are solved one after the other even with {@link Options#withParallelEpsilons}: past 2^20 blocks of h
     * the block loops dominate and already use every core, and solving eps at once only keeps more of their arrays alive
     * (measured at n = 3e9 with 12 eps: 77.0 s and 1.70 GB resident at once, 73.2 s and 1.34 GB one after the other; at
     * n = 1e7 at once is what makes two threads 1.86x one).
     */
    public static final long PARALLEL_EPSILONS_MAX_N = 1L << 28;

    /** delta_SDP for every eps of the run. */
    public List<SmoothedValue> solve() {
        if (!options.parallelEpsilons() || eps.length == 1 || !searches() || n > PARALLEL_EPSILONS_MAX_N) {
            scheduler = ParallelEpsilons.sequential();
            List<SmoothedValue> out = new ArrayList<>();
            for (int e = 0; e < eps.length; e++) {
                out.add(solve(e));
            }
            return out;
        }
        // the one window every eps shares (the first of the end scan) is computed for all of them before they start
        problem.ensure(List.of(EndScan.firstWindow(problem, startAtHi(), END_K)), -1);
        scheduler = new ParallelEpsilons();
        return scheduler.solve(eps, this::solve);
    }

    private void checkAbandoned() {
        scheduler.checkAbandoned();
    }

    /** Whether the run takes the search (end scan, branch and bound) rather than a closed form, one assignment or a full scan. */
    private boolean searches() {
        return sampleSize != n && sampleSize != 0 && vertexP.length == 2 && pHi != pLo && n > options.fullScanMaxN();
    }

    /** Whether the search starts with the scan at the p_hi end (the more extreme vertex). */
    private boolean startAtHi() {
        return Math.max(pHi, 1 - pHi) >= Math.max(pLo, 1 - pLo);
    }

    /** Assignments in the end scan (K + 1 of them, next to the end of the more extreme vertex). */
    static final int END_K = 2048;

    // ------------------------------------------------------------------ one eps

    private SmoothedValue solve(int e) {
        if (sampleSize == n || sampleSize == 0) {
            // T = n: the output is the histogram itself, delta = 1 for every database; T = 0: nothing is released
            return new SmoothedValue(eps[e], sampleSize == n ? 0 : Double.NEGATIVE_INFINITY, vertexP.length == 1 ? new long[] {n}
                    : (hiIsFirst ? new long[] {n, 0} : new long[] {0, n}), 0,
                    sampleSize == n ? "closed form: T = n, delta = 1 for every database" : "closed form: T = 0, nothing released",
                    n + 1L, 0);
        }
        if (vertexP.length == 1 || pHi == pLo) {
            BlockBounds bm = n <= options.fullScanMaxN() ? null : new BlockBounds(problem, new ChernoffBound(n, sampleSize, eps[e]));
            EndScan.Scan s = EndScan.scan(problem, e, true, 0, bm, new HypergeometricBound(n, sampleSize, eps[e]));
            return value(e, s.bestLog(), n, s.relErr(), 1, 0, "exact: one assignment, certified truncation of the binomial");
        }
        if (n <= options.fullScanMaxN()) {
            EndScan.Scan s = EndScan.scan(problem, e, true, (int) n, null, null);
            return value(e, s.bestLog(), s.bestN1(), s.relErr(), n + 1L, 0, "exact: every assignment evaluated, no truncation");
        }
        ChernoffBound ub = new ChernoffBound(n, sampleSize, eps[e]);
        HypergeometricBound tight = new HypergeometricBound(n, sampleSize, eps[e]);
        BlockBounds blockMax = new BlockBounds(problem, ub);
        // start at the more extreme vertex
        boolean hiFirst = startAtHi();
        int kHi = hiFirst ? END_K : -1;
        int kLo = hiFirst ? -1 : END_K;
        EndScan.Scan sHi = kHi >= 0 ? EndScan.scan(problem, e, true, kHi, blockMax, tight) : null;
        EndScan.Scan sLo = kLo >= 0 ? EndScan.scan(problem, e, false, kLo, blockMax, tight) : null;
        // the branch and bound first stops at intervals of COARSE assignments: while the block bounds are still refined, the
        // deep levels (tens of thousands of intervals) would be recomputed anyway. Once refining changes nothing it goes down
        // to FINE, and the exact delta and the slope bound work on those intervals
        int leaf = COARSE;
        while (true) {
            checkAbandoned();
            blockMax.refresh(tight, e);
            EndScan.Scan best = EndScan.Scan.better(sHi, sLo);
            long midFrom = (sLo == null ? 0 : kLo + 1);
            long midTo = (sHi == null ? n : n - kHi - 1);
            List<Span> unresolved = new ArrayList<>();
            long excluded = midTo >= midFrom ? branchAndBound(midFrom, midTo, best.bestLog(), blockMax, e, unresolved, leaf) : 0;
            if (unresolved.isEmpty()) {
                long evaluated = (sHi == null ? 0 : kHi + 1L) + (sLo == null ? 0 : kLo + 1L);
                return value(e, best.bestLog(), best.bestN1(), best.relErr(), evaluated, excluded,
                        "exact: " + evaluated + " assignments evaluated, " + excluded + " excluded by a proven bound; certified truncation");
            }
            // first tighten the bound: the per-h Chernoff bound, then exact delta(h), where the unresolved assignments put their mass
            if (blockMax.refine(tight, massRanges(unresolved)) > 0) {
                continue;
            }
            if (leaf > FINE) {
                leaf = FINE;
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
    private SmoothedValue lipschitz(int e, List<Span> unresolved, EndScan.Scan sHi, EndScan.Scan sLo, int kHi, int kLo, BlockBounds blockMax) {
        EndScan.Scan sb = EndScan.Scan.better(sHi, sLo);
        Best best = new Best(sb.bestLog(), sb.bestN1(), sb.relErr());
        BlockBounds.Summary slope = new BlockBounds.Summary(blockMax.slopeBlocks(e), blockMax.block);
        // merge the unresolved leaves into runs
        unresolved.sort(Comparator.comparingLong(Span::from));
        List<Span> runs = new ArrayList<>();
        for (Span iv : unresolved) {
            Span last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
            if (last != null && last.to() + 1 >= iv.from()) {
                runs.set(runs.size() - 1, new Span(last.from(), Math.max(last.to(), iv.to())));
            } else {
                runs.add(iv);
            }
        }
        long evaluated = (sHi == null ? 0 : kHi + 1L) + (sLo == null ? 0 : kLo + 1L);
        // known: n1 -> {ln f (lower bound), ln (f + truncation) (upper bound)}
        Map<Long, double[]> known = new HashMap<>();
        List<Long> first = new ArrayList<>();
        for (Span run : runs) {
            first.add(run.from());
            if (run.to() != run.from()) {
                first.add(run.to());
            }
        }
        long evalStart = System.nanoTime();
        evaluateBatch(first, e, best, known, blockMax);
        long evalNanos = System.nanoTime() - evalStart;
        long points = first.size();
        List<Span> frontier = new ArrayList<>(runs);
        boolean excludedAny = false;
        int level = 0;
        while (!frontier.isEmpty()) {
            checkAbandoned();
            List<Span> split = new ArrayList<>();
            List<Long> mids = new ArrayList<>();
            for (Span iv : frontier) {
                if (iv.to() - iv.from() <= 1) {
                    continue;
                }
                double fa = Math.exp(known.get(iv.from())[1] - best.logF);
                double fb = Math.exp(known.get(iv.to())[1] - best.logF);
                double sl = Math.exp(slopeBound(iv.from(), iv.to(), slope, best.logF) - best.logF);
                double lip = (fa + fb + (iv.to() - iv.from()) * sl) / 2;
                double byDelta = Math.exp(intervalBound(iv.from() + 1, iv.to() - 1, blockMax.summary(), best.logF) - best.logF);
                if (Math.min(lip, byDelta) <= 1 - 1e-9) {
                    excludedAny = true;
                    continue;
                }
                split.add(iv);
                mids.add((iv.from() + iv.to()) >>> 1);
            }
            if (mids.isEmpty()) {
                break;
            }
            level++;
            if (!excludedAny && level == PROJECT_AFTER_LEVELS) {
                checkProjection(e, split, points, evalNanos);
            }
            evalStart = System.nanoTime();
            evaluateBatch(mids, e, best, known, blockMax);
            evalNanos += System.nanoTime() - evalStart;
            points += mids.size();
            List<Span> next = new ArrayList<>();
            for (int i = 0; i < split.size(); i++) {
                next.add(new Span(split.get(i).from(), mids.get(i)));
                next.add(new Span(mids.get(i), split.get(i).to()));
            }
            frontier = next;
        }
        evaluated += points;
        long excluded = n + 1L - evaluated;
        progress.accept(String.format("slope bound, eps = %s: %d more assignments evaluated exactly, %d excluded in all", eps[e], points, excluded));
        return value(e, best.logF, best.n1, best.relErr, evaluated, excluded,
                "exact: " + evaluated + " assignments evaluated, " + excluded + " excluded by proven bounds (delta and slope); certified truncation");
    }

    /** Levels of halving without a single exclusion after which the slope bound's remaining work is projected. */
    static final int PROJECT_AFTER_LEVELS = 3;

    /**
     * Where halving has excluded nothing yet (f so flat, or so dominated by rare histograms, that neither bound separates
     * the assignments: heavy loss), the rest may take every interior point of the intervals: their
     * number times the wall time per point measured so far. Says so on the progress line, and stops with a clear message
     * when that is beyond the work limit ({@link Options#withWorkLimit}) instead of running for hours.
     */
    private void checkProjection(int e, List<Span> intervals, long points, long evalNanos) {
        long remaining = 0;
        for (Span iv : intervals) {
            remaining += iv.to() - iv.from() - 1;
        }
        double workLimitSeconds = options.workLimitSeconds();
        double perPoint = evalNanos / 1e9 / Math.max(1, points);
        double seconds = remaining * perPoint;
        progress.accept(String.format(Locale.ROOT, "slope bound, eps = %s: nothing excluded in %d halvings; up to %d more assignments "
                + "at %.3g s each, about %.0f s", eps[e], PROJECT_AFTER_LEVELS, remaining, perPoint, seconds));
        if (seconds > workLimitSeconds) {
            throw new BadInputException(Parameter.WORK_LIMIT, String.format(Locale.ROOT, "%.0f s", workLimitSeconds), String.format(Locale.ROOT,
                    "at eps = %s no bound separates the assignments (f is nearly flat or dominated by rare histograms, as with heavy loss): "
                            + "up to %d of them would be evaluated exactly, about %.0f s at the %.3g s each measured so far; "
                            + "raise the limit to run it", eps[e], remaining, seconds, perPoint));
        }
    }

    /**
     * Exact f at every n1 of a batch, as one stage-2 job: the windows are fixed here (truncation
     * below 1e-14 of the best value so far), delta is computed for each window, and each
     * expectation travels with its own slice of delta. Updates best = {ln f, n1, relative error}.
     */
    private void evaluateBatch(List<Long> n1s, int e, Best best, Map<Long, double[]> known, BlockBounds blockMax) {
        double logDp = Math.log((double) sampleSize / n);
        double target = best.logF + Math.log(LargeNProblem.WINDOW_TOLERANCE);
        List<Expectation> batch = new ArrayList<>();
        List<Expectation.Window> windows = new ArrayList<>();
        List<Span> ranges = new ArrayList<>();
        for (long n1 : n1s) {
            Expectation.Window w = Expectation.window(n, pHi, pLo, n1, logDp, target, blockMax::rangeMax);
            windows.add(w);
            ranges.add(new Span(w.hFrom(), w.hTo()));
        }
        progress.accept(String.format("exact f at %d assignments, eps = %s, h in [%d, %d]", n1s.size(), eps[e], ranges.stream().mapToLong(Span::from).min().orElse(0),
                ranges.stream().mapToLong(Span::to).max().orElse(0)));
        problem.ensure(ranges, e); // one stage-1 request for the whole batch, this eps only
        for (int i = 0; i < n1s.size(); i++) {
            long n1 = n1s.get(i);
            Expectation.Window w = windows.get(i);
            double[] slice = new double[Math.toIntExact(w.hTo() - w.hFrom() + 1)];
            for (int j = 0; j < slice.length; j++) {
                slice[j] = problem.delta(w.hFrom() + j, e);
            }
            batch.add(new Expectation(n, pHi, pLo, n1, w.xl(), w.xr(), w.yl(), w.yr(), w.hFrom(), slice, w.logTail()));
        }
        double[][] r = stageTwo.evaluate(batch);
        for (int i = 0; i < r.length; i++) {
            long n1 = n1s.get(i);
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
        long n1;
        double relErr;

        Best(double logF, long n1, double relErr) {
            this.logF = logF;
            this.n1 = n1;
            this.relErr = relErr;
        }
    }

    /** ln of a bound on |f(n1 + 1) - f(n1)| for every n1 in [a, b - 1]. */
    private double slopeBound(long a, long b, BlockBounds.Summary slope, double floorLog) {
        // h' counts the n - 1 records other than the one that moves
        double var = Math.max(problem.variance(a, n - 1), problem.variance(b - 1, n - 1));
        return Math.log(pHi - pLo) + BlockBounds.blockSum(n, problem.mean(a, n - 1), problem.mean(b - 1, n - 1), var, slope,
                floorLog - Math.log(pHi - pLo) - Math.log(Math.max(1, b - a)));
    }

    /**
     * Computes exact delta(h) over the h-ranges (mean +- 8 sd) of the unresolved assignments that
     * are not known yet (the next {@link BlockBounds#refresh} then lowers the block maxima there from the
     * Chernoff bound to the exact values). Returns false when there was nothing left to compute.
     */
    private boolean refineWithExactDelta(List<Span> unresolved, int e) {
        return problem.ensure(massRanges(unresolved), e) > 0;
    }

    /**
     * The values of h where the unresolved assignments put their mass: the means +- 8 standard deviations of h over the
     * interval (the variance of h is linear in n1, so its larger end value bounds it).
     */
    private List<Span> massRanges(List<Span> unresolved) {
        List<Span> ranges = new ArrayList<>();
        for (Span iv : unresolved) {
            double sd = Math.sqrt(Math.max(problem.variance(iv.from(), n), problem.variance(iv.to(), n))) + 1;
            ranges.add(new Span((long) Math.max(0, Math.floor(problem.mean(iv.from(), n) - 8 * sd)), (long) Math.min(n, Math.ceil(problem.mean(iv.to(), n) + 8 * sd))));
        }
        return ranges;
    }

    /**
     * The result of one eps. Its error: the truncation, the floating-point allowance of the delta(h) it averages (their
     * ln delta lie near ln f; the allowance is taken at twice |ln f|, a binade up, to cover them) and 1e-12 for the
     * expectation's own sums.
     */
    private SmoothedValue value(int e, double logDelta, long n1Hi, double relErr, long evaluated, long excluded, String method) {
        long[] assignment;
        if (vertexP.length == 1) {
            assignment = new long[] {n};
        } else {
            assignment = hiIsFirst ? new long[] {n1Hi, n - n1Hi} : new long[] {n - n1Hi, n1Hi};
        }
        return new SmoothedValue(eps[e], logDelta, assignment, relErr + SamplingHistogramMechanism.floatingPointAllowance(2 * logDelta) + 1e-12,
                method, evaluated, excluded);
    }

    // ------------------------------------------------------------------ branch and bound

    /** Intervals of assignments the branch and bound splits no further while block bounds are being refined. */
    static final int COARSE = 4096;
    /** ... and once they are refined: the leaves the exact delta and the slope bound work on. */
    static final int FINE = 64;

    /**
     * Excludes what it can of [from, to]; returns the number excluded and fills unresolved intervals (split no further once
     * they hold at most {@code leaf} assignments).
     */
    private long branchAndBound(long from, long to, double bestLog, BlockBounds blockMax, int e, List<Span> unresolved, int leaf) {
        double threshold = bestLog + Math.log1p(-1e-9);
        BlockBounds.Summary blocks = blockMax.summary(); // before the parallel part: computed once
        long excluded = 0;
        // breadth first, one level at a time: the interval bounds of a level are independent (read-only arrays), so they are
        // evaluated in parallel; the outcome does not depend on the order
        List<Span> level = new ArrayList<>();
        level.add(new Span(from, to));
        while (!level.isEmpty()) {
            final List<Span> cur = level;
            double[] bound = IntStream.range(0, cur.size()).parallel()
                    .mapToDouble(i -> intervalBound(cur.get(i).from(), cur.get(i).to(), blocks, bestLog)).toArray();
            List<Span> next = new ArrayList<>();
            for (int i = 0; i < cur.size(); i++) {
                Span iv = cur.get(i);
                if (bound[i] <= threshold) {
                    excluded += iv.size();
                } else if (iv.to() - iv.from() < leaf) {
                    unresolved.add(iv);
                } else {
                    long mid = (iv.from() + iv.to()) >>> 1;
                    next.add(new Span(iv.from(), mid));
                    next.add(new Span(mid + 1, iv.to()));
                }
            }
            level = next;
        }
        progress.accept(String.format("branch and bound, eps = %s: %d assignments excluded, %d intervals left%s", eps[e], excluded, unresolved.size(),
                unresolved.isEmpty() ? "" : " (n1 on the p_hi vertex in [" + unresolved.stream().mapToLong(Span::from).min().getAsLong() + ", "
                        + unresolved.stream().mapToLong(Span::to).max().getAsLong() + "])"));
        return excluded;
    }

    /**
     * Upper bound on f(n1) for every n1 in [a, b]: h has mean in [mu(a), mu(b)] and variance at
     * most sigma^2; blocks below or above that range are reached with Bernstein-bounded
     * probability, blocks inside with probability at most 1 (taken once, at their largest UB).
     */
    double intervalBound(long a, long b, BlockBounds.Summary blocks, double floorLog) {
        return BlockBounds.blockSum(n, problem.mean(a, n), problem.mean(b, n), Math.max(problem.variance(a, n), problem.variance(b, n)), blocks, floorLog);
    }

}
