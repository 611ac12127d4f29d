package org.privacybounds.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.privacybounds.quantized.DatabaseSampler;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;

/**
 * Benchmark of delta_eps(x) of one database of 8-bit quantized gradients (one SGD step, T =
 * round(sqrt n)) against the paper's way of estimating it: simulate batches of x and of its
 * heuristic neighbour, take the empirical output histograms and their hockey-stick divergence
 * (the paper used 1e7 batches per database; here fewer are simulated and the time is scaled
 * linearly, which is exact for a simulation: its cost is proportional to the batches). The
 * baseline simulates x and its two heuristic neighbours; ours is timed over the same two
 * neighbours and over all of them, 10 eps at once. Both run in the same JVM, warmed up, median
 * of 7 timings.
 *
 * <p>Usage: {@code QuantizedBench OUT_DIR [BASELINE_BATCHES]}; writes {@code quantized-bench.csv}
 * (per database: our times, the baseline's time per 1e7 batches, the ratios, and the baseline's
 * error against the exact value) and
 * {@code quantized-scaling.csv} (our time per database for n = 100..4000).
 */
public final class QuantizedBench {
    private static final double[] EPS = {0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 7};

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "bench/results");
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        Files.createDirectories(out);
        QuantizedDistribution d0 = QuantizedDistribution.gaussian(0, 0.12, 8);
        QuantizedDistribution d1 = QuantizedDistribution.gaussian(0.2, 0.12, 8);
        QuantizedDistribution[] pi = {d0, d1};
        List<String> lines = new ArrayList<>();
        lines.add("n,T,assignment,rounding,ours_ms_all_neighbors,ours_ms_heuristic_neighbors,baseline_batches,"
                + "baseline_ms_per_database_1e7_batches,speedup_all_neighbors,speedup_heuristic_neighbors,eps,exact_heuristic_delta,"
                + "baseline_delta,baseline_abs_err,baseline_rel_err,exact_delta_all_neighbors,heuristic_tight_all_10_eps");
        for (int[] nt : new int[][] {{225, 15}, {250, 16}}) {
            for (int v = 0; v < 2; v++) {
                int[] assignment = v == 0 ? new int[] {nt[0], 0} : new int[] {0, nt[0]};
                int[] h = DatabaseSampler.histogram(pi, assignment, DatabaseSampler.trialSeed(1, v, 0));
                for (OutputRounding r : new OutputRounding[] {OutputRounding.ROUND, OutputRounding.NONE}) {
                    SamplingAverageMechanism m = new SamplingAverageMechanism(d0.grid(), nt[1], r);
                    double ours = median(() -> m.profile(h, EPS, SamplingAverageMechanism.Neighbors.ALL));
                    double oursH = median(() -> m.profile(h, EPS, SamplingAverageMechanism.Neighbors.HEURISTIC));
                    SamplingAverageMechanism.Value[] exact = m.profile(h, EPS);
                    boolean tight = Arrays.stream(exact).allMatch(SamplingAverageMechanism.Value::heuristicTight);
                    // the paper's simulation: x and its two heuristic neighbours, `batches` batches each
                    int e1 = 3;
                    SamplingAverageMechanism.Value ref = exact[e1];
                    int[] lowToMax = h.clone();
                    int[] highToMin = h.clone();
                    int low = 0;
                    while (h[low] == 0) {
                        low++;
                    }
                    int high = h.length - 1;
                    while (h[high] == 0) {
                        high--;
                    }
                    lowToMax[low]--;
                    lowToMax[h.length - 1]++;
                    highToMin[high]--;
                    highToMin[0]++;
                    simulate(m, h, 10_000, 3); // warm-up
                    long t0 = System.nanoTime();
                    double[] fx = simulate(m, h, batches, 11);
                    double[] f1 = simulate(m, lowToMax, batches, 12);
                    double[] f2 = simulate(m, highToMin, batches, 13);
                    double baseMs = (System.nanoTime() - t0) / 1e6;
                    double per1e7 = baseMs * 1e7 / batches;
                    double ee = Math.exp(EPS[e1]);
                    double mc = Math.max(Math.max(hockey(fx, f1, ee), hockey(f1, fx, ee)), Math.max(hockey(fx, f2, ee), hockey(f2, fx, ee)));
                    double err = Math.abs(mc - ref.heuristicDelta());
                    lines.add(String.format(Locale.ROOT, "%d,%d,%s,%s,%.2f,%.2f,%d,%.0f,%.0f,%.0f,%.2f,%.6e,%.6e,%.3e,%.2f,%.6e,%s", nt[0], nt[1],
                            assignment[0] + "+" + assignment[1], r.label(), ours, oursH, batches, per1e7, per1e7 / ours, per1e7 / oursH, EPS[e1],
                            ref.heuristicDelta(), mc, err, err / ref.heuristicDelta(), ref.delta(), tight));
                    System.err.println(lines.get(lines.size() - 1));
                }
            }
        }
        Files.write(out.resolve("quantized-bench.csv"), lines);
        List<String> scaling = new ArrayList<>();
        scaling.add("n,T,rounding,distinct_codes,ms_per_database_10eps,delta_eps1,relative_error_bound");
        for (int n : new int[] {100, 225, 400, 625, 1000, 1600, 2500, 4000}) {
            int t = (int) Math.round(Math.sqrt(n));
            int[] h = DatabaseSampler.histogram(pi, new int[] {n / 2, n - n / 2}, DatabaseSampler.trialSeed(1, 9, n));
            SamplingAverageMechanism m = new SamplingAverageMechanism(d0.grid(), t, OutputRounding.ROUND);
            m.profile(h, EPS);
            long t0 = System.nanoTime();
            SamplingAverageMechanism.Value[] v = m.profile(h, EPS);
            double ms = (System.nanoTime() - t0) / 1e6;
            scaling.add(String.format(Locale.ROOT, "%d,%d,round,%d,%.1f,%.6e,%.1e", n, t, Arrays.stream(h).filter(c -> c > 0).count(), ms,
                    v[3].delta(), v[3].relativeError()));
            System.err.println(scaling.get(scaling.size() - 1));
            if (ms > 60_000) {
                break;
            }
        }
        Files.write(out.resolve("quantized-scaling.csv"), scaling);
        lines.forEach(System.out::println);
        scaling.forEach(System.out::println);
    }

    private static double median(Runnable work) {
        for (int w = 0; w < 3; w++) {
            work.run(); // warm-up
        }
        double[] ms = new double[7];
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            work.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

    /** Empirical output frequencies of the database h from {@code batches} simulated batches. */
    private static double[] simulate(SamplingAverageMechanism m, int[] h, int batches, long seed) {
        double[] f = new double[m.outputs()];
        SplittableRandom rng = new SplittableRandom(seed);
        int[] x = records(h, m);
        long min = m.outputValue(0);
        int n = x.length;
        int t = m.sampleSize();
        for (int b = 0; b < batches; b++) {
            long s = 0;
            for (int i = 0; i < t; i++) { // partial Fisher-Yates: T records without replacement
                int j = i + rng.nextInt(n - i);
                int tmp = x[i];
                x[i] = x[j];
                x[j] = tmp;
                s += x[i];
            }
            f[(int) (m.rounding().output(s, t) - min)]++;
        }
        for (int i = 0; i < f.length; i++) {
            f[i] /= batches;
        }
        return f;
    }

    private static int[] records(int[] h, SamplingAverageMechanism m) {
        int[] r = new int[Arrays.stream(h).sum()];
        int k = 0;
        for (int i = 0; i < h.length; i++) {
            for (int c = 0; c < h[i]; c++) {
                r[k++] = m.grid().min() + i;
            }
        }
        return r;
    }

    private static double hockey(double[] p, double[] q, double ee) {
        double d = 0;
        for (int o = 0; o < p.length; o++) {
            d += Math.max(0, p[o] - ee * q[o]);
        }
        return d;
    }
}
