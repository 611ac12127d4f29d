package org.privacybounds.pufferfish;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

import org.apache.commons.math3.analysis.integration.IterativeLegendreGaussIntegrator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.CauchyDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;
import org.apache.commons.statistics.distribution.LaplaceDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The law of an additive release {@code f(X) + N} given a secret: a finite mixture of shifted noise densities,
 * {@code sum_i w_i zeta(y - x_i)}. The test oracle of every Pufferfish guarantee the project prints: the exact
 * hockey-stick divergence {@code H_eps(P || Q) = sup_W P(W) - e^eps Q(W) = int (p - e^eps q)_+} and the Renyi
 * divergence, computed independently of the mechanisms' formulas (noise CDFs and densities from Commons Statistics).
 *
 * <p>Hockey-stick: the sign changes of {@code log p - eps - log q} are bracketed on a grid of 8,000 points in
 * {@code u} ({@code y = c + s tan u}, so the whole line is covered) refined around every atom, located by bisection,
 * and the mass of each positive interval is taken from the noise CDF (exact up to the roots' position, an error of
 * second order). Renyi: Gauss-Legendre quadrature of {@code p^alpha q^(1 - alpha)} in the same variable, split at the atoms,
 * to relative 1e-11.
 */
final class ReleasedLaw {
    private final ContinuousDistribution noise;
    private final double scale;
    private final double[] atoms;
    private final double[] weights;

    private ReleasedLaw(ContinuousDistribution noise, double scale, double[] atoms, double[] weights) {
        this.noise = noise;
        this.scale = scale;
        this.atoms = atoms;
        this.weights = weights;
    }

    /** The release of a discrete law with the given noise. */
    static ReleasedLaw of(DiscreteLaw law, Noise noise) {
        double[] w = new double[law.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = (double) law.counts()[i] / law.total();
        }
        return new ReleasedLaw(distribution(noise), noise.scale(), law.atoms().clone(), w);
    }

    /** The same noise law as {@link Noise}, from Commons Statistics (generalised Cauchy k: a Student t with k - 1 degrees, rescaled). */
    static ContinuousDistribution distribution(Noise noise) {
        double s = noise.scale();
        if (noise instanceof Noise.Gaussian) {
            return NormalDistribution.of(0, s);
        }
        if (noise instanceof Noise.Laplace) {
            return LaplaceDistribution.of(0, s);
        }
        Noise.Cauchy c = (Noise.Cauchy) noise;
        if (c.k() == 2) {
            return CauchyDistribution.of(0, s);
        }
        return new Scaled(TDistribution.of(c.k() - 1), s / Math.sqrt(c.k() - 1));
    }

    double logDensity(double y) {
        double m = Double.NEGATIVE_INFINITY;
        double[] l = new double[atoms.length];
        for (int i = 0; i < atoms.length; i++) {
            l[i] = Math.log(weights[i]) + noise.logDensity(y - atoms[i]);
            m = Math.max(m, l[i]);
        }
        if (m == Double.NEGATIVE_INFINITY) {
            return m;
        }
        double s = 0;
        for (double v : l) {
            s += Math.exp(v - m);
        }
        return m + Math.log(s);
    }

    /** P(a < Y < b), a or b infinite allowed; right tails from the survival function, so tiny masses keep their digits. */
    double mass(double a, double b) {
        double s = 0;
        for (int i = 0; i < atoms.length; i++) {
            double lo = a - atoms[i];
            double hi = b - atoms[i];
            double m = lo > 0 ? noise.survivalProbability(lo) - noise.survivalProbability(hi) : noise.cumulativeProbability(hi) - noise.cumulativeProbability(lo);
            s += weights[i] * m;
        }
        return s;
    }

