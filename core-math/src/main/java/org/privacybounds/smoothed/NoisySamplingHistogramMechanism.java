package org.privacybounds.smoothed;

import java.util.Arrays;
import java.util.List;

import org.privacybounds.numeric.Compositions;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogPmf;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The Smoothed DP paper's Algorithm 4: sample T records, then add the exponential-mechanism noise of Eq. (4) to
 * the sampled histogram: each coordinate independently, {@code Pr[y_j = v | c] = r^{|v - c|} / z(c)}
 * on v = 0, 1, 2, ..., with {@code r = e^{-noiseEpsilon/4}} and
 * {@code z(c) = (1 + r - r^{c+1}) / (1 - r)} (the Smoothed DP paper, Algorithm 4, Appendix A.3).
 *
 * <p>Computed exactly by enumeration: outputs with a coordinate above T have the same likelihood
 * ratio as the output with that coordinate at T, and their probabilities are {@code r^s} times it,
 * so the infinite output space folds onto {@code [0, T]^m} with weight {@code 1/(1 - r)} for each
 * coordinate at T. No truncation; the cost is {@code (T+1)^m} outputs times the number of sampled
 * histograms, so this mechanism is for small databases (the limit is checked, with a clear error).
 *
 * <p>Example:
 * <pre>{@code
 * NoisySamplingHistogramMechanism m = NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 100, 0.5);
 * NoisySamplingHistogramMechanism.NoisyProfile p = m.profile(new int[] {60, 40}, 1.0);
 * double delta = p.profile().delta();   // sampling plus Laplace noise of eps 0.5 on each count
 * }</pre>
 */
public final class NoisySamplingHistogramMechanism {
    /** Largest number of (output, sampled histogram) pairs one law may need. */
    public static final long WORK_LIMIT = 200_000_000L;

    private final Sampling sampling;
    private final int sampleSize;
    private final double noiseEpsilon;
    private final double logR;

    private NoisySamplingHistogramMechanism(Sampling sampling, int sampleSize, double noiseEpsilon) {
        this.sampling = sampling;
        this.sampleSize = sampleSize;
        this.noiseEpsilon = noiseEpsilon;
        this.logR = -noiseEpsilon / 4;
    }

    public static NoisySamplingHistogramMechanism of(Sampling sampling, int sampleSize, double noiseEpsilon) {
        if (!(noiseEpsilon > 0) || Double.isInfinite(noiseEpsilon)) {
            throw new BadInputException(Parameter.NOISE_EPS, noiseEpsilon, "must be a finite number > 0");
        }
        return new NoisySamplingHistogramMechanism(sampling, sampleSize, noiseEpsilon);
    }

    public double noiseEpsilon() {
        return noiseEpsilon;
    }

    /** The paper's nominal DP level of Table 1: eta * eps with eta = T/n. */
    public double nominalEpsilon(int n) {
        return (double) sampleSize / n * noiseEpsilon;
    }

    /**
     * A valid DP level by subsampling amplification of the sample-level mechanism:
     * {@code ln(1 + eta (e^eps - 1))}, eta = T/n (the paper's Table 1 gives (eta eps, 0), a small-eps approximation: at n = 20, T = 2, eps = 10 the realised loss is 2.693 > eta eps = 1).
     */
    public double amplifiedEpsilon(int n) {
        double eta = (double) sampleSize / n;
        return Math.log1p(eta * Math.expm1(noiseEpsilon));
    }

    /** The result for one database: delta_eps(x) and the realised privacy loss at x. */
    public record NoisyProfile(ProfileValue profile, double realisedEpsilon, Neighbor realisedWorst) {
    }

    /** delta_eps(h) and the largest privacy loss {@code |ln P_h(y) - ln P_h'(y)|} over neighbours and outputs. */
    public NoisyProfile profile(int[] h, double eps) {
        SamplingHistogramMechanism.checkEpsilon(eps);
        long total = SamplingHistogramMechanism.of(sampling, sampleSize).checkHistogram(h);
        if (total > Integer.MAX_VALUE) {
            throw new BadInputException(Parameter.COUNTS, "n = " + total, "the noisy mechanism's exact output law needs n <= " + Integer.MAX_VALUE);
        }
        int n = (int) total;
        int m = h.length;
        checkWork(m, n);
        double[] base = outputLaw(h);
        double bestD = Double.NEGATIVE_INFINITY;
        Neighbor worstD = null;
        double bestLoss = 0;
        Neighbor worstLoss = null;
        for (int a = 0; a < m; a++) {
            if (h[a] == 0) {
                continue;
            }
            for (int b = 0; b < m; b++) {
                if (b == a) {
                    continue;
                }
                int[] hp = h.clone();
                hp[a]--;
                hp[b]++;
                double[] other = outputLaw(hp);
                double d1 = logHockeyStick(base, other, eps, m);
                double d2 = logHockeyStick(other, base, eps, m);
                if (d1 > bestD) {
                    bestD = d1;
                    worstD = new Neighbor(a, b, Direction.X_TO_NEIGHBOR);
                }
                if (d2 > bestD) {
                    bestD = d2;
                    worstD = new Neighbor(a, b, Direction.NEIGHBOR_TO_X);
                }
                for (int y = 0; y < base.length; y++) {
                    double loss = Math.abs(base[y] - other[y]);
                    if (loss > bestLoss || worstLoss == null) {
                        bestLoss = loss;
                        worstLoss = new Neighbor(a, b, base[y] >= other[y] ? Direction.X_TO_NEIGHBOR : Direction.NEIGHBOR_TO_X);
                    }
                }
            }
        }
        ProfileValue pv = new ProfileValue(eps, bestD,
                bestD == Double.NEGATIVE_INFINITY ? 0 : SamplingHistogramMechanism.floatingPointAllowance(bestD),
                bestD == Double.NEGATIVE_INFINITY ? null : worstD,
                "exact enumeration of all outputs (tail folded in closed form)");
        return new NoisyProfile(pv, bestLoss, worstLoss);
    }

