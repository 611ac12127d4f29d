package org.privacybounds.ensemble;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * gamma_opt of DaRRM (Jiang, Zhang and Joshi, "Optimized Tradeoffs for Private Prediction with Majority Ensembling", Section 4 and Appendix C): minimise {@code sum_{l >= mid} c_l gamma(l)} over
 * {@code 0 <= gamma <= 1} subject to every constraint of {@link ConstraintSet}, by constraint
 * generation: a master LP (ojAlgo) over an active set, a separation scan over all of P (supplied by
 * the caller: local or distributed), the most violated rows added, until no row exceeds the bound by
 * more than 1e-12 (relative). Then the certificate: the last full scan's maximum; if it exceeds the
 * bound (LP tolerance), gamma is rescaled by bound/max (f is linear and homogeneous in gamma), and a
 * final full scan certifies it.
 *
 * <p>Example:
 * <pre>{@code
 * ConstraintSet set = ConstraintSet.of(11, 0.1, 0);
 * DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, 3, 0, DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN));
 * double[] gamma = r.gamma();   // gamma(l), l = 0..11: the probability of releasing the majority when l of 11 vote 1
 * }</pre>
 */
public final class DarrmOptimizer {
    /** Rows above {@code bound (1 + RELATIVE_SLACK)} count as violated during generation. */
    public static final double RELATIVE_SLACK = 1e-12;
    private static final int MAX_ROUNDS = 500;

    static {
        // ojAlgo prints a hardware-profile notice on stdout at start-up unless this property is set; stdout carries --json
        if (System.getProperty("shut.up.ojAlgo") == null) {
            System.setProperty("shut.up.ojAlgo", "true");
        }
    }

    private DarrmOptimizer() {
    }

    /** A full scan of P for a free half x: the maximum, its row and the rows above a threshold. */
    @FunctionalInterface
    public interface Separation {
        ConstraintSet.ScanResult scan(double[] x, double threshold, int keep);
    }

    /** The result with its certificate. */
    public record Result(double[] gamma, double objective, double bound, double maxCost, int[] worstMultiset, long constraints, int rounds,
            int activeSet, boolean rescaled, double rescaleFactor) {
        /** The same optimum with gamma replaced by {@code gamma * factor} (as the 60-digit certificate scales it); the objective follows. */
        public Result scaledBy(double[] scaledGamma, double factor) {
            return new Result(scaledGamma.clone(), objective * factor, bound, maxCost, worstMultiset, constraints, rounds, activeSet, rescaled,
                    rescaleFactor);
        }
    }

    /** {@code c_l = -1/2 [Bin(l; K, mu) - Bin(K - l; K, mu)]}, l = mid..K (the exact objective, section 5.1). */
    public static double[] objective(int k, double mu) {
        if (!(mu > 0 && mu < 1)) {
            throw new BadInputException(Parameter.PRIOR_MEAN, mu, "must be in (0, 1)");
        }
        BinomialDistribution b = BinomialDistribution.of(k, mu);
        int mid = (k + 1) / 2;
        double[] c = new double[mid];
        for (int l = mid; l <= k; l++) {
            c[l - mid] = -0.5 * (b.probability(l) - b.probability(k - l));
        }
        return c;
    }

    /** Full gamma (0..K) from its free half. */
    public static double[] gamma(double[] x) {
        int mid = x.length;
        int k = 2 * mid - 1;
        double[] g = new double[k + 1];
        for (int l = mid; l <= k; l++) {
            g[l] = x[l - mid];
            g[k - l] = x[l - mid];
        }
        return g;
    }

    /** The free half gamma(mid..K) of a full symmetric gamma. */
    public static double[] free(double[] gamma) {
        NoiseFunctions.check(gamma);
        int mid = gamma.length / 2;
        return Arrays.copyOfRange(gamma, mid, gamma.length);
    }

    /** {@link #optimize(ConstraintSet, double, double, double[], Separation, Consumer)} with every scan in this thread, no progress. */
    public static Result optimize(ConstraintSet set, double m, double delta, double[] c) {
        double em = Math.exp(m * set.epsilon());
        return optimize(set, m, delta, c, (x, th, keep) -> set.scanAll(x, em, th, keep), null);
    }

