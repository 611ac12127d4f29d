package org.privacybounds.quantized;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;
import org.privacybounds.validation.BadInputException;

class QuantizedSgdTest {
    private static final MathContext MC = new MathContext(50);

    // ---- quantized distributions ----

    /** log of the integral of exp(logDensity) over (l, u] by composite Simpson, scaled by the largest density. */
    private static double logIntegral(DoubleUnaryOperator logDensity, double l, double u, double kink) {
        if (kink > l && kink < u) {
            double a = logIntegral(logDensity, l, kink, Double.NaN);
            double b = logIntegral(logDensity, kink, u, Double.NaN);
            double m = Math.max(a, b);
            return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
        }
        int panels = 20000;
        double h = (u - l) / panels;
        double top = Math.max(logDensity.applyAsDouble(l), logDensity.applyAsDouble(u));
        double s = 0;
        for (int i = 0; i <= panels; i++) {
            double w = i == 0 || i == panels ? 1 : (i % 2 == 1 ? 4 : 2);
            s += w * Math.exp(logDensity.applyAsDouble(l + i * h) - top);
        }
        return top + Math.log(s * h / 3);
    }

    private static void checkAgainstIntegration(QuantizedDistribution d, DoubleUnaryOperator logDensity, double kink) {
        CodeGrid g = d.grid();
        double[] logMass = new double[g.size()];
        double max = Double.NEGATIVE_INFINITY;
        for (int c = g.min(); c <= g.max(); c++) {
            logMass[c - g.min()] = logIntegral(logDensity, g.lower(c), g.upper(c), kink);
            max = Math.max(max, logMass[c - g.min()]);
        }
        double z = 0;
        for (double v : logMass) {
            z += Math.exp(v - max);
        }
        double logZ = max + Math.log(z);
        double total = 0;
        for (int c = g.min(); c <= g.max(); c++) {
            double want = logMass[c - g.min()] - logZ;
            assertEquals(want, d.logPmf(c), 1e-9, d + " code " + c);
            assertTrue(Double.isFinite(d.logPmf(c)), "no code underflows: " + c);
            total += Math.exp(d.logPmf(c));
        }
        assertEquals(1.0, total, 1e-13);
    }

    @Test
    void quantizedPmfsMatchNumericalIntegration() {
        double s2pi = Math.log(Math.sqrt(2 * Math.PI));
        for (double[] ms : new double[][] {{0, 0.12}, {0.2, 0.12}, {0, 0.1}, {0.2, 0.15}, {0.3, 0.01}, {-0.45, 0.003}}) {
            double mu = ms[0];
            double sg = ms[1];
            checkAgainstIntegration(QuantizedDistribution.gaussian(mu, sg, 8),
                    x -> -0.5 * ((x - mu) / sg) * ((x - mu) / sg) - Math.log(sg) - s2pi, Double.NaN);
        }
        for (double[] ms : new double[][] {{0, 0.12}, {0.2, 0.12}, {0.1, 0.001}}) {
            double mu = ms[0];
            double b = ms[1] / Math.sqrt(2);
            checkAgainstIntegration(QuantizedDistribution.laplace(mu, ms[1], 8), x -> -Math.abs(x - mu) / b - Math.log(2 * b), mu);
            checkAgainstIntegration(QuantizedDistribution.laplaceScale(mu, ms[1], 5), x -> -Math.abs(x - mu) / ms[1] - Math.log(2 * ms[1]), mu);
        }
        // the smallest probability of N_8bit(0, 0.12^2) is 2.362e-6 (the edge cells), computed independently
        QuantizedDistribution d = QuantizedDistribution.gaussian(0, 0.12, 8);
        assertEquals(2.362e-6, Math.exp(d.logPmf(-127)), 0.0005e-6);
        assertEquals(Math.exp(d.logPmf(-127)), Math.exp(d.logPmf(128)), 1e-6 * 2.362e-6 * 0 + 3e-7);
    }