    /**
     * The worst case over all databases of n records over m categories: the DP delta at eps and
     * the realised DP eps (largest privacy loss over all neighbouring pairs and outputs).
     *
     * @return {@code {logDpDelta, realisedEpsilon}}
     */
    public double[] worstCase(int n, int m, double eps) {
        List<int[]> all = Compositions.of(n, m);
        if ((double) all.size() * work(m, n) > WORK_LIMIT * 10.0) {
            throw new BadInputException(Parameter.COUNTS, "n = " + n + ", m = " + m,
                    "the worst case over all databases with noise is enumerated; too many databases for this limit");
        }
        double d = Double.NEGATIVE_INFINITY;
        double loss = 0;
        for (int[] h : all) {
            NoisyProfile p = profile(h, eps);
            d = Math.max(d, p.profile().logDelta());
            loss = Math.max(loss, p.realisedEpsilon());
        }
        return new double[] {d, loss};
    }

    private long work(int m, int n) {
        double outputs = Math.pow(sampleSize + 1.0, m);
        double samples = Math.pow(sampleSize + 1.0, m - 1);
        return (long) Math.min(Long.MAX_VALUE / 2, outputs * samples * m);
    }

    private void checkWork(int m, int n) {
        if (work(m, n) > WORK_LIMIT) {
            throw new BadInputException(Parameter.SAMPLE_SIZE, sampleSize,
                    "with exponential noise the output law is enumerated exactly; T = " + sampleSize + " and m = " + m
                            + " need more than " + WORK_LIMIT + " operations: use a smaller T (e.g. n <= 200 for m = 2)");
        }
    }

    /** log-pmf of the noisy output on the folded grid [0, T]^m (flattened, first category fastest). */
    double[] outputLaw(int[] h) {
        int m = h.length;
        int side = sampleSize + 1;
        int size = 1;
        for (int j = 0; j < m; j++) {
            size *= side;
        }
        List<int[]> samples = Compositions.of(sampleSize, m, sampling == Sampling.WITHOUT_REPLACEMENT ? h : null);
        // log noise kernel: logK[c][v] = |v - c| log r - log z(c), v in [0, T]
        double[][] logK = new double[side][side];
        double log1mr = LogMath.log1mexp(logR);
        for (int c = 0; c < side; c++) {
            // z(c) = (1 + r - r^{c+1}) / (1 - r)
            double r = Math.exp(logR);
            double logZ = Math.log1p(r - Math.exp((c + 1) * logR)) - log1mr;
            for (int v = 0; v < side; v++) {
                logK[c][v] = Math.abs(v - c) * logR - logZ;
            }
        }
        LogSumExp[] acc = new LogSumExp[size];
        for (int y = 0; y < size; y++) {
            acc[y] = new LogSumExp();
        }
        int[] y = new int[m];
        for (int[] k : samples) {
            double lp = sampling == Sampling.WITHOUT_REPLACEMENT ? LogPmf.multivariateHypergeometric(k, h) : LogPmf.multinomial(k, h);
            if (lp == Double.NEGATIVE_INFINITY) {
                continue;
            }
            Arrays.fill(y, 0);
            for (int idx = 0; idx < size; idx++) {
                double v = lp;
                for (int j = 0; j < m; j++) {
                    v += logK[k[j]][y[j]];
                }
                acc[idx].add(v);
                for (int j = 0; j < m; j++) { // odometer
                    if (++y[j] < side) {
                        break;
                    }
                    y[j] = 0;
                }
            }
        }
        double[] out = new double[size];
        for (int i = 0; i < size; i++) {
            out[i] = acc[i].log();
        }
        return out;
    }

    /** d = sum_y w(y) (P(y) - e^eps Q(y))_+ on the folded grid, w = (1 - r)^{-#coordinates at T}. */
    private double logHockeyStick(double[] logP, double[] logQ, double eps, int m) {
        int side = sampleSize + 1;
        double logW = -LogMath.log1mexp(logR);
        LogSumExp acc = new LogSumExp();
        for (int idx = 0; idx < logP.length; idx++) {
            double diff = eps + logQ[idx] - logP[idx];
            if (!(diff < 0)) {
                continue;
            }
            int atTop = 0;
            int rest = idx;
            for (int j = 0; j < m; j++) {
                if (rest % side == sampleSize) {
                    atTop++;
                }
                rest /= side;
            }
            acc.add(logP[idx] + LogMath.log1mexp(diff) + atTop * logW);
        }
        return acc.log();
    }

}