    /** {@code H_eps(this || other) = int (p - e^eps q)_+}. */
    double hockeyStick(ReleasedLaw other, double eps) {
        DoubleUnaryOperator f = y -> logDensity(y) - eps - other.logDensity(y);
        double[] grid = grid(other);
        List<Double> cuts = new ArrayList<>();
        cuts.add(Double.NEGATIVE_INFINITY);
        double prev = f.applyAsDouble(grid[0]);
        for (int k = 1; k < grid.length; k++) {
            double v = f.applyAsDouble(grid[k]);
            if ((prev > 0) != (v > 0)) {
                double lo = grid[k - 1];
                double hi = grid[k];
                boolean loPositive = prev > 0;
                for (int it = 0; it < 200 && hi - lo > 1e-15 * Math.max(1, Math.abs(lo)); it++) {
                    double mid = 0.5 * (lo + hi);
                    if ((f.applyAsDouble(mid) > 0) == loPositive) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                cuts.add(0.5 * (lo + hi));
            }
            prev = v;
        }
        cuts.add(Double.POSITIVE_INFINITY);
        double total = 0;
        double e = Math.exp(eps);
        for (int k = 0; k + 1 < cuts.size(); k++) {
            double a = cuts.get(k);
            double b = cuts.get(k + 1);
            double probe = a == Double.NEGATIVE_INFINITY ? (b == Double.POSITIVE_INFINITY ? 0 : Math.min(b - 1, grid[0])) : b == Double.POSITIVE_INFINITY
                    ? Math.max(a + 1, grid[grid.length - 1]) : 0.5 * (a + b);
            if (f.applyAsDouble(probe) > 0) {
                total += Math.max(0, mass(a, b) - e * other.mass(a, b));
            }
        }
        return total;
    }

    /** {@code D_alpha(this || other)} for finite alpha > 1, by quadrature. */
    double renyi(ReleasedLaw other, double alpha) {
        double c = center(other);
        double s = scale;
        DoubleUnaryOperator logIntegrand = u -> {
            double y = c + s * Math.tan(u);
            double cu = Math.cos(u);
            return alpha * logDensity(y) + (1 - alpha) * other.logDensity(y) + Math.log(s) - 2 * Math.log(cu);
        };
        double[] cuts = breakpoints(other, c, s, 64);
        double peak = Double.NEGATIVE_INFINITY;
        for (double u : uGrid(other, 4000)) {
            double v = logIntegrand.applyAsDouble(u);
            if (Double.isFinite(v)) {
                peak = Math.max(peak, v);
            }
        }
        double shift = peak;
        IterativeLegendreGaussIntegrator integrator = new IterativeLegendreGaussIntegrator(32, 1e-11, 1e-300, 1, 30);
        double total = 0;
        for (int k = 0; k + 1 < cuts.length; k++) {
            if (cuts[k + 1] - cuts[k] < 1e-15) {
                continue;
            }
            total += integrator.integrate(10_000_000, u -> {
                double v = logIntegrand.applyAsDouble(u);
                return Double.isFinite(v) ? Math.exp(v - shift) : 0;
            }, cuts[k], cuts[k + 1]);
        }
        return (shift + Math.log(total)) / (alpha - 1);
    }

    /** {@code sup_y log p(y)/q(y)} over the grid (a lower estimate of D_inf; equal at the grid's resolution). */
    double maxLogRatio(ReleasedLaw other) {
        double m = Double.NEGATIVE_INFINITY;
        for (double y : grid(other)) {
            m = Math.max(m, logDensity(y) - other.logDensity(y));
        }
        return m;
    }

    private double center(ReleasedLaw other) {
        double lo = Math.min(Arrays.stream(atoms).min().getAsDouble(), Arrays.stream(other.atoms).min().getAsDouble());
        double hi = Math.max(Arrays.stream(atoms).max().getAsDouble(), Arrays.stream(other.atoms).max().getAsDouble());
        return 0.5 * (lo + hi);
    }

    private double[] breakpoints(ReleasedLaw other, double c, double s, int pieces) {
        List<Double> u = new ArrayList<>();
        for (int k = 0; k <= pieces; k++) {
            u.add(-Math.PI / 2 + Math.PI * k / pieces);
        }
        for (double x : atoms) {
            u.add(Math.atan((x - c) / s));
        }
        for (double x : other.atoms) {
            u.add(Math.atan((x - c) / s));
        }
        return u.stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
    }

    private double[] uGrid(ReleasedLaw other, int points) {
        double[] u = new double[points - 1];
        for (int k = 1; k < points; k++) {
            u[k - 1] = -Math.PI / 2 + Math.PI * k / points;
        }
        return u;
    }

    /** Points in y: 8,000 equally spaced in u, and 200 around every atom of either law (within 10 scales). */
    private double[] grid(ReleasedLaw other) {
        double c = center(other);
        List<Double> y = new ArrayList<>();
        for (double u : uGrid(other, 8000)) {
            y.add(c + scale * Math.tan(u));
        }
        for (double[] a : new double[][] {atoms, other.atoms}) {
            for (double x : a) {
                for (int k = -100; k <= 100; k++) {
                    y.add(x + scale * 10 * k / 100.0);
                }
            }
        }
        return y.stream().mapToDouble(Double::doubleValue).filter(Double::isFinite).sorted().distinct().toArray();
    }

    /** A distribution of {@code factor * T}. */
    private record Scaled(ContinuousDistribution base, double factor) implements ContinuousDistribution {
        @Override
        public double density(double x) {
            return base.density(x / factor) / factor;
        }

        @Override
        public double logDensity(double x) {
            return base.logDensity(x / factor) - Math.log(factor);
        }

        @Override
        public double cumulativeProbability(double x) {
            return base.cumulativeProbability(x / factor);
        }

        @Override
        public double survivalProbability(double x) {
            return base.survivalProbability(x / factor);
        }

        @Override
        public double inverseCumulativeProbability(double p) {
            return factor * base.inverseCumulativeProbability(p);
        }

        @Override
        public double getMean() {
            return factor * base.getMean();
        }

        @Override
        public double getVariance() {
            return factor * factor * base.getVariance();
        }

        @Override
        public double getSupportLowerBound() {
            return Double.NEGATIVE_INFINITY;
        }

        @Override
        public double getSupportUpperBound() {
            return Double.POSITIVE_INFINITY;
        }

        @Override
        public Sampler createSampler(UniformRandomProvider rng) {
            Sampler s = base.createSampler(rng);
            return () -> factor * s.sample();
        }
    }
}