    /**
     * @param set      the constraints (K, eps, Delta)
     * @param m        the privacy allowance (target m eps)
     * @param delta    the target delta (>= Delta)
     * @param c        objective coefficients (l = mid..K)
     * @param separation a full scan of P
     * @param progress receives one line per round (may be null)
     */
    public static Result optimize(ConstraintSet set, double m, double delta, double[] c, Separation separation, Consumer<String> progress) {
        checkAllowance(set, m, delta);
        double em = Math.exp(m * set.epsilon());
        double bound = ConstraintSet.bound(m, set.epsilon(), delta);
        int mid = set.free();
        List<ConstraintSet.Row> active = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        double[] zero = new double[mid];
        // start: the homogeneous multisets (K copies of one corner)
        for (int j = 0; j < set.corners().length; j++) {
            int[] n = new int[set.corners().length];
            n[j] = set.k();
            add(active, keys, set.row(n, zero, em));
        }
        double[] x = new double[mid];
        int rounds = 0;
        ConstraintSet.ScanResult scan;
        int keep = Math.max(10, 2 * mid);
        while (true) {
            rounds++;
            x = solve(c, active, bound);
            scan = separation.scan(x, bound * (1 + RELATIVE_SLACK), keep);
            int added = 0;
            for (ConstraintSet.Row r : scan.above()) {
                added += add(active, keys, r) ? 1 : 0;
            }
            if (progress != null) {
                progress.accept(String.format(Locale.ROOT, "round %d: active set %d, max cost %.12g (bound %.12g), %d rows added", rounds,
                        active.size(), scan.max(), bound, added));
            }
            if (added == 0 || rounds >= MAX_ROUNDS) {
                break;
            }
        }
        boolean rescaled = false;
        double factor = 1;
        if (scan.max() > bound) {
            // f is homogeneous in gamma: scaling by bound/max makes every row feasible; a hair more for the rounding
            factor = bound / scan.max() * (1 - 4e-16 * mid);
            for (int i = 0; i < mid; i++) {
                x[i] *= factor;
            }
            rescaled = true;
            scan = separation.scan(x, Double.POSITIVE_INFINITY, 0);
        }
        double obj = 0;
        for (int i = 0; i < mid; i++) {
            obj += c[i] * x[i];
        }
        return new Result(gamma(x), obj, bound, scan.max(), scan.argmax().counts(), scan.scanned(), rounds, active.size(), rescaled, factor);
    }

    /** The LP over the given rows (ojAlgo): the master LP, or, over all of P, the paper's method (the benchmark's baseline). */
    public static double[] solve(double[] c, List<ConstraintSet.Row> rows, double bound) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable[] v = new Variable[c.length];
        for (int i = 0; i < c.length; i++) {
            v[i] = model.addVariable("g" + i).lower(0).upper(1).weight(c[i]);
        }
        int r = 0;
        for (ConstraintSet.Row row : rows) {
            Expression e = model.addExpression("r" + r++).upper(bound);
            for (int i = 0; i < c.length; i++) {
                if (row.coefficients()[i] != 0) {
                    e.set(v[i], row.coefficients()[i]);
                }
            }
        }
        Optimisation.Result res = model.minimise();
        if (!res.getState().isFeasible()) {
            throw new IllegalStateException("the master LP is " + res.getState() + " (gamma = 0 is always feasible; this is a solver failure)");
        }
        double[] x = new double[c.length];
        for (int i = 0; i < c.length; i++) {
            x[i] = Math.max(0, Math.min(1, res.doubleValue(i)));
        }
        return x;
    }

    private static boolean add(List<ConstraintSet.Row> active, Set<String> keys, ConstraintSet.Row r) {
        if (keys.add(Arrays.toString(r.counts()))) {
            active.add(r);
            return true;
        }
        return false;
    }

    /** m in [1, K], delta in [Delta, 1). */
    public static void checkAllowance(ConstraintSet set, double m, double delta) {
        if (!(m >= 1 && m <= set.k())) {
            throw new BadInputException(Parameter.ALLOWANCE, m, "must be in [1, K] = [1, " + set.k() + "]");
        }
        if (!(delta >= set.mechanismDelta() && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in [Delta, 1) = [" + set.mechanismDelta() + ", 1)");
        }
    }
}