    @Test
    void gridAndParsing() {
        CodeGrid g = new CodeGrid(8);
        assertEquals(-127, g.min());
        assertEquals(128, g.max());
        assertEquals(128, g.code(0.5));
        assertEquals(-127, g.code(-0.4999));
        assertEquals(0, g.code(0.0));
        assertEquals(1, g.code(1e-9));
        assertEquals("gauss:0.2:0.12", QuantizedDistribution.gaussian(0.2, 0.12, 8).label());
        assertEquals(0.12 / Math.sqrt(2), QuantizedDistribution.laplace(0, 0.12, 8).scale(), 1e-17);
        assertThrows(BadInputException.class, () -> QuantizedDistribution.gaussian(0, 0, 8));
        assertThrows(BadInputException.class, () -> QuantizedDistribution.gaussian(0, -1, 8));
        assertThrows(BadInputException.class, () -> new CodeGrid(0));
        assertThrows(BadInputException.class, () -> new CodeGrid(17));
        assertEquals(3, OutputRounding.ROUND.output(5, 2));
        assertEquals(-3, OutputRounding.ROUND.output(-5, 2));
        assertEquals(-3, OutputRounding.FLOOR.output(-5, 2));
        assertEquals(2, OutputRounding.FLOOR.output(5, 2));
        assertEquals(-5, OutputRounding.NONE.output(-5, 2));
    }

    // ---- exact law and delta against brute force ----

    /** All T-subsets of the records: the exact law of the output as rationals (counts / C(n, T)). */
    private static BigDecimal[] bruteLaw(int[] records, int t, SamplingAverageMechanism m) {
        long[] count = new long[m.outputs()];
        long[] total = {0};
        long min = m.outputValue(0);
        subsets(records, t, 0, 0, 0, (sum) -> {
            count[(int) (m.rounding().output(sum, t) - min)]++;
            total[0]++;
        });
        BigDecimal[] law = new BigDecimal[count.length];
        for (int o = 0; o < law.length; o++) {
            law[o] = new BigDecimal(count[o]).divide(new BigDecimal(total[0]), MC);
        }
        return law;
    }

    private interface SumSink {
        void accept(long sum);
    }

    private static void subsets(int[] r, int t, int from, int chosen, long sum, SumSink sink) {
        if (chosen == t) {
            sink.accept(sum);
            return;
        }
        for (int i = from; i <= r.length - (t - chosen); i++) {
            subsets(r, t, i + 1, chosen + 1, sum + r[i], sink);
        }
    }

    private static BigDecimal hockey(BigDecimal[] p, BigDecimal[] q, BigDecimal ee) {
        BigDecimal d = BigDecimal.ZERO;
        for (int o = 0; o < p.length; o++) {
            BigDecimal v = p[o].subtract(ee.multiply(q[o], MC), MC);
            if (v.signum() > 0) {
                d = d.add(v, MC);
            }
        }
        return d;
    }

    /** delta_eps(x) by enumerating every neighbour and every T-subset, in 50-digit decimals. */
    private static double[] bruteDelta(int[] records, int t, SamplingAverageMechanism m, double eps) {
        BigDecimal ee = new BigDecimal(ApfloatMath.exp(new Apfloat(new BigDecimal(eps), 60)).toString(true), MC);
        BigDecimal[] px = bruteLaw(records, t, m);
        BigDecimal best = BigDecimal.ZERO;
        BigDecimal heur = BigDecimal.ZERO;
        int lo = Arrays.stream(records).min().getAsInt();
        int hi = Arrays.stream(records).max().getAsInt();
        CodeGrid g = m.grid();
        Set<Integer> done = new HashSet<>();
        for (int i = 0; i < records.length; i++) {
            int a = records[i];
            if (!done.add(a)) {
                continue;
            }
            for (int b = g.min(); b <= g.max(); b++) {
                if (b == a) {
                    continue;
                }
                int[] y = records.clone();
                y[i] = b;
                BigDecimal[] pb = bruteLaw(y, t, m);
                BigDecimal d = hockey(px, pb, ee).max(hockey(pb, px, ee));
                best = best.max(d);
                if ((a == lo && b == g.max()) || (a == hi && b == g.min())) {
                    heur = heur.max(d);
                }
            }
        }
        return new double[] {best.doubleValue(), heur.doubleValue()};
    }

    @Test
    void outputLawAndDeltaMatchBruteForceEnumeration() {
        CodeGrid g = new CodeGrid(3); // codes -3..4
        int[] records = {-3, -1, 0, 0, 2, 4, 4};
        for (OutputRounding r : OutputRounding.values()) {
            for (int t = 1; t <= records.length; t++) {
                SamplingAverageMechanism m = new SamplingAverageMechanism(g, t, r);
                double[] law = m.outputLaw(g.histogram("codes", records));
                BigDecimal[] want = bruteLaw(records, t, m);
                double total = 0;
                for (int o = 0; o < law.length; o++) {
                    assertEquals(want[o].doubleValue(), law[o], 1e-15, r + " T = " + t + " output " + m.outputValue(o));
                    total += law[o];
                }
                assertEquals(1.0, total, 1e-14);
                for (double eps : new double[] {0, 0.3, 1, 2.5}) {
                    SamplingAverageMechanism.Value v = m.profile(g.histogram("codes", records), new double[] {eps})[0];
                    double[] brute = bruteDelta(records, t, m, eps);
                    assertEquals(brute[0], v.delta(), 1e-13 * Math.max(brute[0], 1e-3), r + " T = " + t + " eps = " + eps);
                    assertEquals(brute[1], v.heuristicDelta(), 1e-13 * Math.max(brute[1], 1e-3), "heuristic " + r + " T = " + t + " eps = " + eps);
                    assertTrue(v.absoluteError() < 1e-12 && v.absoluteError() > 0);
                    assertTrue(v.delta() <= m.dpDeltaBound(records.length) + 1e-15, "delta <= T/n");
                }
            }
        }
    }

