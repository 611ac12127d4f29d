package org.privacybounds.ensemble;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.privacybounds.ensemble.ConstraintSet.Corner;
import org.privacybounds.ensemble.ConstraintSet.Value;
import org.privacybounds.guarantee.Verdict;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Whether DaRRM with a given gamma is (m eps, delta)-DP, decided so that rounding cannot flip the answer (Lemma 3.4 of
 * Jiang, Zhang, Joshi, "Optimized Tradeoffs for Private Prediction with Majority
 * Ensembling"): every multiset n of P costs {@code f(n) = sum_{l >= mid} a_l(n) gamma(l)}, and DaRRM is DP exactly when
 * every {@code f(n) <= e^{m eps} - 1 + 2 delta}.
 *
 * <p>How each multiset is decided:
 * <ol>
 * <li><b>Intervals at {@value #DIGITS} digits.</b> e^eps and e^{m eps} come from apfloat, widened to intervals; the corners,
 * the Poisson-binomial laws and the cost are carried as [lower, upper] with every operation rounded down for the lower end
 * and up for the upper end (BigDecimal FLOOR / CEILING). A cost whose upper end is at most the bound's lower end holds;
 * one whose lower end exceeds the bound's upper end fails.</li>
 * <li><b>Exact ties.</b> Where the intervals overlap, the multiset is tested for an exact tie: with {@code t = e^eps},
 * {@code (t + 1)^K (f - bound) = U(t) - e^{m eps} V(t)} for polynomials U, V with rational coefficients (gamma's doubles,
 * the decimal Delta and delta). t is transcendental (Lindemann: eps is a non-zero rational), so f equals the bound
 * exactly when U and V vanish identically, or, for an integer m, when {@code U - t^m V} does; for a non-integer m = p/q,
 * {@code t^{p/q} = U/V} is impossible for a rational function. Either way the test is exact polynomial arithmetic.</li>
 * <li><b>More digits.</b> A multiset that is not a tie has {@code f != bound}, so enough digits separate them: its interval
 * is recomputed at 120, 240, 480 and {@value #MAX_DIGITS} digits. Only if that still overlaps is it undecided.</li>
 * </ol>
 * A value the user typed (eps, Delta, m, delta) enters as the decimal typed ({@link ExactTarget}); gamma as its doubles,
 * which are exactly what DaRRM then uses.
 */
public final class HighPrecisionVerifier {
    /** Digits of the first interval pass over every multiset. */
    public static final int DIGITS = 60;
    /** The most digits a near tie is recomputed with before it is called undecided. */
    public static final int MAX_DIGITS = 960;
    /** The most multisets whose intervals straddle the bound that are settled one by one. */
    public static final int MAX_NEAR_TIES = 4096;

    private HighPrecisionVerifier() {
    }

    /**
     * The verdict over the multisets checked, with its witness: for FAILS a multiset provably above the bound, for
     * UNDECIDED one that no precision settled, for HOLDS the multiset of largest cost (an exact tie when it equals the bound).
     *
     * @param worstLower   lower end of the witness's cost
     * @param worstUpper   upper end of the witness's cost
     * @param maxUpper     the largest upper end of any cost (what {@link #certify} scales gamma by)
     * @param nearTies     multisets whose first intervals straddled the bound
     * @param exactTies    of those, the ones equal to the bound exactly
     * @param undecided    multisets left undecided (near ties no precision settled, or beyond {@link #MAX_NEAR_TIES})
     * @param digits       the most digits used
     * @param arithmetic   how the verdict was obtained, in words
     */
    public record Certificate(Verdict verdict, int[] worstMultiset, BigDecimal worstLower, BigDecimal worstUpper, boolean worstExactTie,
            BigDecimal maxUpper, BigDecimal boundLower, BigDecimal boundUpper, long multisets, long nearTies, long exactTies, long undecided,
            int digits, String arithmetic) {
        /** Whether DaRRM is provably (m eps, delta)-DP over the multisets checked. */
        public boolean certified() {
            return verdict == Verdict.HOLDS;
        }

        /** The witness's cost (its upper end). */
        public BigDecimal maxCost() {
            return worstUpper;
        }

        /** The bound (its lower end). */
        public BigDecimal bound() {
            return boundLower;
        }
    }

    /** A gamma that provably passes, its certificate, and how far it was scaled down to pass. */
    public record Certified(double[] gamma, Certificate certificate, int rescalings, double factor) {
        public boolean rescaled() {
            return rescalings > 0;
        }
    }

    /** {@link #verify(ConstraintSet, ExactTarget, double[])} with m and delta the exact values of these doubles. */
    public static Certificate verify(ConstraintSet set, double[] gamma, double m, double delta) {
        return verify(set, ExactTarget.binary(set.epsilon(), set.mechanismDelta(), m, delta), gamma);
    }

    /** The verdict over every multiset of P. */
    public static Certificate verify(ConstraintSet set, ExactTarget target, double[] gamma) {
        Problem pb = new Problem(set, target, gamma);
        Arith a = pb.arith(DIGITS);
        Walker w = new Walker(pb, a);
        w.walkAll();
        return pb.settle(w.outcome, a, "decimal intervals with directed rounding, " + DIGITS + " digits, every multiset checked");
    }

    /**
     * The verdict over the given multisets only (counts in {@link ConstraintSet#corners} order), e.g. the rows a double scan
     * could not decide; the rest must be decided elsewhere.
     */
    public static Certificate verifyMultisets(ConstraintSet set, ExactTarget target, double[] gamma, List<int[]> multisets) {
        Problem pb = new Problem(set, target, gamma);
        Arith a = pb.arith(DIGITS);
        Outcome o = new Outcome();
        for (int[] n : multisets) {
            Iv v = pb.cost(n, a);
            o.add(n, v, a.bound);
        }
        return pb.settle(o, a, "decimal intervals with directed rounding, " + DIGITS + " digits, " + multisets.size() + " multisets checked");
    }

    /** The cost interval {lower, upper} of each multiset at {@value #DIGITS} digits (for tests of the double error bound). */
    static List<BigDecimal[]> costIntervals(ConstraintSet set, ExactTarget target, double[] gamma, List<int[]> multisets) {
        Problem pb = new Problem(set, target, gamma);
        Arith a = pb.arith(DIGITS);
        List<BigDecimal[]> out = new ArrayList<>();
        for (int[] n : multisets) {
            Iv v = pb.cost(n, a);
            out.add(new BigDecimal[] {v.lo, v.hi});
        }
        return out;
    }

    /**
     * The verdict from a double scan of every multiset ({@link ConstraintSet#scan}) with {@code threshold} from
     * {@link #doubleThreshold}: rows at or below it hold by the a-priori error bound; the rows above it are decided one by
     * one as in {@link #verifyMultisets}; if more rows lay above it than the scan kept, those not kept stay undecided
     * (unless one row provably fails).
     */
    public static Certificate verifyScan(ConstraintSet set, ExactTarget target, double[] gamma, double em, ConstraintSet.ScanResult scan) {
        double theta = doubleErrorBound(set, target, em);
        Problem pb = new Problem(set, target, gamma);
        Arith a = pb.arith(DIGITS);
        Outcome o = new Outcome();
        List<int[]> rows = new ArrayList<>();
        for (ConstraintSet.Row r : scan.above()) {
            rows.add(r.counts());
        }
        for (int[] n : rows) {
            o.add(n, pb.cost(n, a), a.bound);
        }
        long notKept = scan.aboveCount() - rows.size();
        if (notKept > 0) {
            o.overflow += notKept;
        }
        String words = "double scan of every multiset with an a-priori error bound of " + String.format(Locale.ROOT, "%.3g", theta)
                + "; the " + scan.aboveCount() + " rows within it of the bound in " + DIGITS + "-digit decimal intervals with directed rounding";
        Certificate c = pb.settle(o, a, words);
        if (c.verdict() == Verdict.HOLDS && rows.isEmpty()) {
            // every row held by the double bound: the witness is the scan's maximum, its interval max +- theta
            BigDecimal hi = new BigDecimal(scan.max()).add(new BigDecimal(theta));
            return new Certificate(Verdict.HOLDS, scan.argmax().counts(), new BigDecimal(scan.max()).subtract(new BigDecimal(theta)), hi, false, hi,
                    a.bound.lo, a.bound.hi, scan.scanned(), 0, 0, 0, 0, words);
        }
        return new Certificate(c.verdict(), c.worstMultiset(), c.worstLower(), c.worstUpper(), c.worstExactTie(), c.maxUpper().max(
                new BigDecimal(scan.max()).add(new BigDecimal(theta))), c.boundLower(), c.boundUpper(), scan.scanned(), c.nearTies(), c.exactTies(),
                c.undecided(), c.digits(), c.arithmetic() + (notKept > 0 ? "; " + notKept + " more rows within the error bound were not kept" : ""));
    }

    /** {@link #verifyScan} of a fresh double scan (every multiset, through {@code separation}) with e^{m eps} = {@code em}. */
    public static Certificate verifyByScan(ConstraintSet set, ExactTarget target, double[] gamma, double em, DarrmOptimizer.Separation separation) {
        ConstraintSet.ScanResult scan = separation.scan(DarrmOptimizer.free(gamma), doubleThreshold(set, target, em), MAX_NEAR_TIES);
        return verifyScan(set, target, gamma, em, scan);
    }

    /**
     * The threshold a double scan needs: every row whose double cost is at most it provably holds, because the double cost
     * is within {@link #doubleErrorBound} of the exact one. Rows above it go to {@link #verifyScan}.
     */
    public static double doubleThreshold(ConstraintSet set, ExactTarget target, double em) {
        Problem pb = new Problem(set, target, new double[set.k() + 1]);
        double lo = pb.arith(DIGITS).bound.lo.round(new MathContext(17, RoundingMode.FLOOR)).doubleValue();
        return Math.nextDown(Math.nextDown(lo) - doubleErrorBound(set, target, em));
    }

    /**
     * A rigorous bound on |double cost - exact cost| for any multiset and any gamma in [0, 1], when the scan runs with the
     * set's double corners and {@code em} for e^{m eps}. Every input the double path uses is compared with its exact
     * interval: rho is the largest relative error of a corner value or of its double complement {@code 1 - p} (as
     * {@link PoissonBinomial} computes it), theta_E that of em. After K Poisson-binomial steps each probability has
     * relative error at most {@code eta = (1 + rho)^K (1 + u)^{2K} - 1} (every term is non-negative); a coefficient
     * {@code alpha_i - em alpha'_i} then errs by at most {@code zeta (alpha_i + E alpha'_i)} with
     * {@code zeta = (1 + eta)(1 + theta_E)(1 + u)^2 - 1}, and the sums over l of those magnitudes are at most 2 (1 + E).
     * With the rounding of the K + 4 further operations per cost:
     * {@code |error| <= 2 (1 + E) (zeta + (K + 4) u (1 + zeta)) + 8 K^2 (1 + E) 2^-1074} (the last term: underflow).
     * Infinite when the inputs are too inaccurate for the bound to mean anything (then a double scan decides nothing).
     */
    public static double doubleErrorBound(ConstraintSet set, ExactTarget target, double em) {
        Problem pb = new Problem(set, target, new double[set.k() + 1]);
        Arith a = pb.arith(DIGITS);
        double u = 0x1p-53;
        double rho = 0;
        double[][] c = set.corners();
        Corner[] kinds = set.cornerKinds();
        for (int j = 0; j < set.interior(); j++) {
            for (int side = 0; side < 2; side++) {
                Value v = side == 0 ? kinds[j].p() : kinds[j].pPrime();
                double p = c[j][side];
                rho = Math.max(rho, relativeError(p, a.value(v)));
                rho = Math.max(rho, relativeError(1 - p, a.value(v.complement())));
            }
        }
        double thetaE = relativeError(em, a.em);
        int k = set.k();
        double eta = Math.expm1(k * (Math.log1p(rho) + 2 * Math.log1p(u))) * 1.01;
        double zeta = (1 + eta) * (1 + thetaE) * (1 + u) * (1 + u) - 1;
        double e = a.em.hi.doubleValue() * (1 + 4 * u);
        double bound = 2 * (1 + e) * (zeta + (k + 4) * u * (1 + zeta)) * 1.01 + 8.0 * k * k * (1 + e) * Double.MIN_VALUE;
        return Double.isFinite(bound) && zeta < 1e-3 ? bound : Double.POSITIVE_INFINITY;
    }

    /** max |x - v| / min |v| over the interval v (v > 0), rounded up; 0 for an exact 0. */
    private static double relativeError(double x, Iv v) {
        if (v.lo.signum() == 0 && v.hi.signum() == 0) {
            return x == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        if (v.lo.signum() <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        BigDecimal bx = new BigDecimal(x);
        BigDecimal diff = bx.subtract(v.lo).abs().max(bx.subtract(v.hi).abs());
        return diff.divide(v.lo, new MathContext(20, RoundingMode.CEILING)).doubleValue() * (1 + 0x1p-50);
    }

    /**
     * A gamma that provably passes: gamma itself when {@link #verify} says HOLDS, else gamma scaled by
     * {@code bound / maxCost (1 - eta)} until it does (every cost is linear in gamma; eta = 1e-15, then ten times more each
     * round, absorbs the rounding of gamma to doubles).
     */
    public static Certified certify(ConstraintSet set, double[] gamma, double m, double delta) {
        return certify(set, ExactTarget.binary(set.epsilon(), set.mechanismDelta(), m, delta), gamma);
    }

    /** {@link #certify(ConstraintSet, double[], double, double)} against an exact target. */
    public static Certified certify(ConstraintSet set, ExactTarget target, double[] gamma) {
        Certificate c = verify(set, target, gamma);
        double[] g = gamma.clone();
        double total = 1;
        int rounds = 0;
        BigDecimal eta = new BigDecimal("1e-15");
        MathContext mc = new MathContext(DIGITS);
        while (!c.certified()) {
            if (rounds == MAX_RESCALINGS) {
                throw new IllegalStateException("gamma still exceeds the bound after " + rounds + " rescalings: " + c.maxUpper() + " > " + c.bound());
            }
            BigDecimal f = c.bound().divide(c.maxUpper(), mc).multiply(BigDecimal.ONE.subtract(eta), mc);
            for (int l = 0; l < g.length; l++) {
                g[l] = new BigDecimal(g[l]).multiply(f, mc).doubleValue();
            }
            total *= f.doubleValue();
            rounds++;
            eta = eta.multiply(BigDecimal.TEN);
            c = verify(set, target, g);
        }
        return new Certified(g, c, rounds, total);
    }

    /**
     * {@link #certify(ConstraintSet, ExactTarget, double[])} with the double scan of {@link #verifyByScan} (for sets too large for
     * the decimal pass): gamma is scaled by {@code (bound - theta) / maxCost (1 - eta)} until the scan's verdict holds.
     */
    public static Certified certifyByScan(ConstraintSet set, ExactTarget target, double[] gamma, double em, DarrmOptimizer.Separation separation) {
        double theta = doubleErrorBound(set, target, em);
        Certificate c = verifyByScan(set, target, gamma, em, separation);
        double[] g = gamma.clone();
        double total = 1;
        int rounds = 0;
        double eta = 1e-15;
        while (!c.certified()) {
            if (rounds == MAX_RESCALINGS || !Double.isFinite(theta)) {
                throw new IllegalStateException("gamma still exceeds the bound after " + rounds + " rescalings (double error bound " + theta + "): "
                        + c.maxUpper() + " > " + c.bound());
            }
            double f = Math.max(0, (c.bound().doubleValue() - theta) / c.maxUpper().doubleValue() * (1 - eta));
            for (int l = 0; l < g.length; l++) {
                g[l] *= f;
            }
            total *= f;
            rounds++;
            eta *= 10;
            c = verifyByScan(set, target, g, em, separation);
        }
        return new Certified(g, c, rounds, total);
    }

    private static final int MAX_RESCALINGS = 12;

    /** A closed interval [lo, hi]. */
    private record Iv(BigDecimal lo, BigDecimal hi) {
        static Iv exact(BigDecimal x, Arith a) {
            return new Iv(x.round(a.down), x.round(a.up));
        }
    }

    /** Directed rounding at one precision, with the constants of the problem as intervals. */
    private static final class Arith {
        final MathContext down;
        final MathContext up;
        final int digits;
        final Iv t;
        final Iv em;
        final Iv bound;
        final Iv[] values = new Iv[Value.values().length];

        Arith(int digits, ExactTarget target) {
            this.digits = digits;
            down = new MathContext(digits, RoundingMode.FLOOR);
            up = new MathContext(digits, RoundingMode.CEILING);
            t = exp(target.epsilon());
            em = exp(target.mEpsilon());
            BigDecimal twoDelta = target.delta().multiply(BigDecimal.valueOf(2));
            bound = new Iv(em.lo.subtract(BigDecimal.ONE).add(twoDelta).round(down), em.hi.subtract(BigDecimal.ONE).add(twoDelta).round(up));
            BigDecimal d = target.mechanismDelta();
            BigDecimal oneMinusD = BigDecimal.ONE.subtract(d);
            values[Value.ZERO.ordinal()] = new Iv(BigDecimal.ZERO, BigDecimal.ZERO);
            values[Value.ONE.ordinal()] = new Iv(BigDecimal.ONE, BigDecimal.ONE);
            values[Value.DELTA.ordinal()] = Iv.exact(d, this);
            values[Value.ONE_MINUS_DELTA.ordinal()] = Iv.exact(oneMinusD, this);
            // A = (t + Delta) / (t + 1) increases with t, B = (1 - Delta) / (t + 1) decreases
            values[Value.A.ordinal()] = new Iv(t.lo.add(d, down).divide(t.lo.add(BigDecimal.ONE, up), down),
                    t.hi.add(d, up).divide(t.hi.add(BigDecimal.ONE, down), up));
            values[Value.B.ordinal()] = new Iv(oneMinusD.divide(t.hi.add(BigDecimal.ONE, up), down), oneMinusD.divide(t.lo.add(BigDecimal.ONE, down), up));
        }

        Iv value(Value v) {
            return values[v.ordinal()];
        }

        /** e^x as an interval: apfloat at 20 more digits, widened by 1e-(digits + 10) relative (far beyond its last-digit error). */
        private Iv exp(BigDecimal x) {
            long p = Math.max(digits + 20L, x.precision() + 10L);
            Apfloat e = ApfloatMath.exp(new Apfloat(x, p));
            BigDecimal v = new BigDecimal(e.toString(true));
            BigDecimal w = v.multiply(BigDecimal.ONE.scaleByPowerOfTen(-(digits + 10)));
            return new Iv(v.subtract(w).round(down), v.add(w).round(up));
        }
    }

    /** The multisets' verdicts as they are found: the worst failing one, the largest upper cost, the near ties. */
    private static final class Outcome {
        int[] failing;
        Iv failingCost;
        int[] argmax;
        Iv argmaxCost;
        final List<int[]> near = new ArrayList<>();
        final List<Iv> nearCost = new ArrayList<>();
        long overflow;
        long count;

        void add(int[] counts, Iv v, Iv bound) {
            count++;
            if (argmax == null || v.hi.compareTo(argmaxCost.hi) > 0) {
                argmax = counts.clone();
                argmaxCost = v;
            }
            Verdict verdict = Verdict.compare(v.lo, v.hi, bound.lo, bound.hi);
            if (verdict == Verdict.FAILS) {
                if (failing == null || v.lo.compareTo(failingCost.lo) > 0) {
                    failing = counts.clone();
                    failingCost = v;
                }
            } else if (verdict == Verdict.UNDECIDED) {
                if (near.size() < MAX_NEAR_TIES) {
                    near.add(counts.clone());
                    nearCost.add(v);
                } else {
                    overflow++;
                }
            }
        }

        /**
         * Adds the outcome of multisets that come after this one's in the walk: the same as adding them one by one (the first
         * of equal maxima is kept, the near ties stay in the walk's order up to {@link #MAX_NEAR_TIES}).
         */
        void merge(Outcome o) {
            count += o.count;
            if (o.argmax != null && (argmax == null || o.argmaxCost.hi.compareTo(argmaxCost.hi) > 0)) {
                argmax = o.argmax;
                argmaxCost = o.argmaxCost;
            }
            if (o.failing != null && (failing == null || o.failingCost.lo.compareTo(failingCost.lo) > 0)) {
                failing = o.failing;
                failingCost = o.failingCost;
            }
            for (int i = 0; i < o.near.size(); i++) {
                if (near.size() < MAX_NEAR_TIES) {
                    near.add(o.near.get(i));
                    nearCost.add(o.nearCost.get(i));
                } else {
                    overflow++;
                }
            }
            overflow += o.overflow;
        }
    }

    /** The set, the exact target and gamma: the pieces every pass needs. */
    private static final class Problem {
        final ConstraintSet set;
        final ExactTarget target;
        final BigDecimal[] x;
        final Corner[] kinds;
        final int k;
        final int mid;

        Problem(ConstraintSet set, ExactTarget target, double[] gamma) {
            NoiseFunctions.check(gamma);
            if (gamma.length != set.k() + 1) {
                throw new BadInputException(Parameter.GAMMA, gamma.length + " values", "needs K + 1 = " + (set.k() + 1));
            }
            if (target.epsilon().doubleValue() != set.epsilon() || target.mechanismDelta().doubleValue() != set.mechanismDelta()) {
                throw new BadInputException(Parameter.TARGET, target, "must have the constraint set's eps = " + set.epsilon() + " and Delta = "
                        + set.mechanismDelta());
            }
            this.set = set;
            this.target = target;
            this.k = set.k();
            this.mid = (k + 1) / 2;
            this.kinds = set.cornerKinds();
            x = new BigDecimal[mid];
            for (int l = mid; l <= k; l++) {
                x[l - mid] = new BigDecimal(gamma[l]);
            }
        }

        Arith arith(int digits) {
            return new Arith(digits, target);
        }

        /** The cost interval of one multiset. */
        Iv cost(int[] counts, Arith a) {
            Laws laws = new Laws(k, a);
            int interior = set.interior();
            for (int j = 0; j < interior; j++) {
                for (int c = 0; c < counts[j]; c++) {
                    laws.add(a.value(kinds[j].p()), a.value(kinds[j].p().complement()), a.value(kinds[j].pPrime()),
                            a.value(kinds[j].pPrime().complement()), a);
                }
            }
            laws.differences(a);
            return laws.cost(counts[interior + 1], x, mid, a);
        }

        /** The verdict from the first pass's outcome: near ties tested for exactness, then recomputed with more digits. */
        Certificate settle(Outcome o, Arith first, String firstPass) {
            long ties = 0;
            long undecided = o.overflow;
            int digits = first.digits;
            int[] failing = o.failing;
            Iv failingCost = o.failingCost;
            int[] open = null;
            Iv openCost = null;
            int[] tie = null;
            Iv tieCost = null;
            ExactTie exact = new ExactTie(set, target, x);
            for (int i = 0; i < o.near.size(); i++) {
                int[] n = o.near.get(i);
                if (exact.isTie(n)) {
                    ties++;
                    if (tie == null) {
                        tie = n;
                        tieCost = o.nearCost.get(i);
                    }
                    continue;
                }
                Verdict v = Verdict.UNDECIDED;
                Iv cost = o.nearCost.get(i);
                for (int d = 2 * first.digits; d <= MAX_DIGITS && v == Verdict.UNDECIDED; d *= 2) {
                    Arith a = arith(d);
                    cost = cost(n, a);
                    v = Verdict.compare(cost.lo, cost.hi, a.bound.lo, a.bound.hi);
                    digits = Math.max(digits, d);
                }
                if (v == Verdict.FAILS && (failing == null || cost.lo.compareTo(failingCost.lo) > 0)) {
                    failing = n;
                    failingCost = cost;
                } else if (v == Verdict.UNDECIDED) {
                    undecided++;
                    if (open == null) {
                        open = n;
                        openCost = cost;
                    }
                }
            }
            String words = firstPass
                    + (o.near.isEmpty() ? "" : "; " + o.near.size() + " near ties settled (" + ties + " exact ties by polynomial identity"
                            + (ties == o.near.size() ? ")" : ", the rest with up to " + digits + " digits)"));
            Iv b = first.bound;
            BigDecimal maxUpper = o.argmax == null ? b.lo : o.argmaxCost.hi;
            if (failing != null) {
                return new Certificate(Verdict.FAILS, failing, failingCost.lo, failingCost.hi, false, maxUpper, b.lo, b.hi, o.count, o.near.size(), ties,
                        undecided, digits, words);
            }
            if (undecided > 0) {
                int[] w = open != null ? open : o.argmax;
                Iv wc = open != null ? openCost : o.argmaxCost;
                return new Certificate(Verdict.UNDECIDED, w, wc.lo, wc.hi, false, maxUpper, b.lo, b.hi, o.count, o.near.size(), ties, undecided, digits,
                        words);
            }
            if (o.argmax == null) {
                return new Certificate(Verdict.HOLDS, new int[kinds.length], b.lo, b.lo, false, maxUpper, b.lo, b.hi, 0, 0, 0, 0, digits, words);
            }
            boolean argmaxTie = tie != null && o.argmaxCost.lo.compareTo(b.hi) <= 0 && exact.isTie(o.argmax);
            if (tie != null && !argmaxTie) {
                // a tie is the largest cost there is (every other multiset is provably at most the bound)
                return new Certificate(Verdict.HOLDS, tie, tieCost.lo, tieCost.hi, true, maxUpper, b.lo, b.hi, o.count, o.near.size(), ties, 0, digits,
                        words);
            }
            return new Certificate(Verdict.HOLDS, o.argmax, o.argmaxCost.lo, o.argmaxCost.hi, argmaxTie, maxUpper, b.lo, b.hi, o.count, o.near.size(), ties,
                    0, digits, words);
        }
    }

    /** The two Poisson-binomial laws (alpha on D, alpha' on D') as intervals, grown one corner at a time. */
    private static final class Laws {
        final BigDecimal[] pLo;
        final BigDecimal[] pHi;
        final BigDecimal[] qLo;
        final BigDecimal[] qHi;
        BigDecimal[] dLo;
        BigDecimal[] dHi;
        int size;

        Laws(int k, Arith a) {
            pLo = zeros(k + 1);
            pHi = zeros(k + 1);
            qLo = zeros(k + 1);
            qHi = zeros(k + 1);
            pLo[0] = BigDecimal.ONE;
            pHi[0] = BigDecimal.ONE;
            qLo[0] = BigDecimal.ONE;
            qHi[0] = BigDecimal.ONE;
        }

        Laws(Laws o) {
            pLo = o.pLo.clone();
            pHi = o.pHi.clone();
            qLo = o.qLo.clone();
            qHi = o.qHi.clone();
            size = o.size;
        }

        private static BigDecimal[] zeros(int n) {
            BigDecimal[] z = new BigDecimal[n];
            Arrays.fill(z, BigDecimal.ZERO);
            return z;
        }

        /** One more record with P(1) = p on D (1 - p = r) and p' on D' (1 - p' = r'), lower ends rounded down, upper up. */
        void add(Iv p, Iv r, Iv pp, Iv rp, Arith a) {
            step(pLo, size, p.lo, r.lo, a.down);
            step(pHi, size, p.hi, r.hi, a.up);
            step(qLo, size, pp.lo, rp.lo, a.down);
            step(qHi, size, pp.hi, rp.hi, a.up);
            size++;
        }

        private static void step(BigDecimal[] pmf, int n, BigDecimal p, BigDecimal r, MathContext mc) {
            pmf[n + 1] = pmf[n].multiply(p, mc);
            for (int l = n; l >= 1; l--) {
                pmf[l] = pmf[l].multiply(r, mc).add(pmf[l - 1].multiply(p, mc), mc);
            }
            pmf[0] = pmf[0].multiply(r, mc);
        }

        /** alpha_i - E alpha'_i for i = 0..size, as intervals. */
        void differences(Arith a) {
            dLo = new BigDecimal[size + 1];
            dHi = new BigDecimal[size + 1];
            for (int i = 0; i <= size; i++) {
                dLo[i] = pLo[i].subtract(a.em.hi.multiply(qHi[i], a.up), a.down);
                dHi[i] = pHi[i].subtract(a.em.lo.multiply(qLo[i], a.down), a.up);
            }
        }

        /** The cost of these laws shifted by n1 records of corner (1,1) (the rest (0,0)): sum_l x_l (d_{l-n1} - d_{K-l-n1}). */
        Iv cost(int n1, BigDecimal[] x, int mid, Arith a) {
            int k = 2 * mid - 1;
            BigDecimal lo = BigDecimal.ZERO;
            BigDecimal hi = BigDecimal.ZERO;
            for (int l = mid; l <= k; l++) {
                BigDecimal xl = x[l - mid];
                if (xl.signum() == 0) {
                    continue;
                }
                int i = l - n1;
                int r = k - l - n1;
                boolean hasI = i >= 0 && i <= size;
                boolean hasR = r >= 0 && r <= size;
                if (!hasI && !hasR) {
                    continue;
                }
                // exact differences, products and sums (no rounding error to bound), rounded once at the end
                BigDecimal aLo = (hasI ? dLo[i] : BigDecimal.ZERO).subtract(hasR ? dHi[r] : BigDecimal.ZERO);
                BigDecimal aHi = (hasI ? dHi[i] : BigDecimal.ZERO).subtract(hasR ? dLo[r] : BigDecimal.ZERO);
                lo = lo.add(xl.multiply(aLo));
                hi = hi.add(xl.multiply(aHi));
            }
            return new Iv(lo.round(a.down), hi.round(a.up));
        }
    }

    /** Every multiset of P, the interior corners first (partial laws reused down the tree), then the (0,0)/(1,1) split. */
    private static final class Walker {
        final Problem pb;
        final Arith a;
        final Outcome outcome = new Outcome();
        final int interior;
        final Iv[][] factors;

        Walker(Problem pb, Arith a) {
            this.pb = pb;
            this.a = a;
            this.interior = pb.set.interior();
            factors = new Iv[interior][];
            for (int j = 0; j < interior; j++) {
                Corner c = pb.kinds[j];
                factors[j] = new Iv[] {a.value(c.p()), a.value(c.p().complement()), a.value(c.pPrime()), a.value(c.pPrime().complement())};
            }
        }

        /**
         * Every multiset: the subtrees of the first interior corner's count (0 to K) on the common pool, each into its own
         * outcome, merged in the order of that count, so the result is the sequential walk's (see {@link Outcome#merge}).
         */
        void walkAll() {
            if (interior == 0) {
                leaves(new Laws(pb.k, a), new int[pb.kinds.length], outcome);
                return;
            }
            List<Laws> starts = new ArrayList<>();
            Laws l = new Laws(pb.k, a);
            while (true) {
                starts.add(new Laws(l));
                if (l.size == pb.k) {
                    break;
                }
                Iv[] f = factors[0];
                l.add(f[0], f[1], f[2], f[3], a);
            }
            Outcome[] parts = IntStream.range(0, starts.size()).parallel().mapToObj(n -> {
                Outcome o = new Outcome();
                int[] counts = new int[pb.kinds.length];
                counts[0] = n;
                recurse(1, starts.get(n), counts, o);
                return o;
            }).toArray(Outcome[]::new);
            for (Outcome o : parts) {
                outcome.merge(o);
            }
        }

        private void recurse(int j, Laws laws, int[] counts, Outcome out) {
            if (j == interior) {
                leaves(laws, counts, out);
                return;
            }
            Laws l = new Laws(laws);
            for (int n = 0; l.size <= pb.k; n++) {
                counts[j] = n;
                recurse(j + 1, l, counts, out);
                if (l.size == pb.k) {
                    break;
                }
                Iv[] f = factors[j];
                l.add(f[0], f[1], f[2], f[3], a);
            }
            counts[j] = 0;
        }

        private void leaves(Laws laws, int[] counts, Outcome out) {
            laws.differences(a);
            int rest = pb.k - laws.size;
            for (int n1 = 0; n1 <= rest; n1++) {
                counts[interior] = rest - n1;
                counts[interior + 1] = n1;
                out.add(counts, laws.cost(n1, pb.x, pb.mid, a), a.bound);
            }
            counts[interior] = 0;
            counts[interior + 1] = 0;
        }
    }
}
