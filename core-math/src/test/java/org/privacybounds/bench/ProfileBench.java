package org.privacybounds.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;

import org.apache.commons.numbers.gamma.LogGamma;
import org.privacybounds.smoothed.AdjustedUtility;
import org.privacybounds.smoothed.ElectionPrivacy;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.UtilityForm;

/**
 * Benchmark of delta_eps(x) for one election against the paper's way of computing it: the full
 * hypergeometric pmf vectors of x and each neighbour over every output, in plain double precision
 * from log-gamma values, then the hockey-stick sum over all outputs (the baseline). Both run in
 * the same JVM, warmed up, median of repeated timings; accuracy against mpmath references.
 *
 * <p>Usage: {@code ProfileBench OUT_DIR}; writes {@code profile-bench.csv} and prints it.
 */
public final class ProfileBench {
    /** (label, votesA, votesB, lost, mpmath log10 delta at eps = ln(51/49)). */
    private static final Object[][] CASES = {
            {"n=1e6", 480_000, 520_000, 2_000, -2.3342116703059899003},
            {"n=1e7", 4_600_000, 5_400_000, 20_000, -4.9861845540034133971},
            {"2020 (n=1.55e8)", 81_268_924, 74_216_154, 310_970, -31.918000403509617145},
    };

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "bench/results");
        Files.createDirectories(out);
        double eps = Math.log(51.0 / 49.0);
        List<String> lines = new ArrayList<>();
        lines.add("case,n,T,ours_ms,baseline_ms,speedup,ours_log10_delta,baseline_log10_delta,mpmath_log10_delta,ours_rel_err,baseline_rel_err");
        for (Object[] c : CASES) {
            int a = (Integer) c[1];
            int b = (Integer) c[2];
            int n = a + b;
            int t = n - (Integer) c[3];
            double ref = (Double) c[4];
            int[] h = {a, b};
            SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t);
            double[] ours = time(() -> m.profile(h, eps).log10Delta());
            double[] base = time(() -> baselineLog10Delta(a, b, t, eps));
            lines.add(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%.3f,%.1f,%.15f,%.15f,%.15f,%.2e,%.2e", c[0], n, t, ours[0], base[0],
                    base[0] / ours[0], ours[1], base[1], ref, relErr(ours[1], ref), relErr(base[1], ref)));
        }
        // Figure 1: all 26 elections, delta and utility, core-math only (no Spark)
        long[][] elections = readElections(Path.of("datasets/smoothed_dp_paper_election_history_1900_2020.csv"));
        double[] fig1 = time(() -> {
            double s = 0;
            for (long[] e : elections) {
                if (e[0] >= 1920) {
                    s += ElectionPrivacy.compute(e[1], e[2], new BigDecimal("0.002"), 0.51,
                            Sampling.WITHOUT_REPLACEMENT, UtilityForm.FIGURE1).logDelta();
                }
            }
            return s;
        });
        lines.add(String.format(Locale.ROOT, "figure1 (26 elections; delta and utility),,,%.3f,,,,,,,", fig1[0]));
        Files.write(out.resolve("profile-bench.csv"), lines);
        lines.forEach(System.out::println);
        AdjustedUtility.epsilonOfThreshold(0.51);
    }

    private static double relErr(double log10Approx, double log10Ref) {
        return Math.abs(Math.expm1((log10Approx - log10Ref) * Math.log(10)));
    }

    /** Median wall time in ms over repetitions after warm-up, and the value. */
    private static double[] time(DoubleSupplier f) {
        double v = 0;
        for (int i = 0; i < 3; i++) {
            v = f.getAsDouble();
        }
        int reps = 7;
        double[] ms = new double[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            v = f.getAsDouble();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return new double[] {ms[reps / 2], v};
    }

    /**
     * The baseline: full pmf vectors over every output k, pmf = exp(lnC(h,k) + lnC(n-h,T-k) - lnC(n,T))
     * with log-gamma, in double; hockey-stick over all outputs for the four neighbour directions.
     */
    static double baselineLog10Delta(int a, int b, int t, double eps) {
        int n = a + b;
        double e = Math.exp(eps);
        double best = 0;
        int[][] pairs = {{a, a - 1}, {a - 1, a}, {a, a + 1}, {a + 1, a}};
        for (int[] p : pairs) {
            int lo = Math.max(0, Math.min(p[0], p[1]) - (n - t) - 1);
            int hi = Math.min(Math.max(p[0], p[1]), t);
            double s = 0;
            for (int k = lo; k <= hi; k++) {
                double d = pmf(n, p[0], t, k) - e * pmf(n, p[1], t, k);
                if (d > 0) {
                    s += d;
                }
            }
            best = Math.max(best, s);
        }
        return Math.log10(best);
    }

    private static double lnC(double n, double k) {
        return LogGamma.value(n + 1) - LogGamma.value(k + 1) - LogGamma.value(n - k + 1);
    }

    private static double pmf(int n, int h, int t, int k) {
        if (k < 0 || k > h || t - k < 0 || t - k > n - h) {
            return 0;
        }
        return Math.exp(lnC(h, k) + lnC(n - h, t - k) - lnC(n, t));
    }

    private static long[][] readElections(Path p) throws IOException {
        List<String> rows = Files.readAllLines(p);
        long[][] out = new long[rows.size() - 1][];
        for (int i = 1; i < rows.size(); i++) {
            String[] f = rows.get(i).split(",");
            out[i - 1] = new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])};
        }
        return out;
    }
}