    @Test
    void randomDatabasesMatchBruteForceAndErrorsAreCertified() {
        SplittableRandom rng = new SplittableRandom(7);
        CodeGrid g = new CodeGrid(4);
        for (int trial = 0; trial < 6; trial++) {
            int n = 9 + rng.nextInt(4);
            int[] records = new int[n];
            for (int i = 0; i < n; i++) {
                records[i] = g.min() + rng.nextInt(g.size() / 2) + (trial % 2) * 4;
            }
            int t = 2 + rng.nextInt(3);
            OutputRounding r = OutputRounding.values()[trial % 3];
            SamplingAverageMechanism m = new SamplingAverageMechanism(g, t, r);
            double[] eps = {0.1, 1, 3};
            SamplingAverageMechanism.Value[] v = m.profile(g.histogram("codes", records), eps);
            for (int e = 0; e < eps.length; e++) {
                double[] brute = bruteDelta(records, t, m, eps[e]);
                assertEquals(brute[0], v[e].delta(), v[e].absoluteError(), "certified error covers the exact value");
                assertTrue(v[e].heuristicDelta() <= v[e].delta());
            }
        }
    }

    /**
     * The paper's sizes: T = 15 at n = 225 and T = 16 at n = 250, 8 bits. The exact delta is positive,
     * certified to 1e-9 relative, below the DP value T/n, and smaller when fewer outputs are released
     * (rounding the mean is a post-processing of the sum).
     */
    @Test
    void paperSizesAreCertifiedAndPostProcessingOrdered() {
        QuantizedDistribution d0 = QuantizedDistribution.gaussian(0, 0.12, 8);
        QuantizedDistribution d1 = QuantizedDistribution.gaussian(0.2, 0.12, 8);
        for (int[] nt : new int[][] {{225, 15}, {250, 16}}) {
            int[] h = DatabaseSampler.histogram(new QuantizedDistribution[] {d0, d1}, new int[] {nt[0] / 2, nt[0] - nt[0] / 2},
                    DatabaseSampler.trialSeed(1, 0, 0));
            double[] eps = {0.5, 1, 2};
            SamplingAverageMechanism.Value[] sum = new SamplingAverageMechanism(d0.grid(), nt[1], OutputRounding.NONE).profile(h, eps);
            SamplingAverageMechanism.Value[] mean = new SamplingAverageMechanism(d0.grid(), nt[1], OutputRounding.ROUND).profile(h, eps);
            for (int e = 0; e < eps.length; e++) {
                assertTrue(sum[e].delta() > 0 && sum[e].delta() < (double) nt[1] / nt[0]);
                assertTrue(sum[e].relativeError() < 1e-9, "certified to 1e-9: " + sum[e].relativeError());
                assertTrue(mean[e].delta() <= sum[e].delta() + sum[e].absoluteError(), "rounding is post-processing");
                if (e > 0) {
                    assertTrue(sum[e].delta() <= sum[e - 1].delta(), "delta decreases in eps");
                }
            }
        }
    }

    // ---- Monte Carlo ----

