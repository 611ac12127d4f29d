package org.privacybounds.quantized;

import java.io.Serializable;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.commons.numbers.gamma.ErfDifference;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * A b-bit quantized distribution (Liu, Wang and Xia, "Smoothed Differential Privacy", Definition 5): a Gaussian or Laplace law restricted to
 * (-0.5, 0.5], each code's probability the exact mass of its interval, renormalised. Masses are
 * computed in log space without cancellation: Gaussian cells through {@code erf(x2) - erf(x1)}
 * evaluated directly (Commons Numbers {@link ErfDifference}) and, where that underflows, through
 * the scaled complementary error function ({@link Erfcx}); Laplace cells in closed form. No code
 * has probability 0 in log space, however far in the tail.
 *
 * <p>Parameters are the mean mu and the standard deviation sigma of the untruncated law. The
 * paper does not say how its Laplace L_8bit(mu, sigma^2) is parameterised; the default
 * reads sigma^2 as the variance (scale sigma/sqrt 2), {@code laplace-scale:mu:b} takes the scale.
 *
 * <p>Example:
 * <pre>{@code
 * QuantizedDistribution g = QuantizedDistribution.gaussian(0, 0.12, 8);   // N(0, 0.12^2) on the 8-bit code grid
 * String label = g.label();                                                // "gauss:0:0.12"
 * }</pre>
 */
public final class QuantizedDistribution implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The untruncated family. */
    public enum Family {
        GAUSSIAN, LAPLACE
    }

    private static final double SQRT2 = Math.sqrt(2);

    private final Family family;
    private final double mu;
    private final double scale; // sigma for the Gaussian, b for the Laplace law
    private final CodeGrid grid;
    private final String label;
    private final double[] logPmf;
    private final double[] cumulative;

    private QuantizedDistribution(Family family, double mu, double scale, CodeGrid grid, String label) {
        this.family = family;
        this.mu = mu;
        this.scale = scale;
        this.grid = grid;
        this.label = label;
        int k = grid.size();
        double[] logMass = new double[k];
        for (int i = 0; i < k; i++) {
            int c = grid.min() + i;
            logMass[i] = logMass(grid.lower(c), grid.upper(c));
        }
        LogSumExp z = new LogSumExp();
        for (double v : logMass) {
            z.add(v);
        }
        double logZ = z.log();
        logPmf = new double[k];
        cumulative = new double[k];
        double acc = 0;
        for (int i = 0; i < k; i++) {
            logPmf[i] = logMass[i] - logZ;
            acc += Math.exp(logPmf[i]);
            cumulative[i] = acc;
        }
        for (int i = 0; i < k; i++) {
            cumulative[i] /= acc;
        }
        cumulative[k - 1] = 1.0;
    }

    /** The b-bit Gaussian N_b(mu, sigma^2). */
    public static QuantizedDistribution gaussian(double mu, double sigma, int bits) {
        check(mu, sigma, Parameter.SIGMA);
        return new QuantizedDistribution(Family.GAUSSIAN, mu, sigma, new CodeGrid(bits), "gauss:" + fmt(mu) + ":" + fmt(sigma));
    }

    /** The b-bit Laplace law with mean mu and standard deviation sigma (scale sigma / sqrt 2). */
    public static QuantizedDistribution laplace(double mu, double sigma, int bits) {
        check(mu, sigma, Parameter.SIGMA);
        return new QuantizedDistribution(Family.LAPLACE, mu, sigma / SQRT2, new CodeGrid(bits), "laplace:" + fmt(mu) + ":" + fmt(sigma));
    }

    /** The b-bit Laplace law with mean mu and scale b (standard deviation b sqrt 2). */
    public static QuantizedDistribution laplaceScale(double mu, double b, int bits) {
        check(mu, b, Parameter.SCALE);
        return new QuantizedDistribution(Family.LAPLACE, mu, b, new CodeGrid(bits), "laplace-scale:" + fmt(mu) + ":" + fmt(b));
    }

    private static void check(double mu, double s, Parameter name) {
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new BadInputException(name, s, "must be a finite number > 0");
        }
        if (!Double.isFinite(mu)) {
            throw new BadInputException(Parameter.MU, mu, "must be a finite number");
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    public Family family() {
        return family;
    }

    public double mean() {
        return mu;
    }

    /** sigma for the Gaussian, the scale b for the Laplace law. */
    public double scale() {
        return scale;
    }

    public CodeGrid grid() {
        return grid;
    }

    /** The text this distribution parses from. */
    public String label() {
        return label;
    }

    /** log P[code = c]. */
    public double logPmf(int code) {
        return logPmf[grid.check("code", code) - grid.min()];
    }

    /** The log-probabilities of all codes, entry {@code c - grid().min()}. */
    public double[] logPmf() {
        return logPmf.clone();
    }

    /** One code drawn from this law (inverse cdf; codes below 2^-53 in probability are never drawn). */
    public int sample(SplittableRandom rng) {
        double u = rng.nextDouble();
        int i = Arrays.binarySearch(cumulative, u);
        i = i >= 0 ? i + 1 : -i - 1; // first index with cumulative > u
        while (i < cumulative.length - 1 && cumulative[i] == (i == 0 ? 0 : cumulative[i - 1])) {
            i++; // skip codes of (numerically) zero mass
        }
        return grid.min() + Math.min(i, cumulative.length - 1);
    }

    /** log of the mass of the interval (l, u] under the untruncated law. */
    double logMass(double l, double u) {
        if (family == Family.GAUSSIAN) {
            double x1 = (l - mu) / (scale * SQRT2);
            double x2 = (u - mu) / (scale * SQRT2);
            double m = 0.5 * ErfDifference.value(x1, x2);
            if (m > 1e-290) {
                return Math.log(m);
            }
            // far tail: log Q via erfcx, then the difference of two tails of very different size
            if (x1 > 0) {
                double a = LogMath.logHalfErfc(x1);
                return a + LogMath.log1mexp(LogMath.logHalfErfc(x2) - a);
            }
            double a = LogMath.logHalfErfc(-x2);
            return a + LogMath.log1mexp(LogMath.logHalfErfc(-x1) - a);
        }
        double b = scale;
        if (l >= mu) {
            return Math.log(0.5) - (l - mu) / b + Math.log(-Math.expm1(-(u - l) / b));
        }
        if (u <= mu) {
            return Math.log(0.5) - (mu - u) / b + Math.log(-Math.expm1(-(u - l) / b));
        }
        return Math.log(0.5 * (-Math.expm1(-(mu - l) / b)) + 0.5 * (-Math.expm1(-(u - mu) / b)));
    }

    @Override
    public String toString() {
        return label + " (" + grid.bits() + " bits)";
    }
}
