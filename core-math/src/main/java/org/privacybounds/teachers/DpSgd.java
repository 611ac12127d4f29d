package org.privacybounds.teachers;

import java.io.Serializable;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Training a {@link LogisticModel} by DP-SGD (Abadi et al. 2016) or plain SGD with the same sampling: each step takes a
 * Poisson sample (every example independently with probability q), computes each example's gradient of the logistic
 * loss, clips it to L2 norm C (DP-SGD only), sums, adds N(0, (sigma C)^2) to every coordinate (DP-SGD only), divides by the
 * expected batch size q n and takes a step of the learning rate. ceil(epochs / q) steps. The randomness (sampling and
 * noise) comes from one seed, so a teacher is the same wherever it is trained.
 *
 * <pre>{@code
 * DpSgd.Config c = DpSgd.Config.dpSgd(12, 1, 0.5, 5, 0.5);
 * LogisticModel teacher = DpSgd.train(shard, c, 42L);
 * double eps = DpSgd.privacy(c, 1e-4).epsilon(); // per teacher, w.r.t. its shard
 * }</pre>
 */
public final class DpSgd {
    private DpSgd() {
    }

    /**
     * Training settings.
     *
     * @param privateTraining DP-SGD when true, plain SGD otherwise (then clip and noise are ignored)
     * @param noiseMultiplier sigma (noise standard deviation / clip)
     * @param clip            C, the L2 bound on each example's gradient
     * @param samplingRate    q, Poisson sampling rate of each step
     * @param epochs          epochs; steps = ceil(epochs / q)
     * @param learningRate    step size
     */
    public record Config(boolean privateTraining, double noiseMultiplier, double clip, double samplingRate, double epochs, double learningRate)
            implements Serializable {
        public Config {
            if (!(samplingRate > 0 && samplingRate <= 1)) {
                throw new BadInputException(Parameter.SAMPLING_RATE, samplingRate, "the sampling rate must be in (0, 1]");
            }
            if (!(epochs > 0) || Double.isInfinite(epochs)) {
                throw new BadInputException(Parameter.EPOCHS, epochs, "must be a finite number > 0");
            }
            if (!(learningRate > 0) || Double.isInfinite(learningRate)) {
                throw new BadInputException(Parameter.LEARNING_RATE, learningRate, "must be a finite number > 0");
            }
            if (privateTraining && (!(noiseMultiplier > 0) || Double.isInfinite(noiseMultiplier))) {
                throw new BadInputException(Parameter.SIGMA, noiseMultiplier, "the noise multiplier must be a finite number > 0");
            }
            if (privateTraining && (!(clip > 0) || Double.isInfinite(clip))) {
                throw new BadInputException(Parameter.CLIP, clip, "the clip norm must be a finite number > 0");
            }
        }

        /** DP-SGD settings. */
        public static Config dpSgd(double sigma, double clip, double q, double epochs, double learningRate) {
            return new Config(true, sigma, clip, q, epochs, learningRate);
        }

        /** Plain SGD with the same sampling. */
        public static Config sgd(double q, double epochs, double learningRate) {
            return new Config(false, 0, Double.POSITIVE_INFINITY, q, epochs, learningRate);
        }

        /** Number of steps: ceil(epochs / q). */
        public long steps() {
            return (long) Math.ceil(epochs / samplingRate - 1e-9);
        }
    }

    /** The (eps, delta) of DP-SGD training with these settings, per example of the shard (RDP accountant). */
    public static DpSgdAccountant.Result privacy(Config c, double delta) {
        if (!c.privateTraining()) {
            throw new BadInputException(Parameter.TRAINING, "plain SGD", "has no privacy guarantee");
        }
        return DpSgdAccountant.account(c.samplingRate(), c.noiseMultiplier(), c.steps(), delta, DpSgdAccountant.defaultOrders());
    }

    /** Trains from zero weights with the randomness of {@code seed}. */
    public static LogisticModel train(LabelledImages data, Config c, long seed) {
        int d = data.features();
        int n = data.size();
        double[] w = new double[d + 1];
        if (n == 0) {
            return new LogisticModel(w);
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] sum = new double[d + 1];
        double[] g = new double[d + 1];
        double scale = c.learningRate() / (c.samplingRate() * n);
        long steps = c.steps();
        for (long s = 0; s < steps; s++) {
            Arrays.fill(sum, 0);
            for (int i = 0; i < n; i++) {
                if (random.nextDouble() >= c.samplingRate()) {
                    continue;
                }
                double[] x = data.x()[i];
                double z = w[d];
                for (int j = 0; j < d; j++) {
                    z += w[j] * x[j];
                }
                double r = sigmoid(z) - data.y()[i];
                double norm2 = r * r;
                for (int j = 0; j < d; j++) {
                    g[j] = r * x[j];
                    norm2 += g[j] * g[j];
                }
                g[d] = r;
                double f = c.privateTraining() ? Math.min(1, c.clip() / Math.sqrt(norm2)) : 1;
                for (int j = 0; j <= d; j++) {
                    sum[j] += f * g[j];
                }
            }
            if (c.privateTraining()) {
                double sd = c.noiseMultiplier() * c.clip();
                for (int j = 0; j <= d; j++) {
                    sum[j] += sd * random.nextGaussian();
                }
            }
            for (int j = 0; j <= d; j++) {
                w[j] -= scale * sum[j];
            }
        }
        return new LogisticModel(w);
    }

    private static double sigmoid(double z) {
        return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
    }
}