    @Test
    void confidenceIntervalsCoverAKnownMean() {
        // values in [0, R] with a skewed law of known mean: R * U^4, U uniform, mean R / 5
        double range = 0.0625;
        double truth = range / 5;
        SplittableRandom rng = new SplittableRandom(2026);
        int reps = 2000;
        int trials = 200;
        int coverT = 0;
        int coverB = 0;
        for (int r = 0; r < reps; r++) {
            double[] v = new double[trials];
            for (int i = 0; i < trials; i++) {
                double u = rng.nextDouble();
                v[i] = range * u * u * u * u;
            }
            MonteCarloMean mc = MonteCarloMean.of(v, range, 0.99);
            coverT += mc.studentLow() <= truth && truth <= mc.studentHigh() ? 1 : 0;
            coverB += mc.bernsteinLow() <= truth && truth <= mc.bernsteinHigh() ? 1 : 0;
            assertTrue(mc.bernsteinHigh() >= mc.studentHigh() && mc.bernsteinLow() <= mc.studentLow());
        }
        double ct = coverT / (double) reps;
        // nominal 0.99; with 2000 repetitions the binomial sd is 0.0022
        assertTrue(ct >= 0.98 && ct <= 0.997, "student-t coverage " + ct);
        assertEquals(1.0, coverB / (double) reps, 1e-12, "empirical Bernstein never misses here");
        MonteCarloMean zero = MonteCarloMean.of(new double[] {0, 0, 0}, 1, 0.99);
        assertEquals(0, zero.studentHigh());
        assertTrue(zero.bernsteinHigh() > 0, "a rigorous interval cannot be 0 from 3 zeros");
        assertThrows(BadInputException.class, () -> MonteCarloMean.of(new double[] {0.1}, 1, 0.99));
    }

    /**
     * Skewed data as quantized SGD produces it (a rare database with delta near T/n carries most of the mean): the default
     * (empirical Bernstein) interval keeps its guaranteed coverage; the Student t interval, named approximate, does not.
     */
    @Test
    void defaultIntervalCoversSkewedMeans() {
        double range = 0.1;
        double rare = 0.01;
        double truth = rare * range + (1 - rare) * range * 1e-3 / 2;
        SplittableRandom rng = new SplittableRandom(14);
        int reps = 2000;
        int trials = 160;
        int missT = 0;
        int missB = 0;
        for (int r = 0; r < reps; r++) {
            double[] v = new double[trials];
            for (int i = 0; i < trials; i++) {
                v[i] = rng.nextDouble() < rare ? range : range * 1e-3 * rng.nextDouble();
            }
            MonteCarloMean mc = MonteCarloMean.of(v, range, 0.99);
            missT += mc.studentLow() <= truth && truth <= mc.studentHigh() ? 0 : 1;
            missB += mc.bernsteinLow() <= truth && truth <= mc.bernsteinHigh() ? 0 : 1;
        }
        // nominal 1 %: 20 of 2000; Student t misses far more (every run without a rare value lies below the truth)
        assertTrue(missT > 100, "student-t misses " + missT);
        assertTrue(missB <= 20, "empirical Bernstein misses " + missB);
        for (MonteCarloMean.Interval i : MonteCarloMean.Interval.values()) {
            assertEquals(i, MonteCarloMean.Interval.parse(i.label()), "the name written in outputs reads back");
        }
    }

    @Test
    void seedsAreSplitPerTrial() {
        QuantizedDistribution[] v = {QuantizedDistribution.gaussian(0, 0.12, 8), QuantizedDistribution.laplace(0.2, 0.12, 8)};
        int[] a = DatabaseSampler.histogram(v, new int[] {10, 90}, DatabaseSampler.trialSeed(5, 3, 17));
        assertArrayEquals(a, DatabaseSampler.histogram(v, new int[] {10, 90}, DatabaseSampler.trialSeed(5, 3, 17)));
        assertFalse(Arrays.equals(a, DatabaseSampler.histogram(v, new int[] {10, 90}, DatabaseSampler.trialSeed(5, 3, 18))));
        assertEquals(100, Arrays.stream(a).sum());
        // the sampler follows the pmf: chi-square style check of the mean code
        SplittableRandom rng = new SplittableRandom(1);
        double s = 0;
        int draws = 200_000;
        for (int i = 0; i < draws; i++) {
            s += v[0].sample(rng);
        }
        double mean = 0;
        for (int c = -127; c <= 128; c++) {
            mean += c * Math.exp(v[0].logPmf(c));
        }
        assertEquals(mean, s / draws, 5 * 0.12 * 256 / Math.sqrt(draws));
    }

    @Test
    void badInputIsRefused() {
        CodeGrid g = new CodeGrid(8);
        SamplingAverageMechanism m = new SamplingAverageMechanism(g, 20, OutputRounding.ROUND);
        BadInputException e = assertThrows(BadInputException.class, () -> m.profile(g.histogram("--codes", new int[] {1, 2, 3}), new double[] {1}));
        assertTrue(e.getMessage().startsWith("T = "), e.getMessage());
        assertThrows(BadInputException.class, () -> g.histogram("--codes", new int[] {129}));
        assertThrows(BadInputException.class, () -> new SamplingAverageMechanism(g, 0, OutputRounding.ROUND));
        assertThrows(BadInputException.class, () -> m.profile(g.histogram("--codes", new int[40]), new double[] {-1}));
    }
}
