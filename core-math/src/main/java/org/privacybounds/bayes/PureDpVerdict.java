package org.privacybounds.bayes;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.privacybounds.bayes.ChainAudit.Config;
import org.privacybounds.bayes.ChainAudit.Near;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.bayes.ChainAudit.Utility;
import org.privacybounds.bayes.ChainAudit.Witness;
import org.privacybounds.guarantee.Verdict;

/**
 * Whether an exponential mechanism {@code P_k(r) ∝ exp(eps u_k(r) / (2 S_k))} is eps-DP over adjacent databases, decided
 * so that rounding cannot flip the answer. The mechanism audited is the one with the utilities u and sensitivities S as
 * the program computes them (doubles, taken exactly) and the nominal eps.
 *
 * <ol>
 * <li>The computed largest loss {@code max |ln P_k(r) - ln P_k'(r)|} carries a rigorous error bound
 * ({@link ChainAudit}): at most eps with its bound, the mechanism is eps-DP; above eps by more than it, it is not.</li>
 * <li>The outputs whose loss lies within its bound of eps are settled one by one. An exact tie first: the loss equals eps
 * exactly iff {@code sum_r' e^{c_k u_k(r) + c_k' u_k'(r')} = sum_r' e^{eps + c_k' u_k'(r) + c_k u_k(r')}}; every exponent is
 * rational, and by the Lindemann-Weierstrass theorem exponentials of distinct rationals are linearly independent over the
 * rationals, so the two sides are equal exactly when their multisets of exponents are. Scaled by {@code 2 S_k S_k' / eps}
 * these are exact decimal products of the doubles, compared exactly.</li>
 * <li>Otherwise the loss is recomputed in apfloat with 50, 100 and 200 digits until its interval excludes eps; only if none
 * does is the output undecided.</li>
 * </ol>
 *
 * <p>Example (the generic counterexample's shape, with sensitivities that make the loss exactly eps):
 * <pre>{@code
 * ChainAudit.Part p = ChainAudit.run(utility, List.of(config), 0, utility.databases());
 * PureDpVerdict v = PureDpVerdict.decide(utility, config, p, 0);
 * Boolean pure = v.verdict().asBoolean();   // true, false, or null (undecided)
 * }</pre>
 *
 * @param verdict    HOLDS when the mechanism is provably eps-DP
 * @param witness    the output of the largest loss, or for FAILS one provably above eps, or for UNDECIDED one left open
 * @param nearEps    outputs whose computed loss was within its error bound of eps (settled one by one)
 * @param exactTies  of those, the outputs whose loss is eps exactly
 * @param undecided  outputs no precision settled (and near-eps outputs beyond what the audit kept)
 * @param digits     the most digits used (0: the double audit's error bound sufficed)
 */
public record PureDpVerdict(Verdict verdict, Witness witness, long nearEps, long exactTies, long undecided, int digits) implements Serializable {
    private static final int FIRST_DIGITS = 50;
    private static final int MAX_DIGITS = 200;

    /** The verdict of config c of a part covering every database. */
    public static PureDpVerdict decide(Utility utility, Config cfg, Part part, int c) {
        double eps = cfg.epsilon();
        double max = part.maxLogRatio[c];
        double err = part.maxLogRatioError[c];
        if (Math.nextUp(max + err) <= eps) {
            return new PureDpVerdict(Verdict.HOLDS, part.witness[c], 0, 0, 0, 0);
        }
        if (Math.nextDown(max - err) > eps) {
            return new PureDpVerdict(Verdict.FAILS, part.witness[c], 0, 0, 0, 0);
        }
        List<Near> near = part.near.get(c);
        long ties = 0;
        long undecided = part.nearOverflow[c];
        int digits = 0;
        Witness failing = null;
        Witness open = null;
        for (Near x : near) {
            if (Math.nextDown(x.logRatio() - x.errorBound()) > eps) {
                failing = failing == null ? x.at() : failing;
                continue;
            }
            if (Math.nextUp(x.logRatio() + x.errorBound()) <= eps) {
                continue;
            }
            if (exactTie(utility, cfg, x.at())) {
                ties++;
                continue;
            }
            Verdict v = Verdict.UNDECIDED;
            for (int d = FIRST_DIGITS; d <= MAX_DIGITS && v == Verdict.UNDECIDED; d *= 2) {
                BigDecimal[] l = logRatio(utility, cfg, x.at(), d);
                BigDecimal e = new BigDecimal(eps);
                v = Verdict.compare(l[0], l[1], e, e);
                digits = Math.max(digits, d);
            }
            if (v == Verdict.FAILS && failing == null) {
                failing = x.at();
            } else if (v == Verdict.UNDECIDED) {
                undecided++;
                open = open == null ? x.at() : open;
            }
        }
        if (failing != null) {
            return new PureDpVerdict(Verdict.FAILS, failing, near.size(), ties, undecided, digits);
        }
        if (undecided > 0) {
            return new PureDpVerdict(Verdict.UNDECIDED, open != null ? open : part.witness[c], near.size(), ties, undecided, digits);
        }
        return new PureDpVerdict(Verdict.HOLDS, part.witness[c], near.size(), ties, 0, digits);
    }

    /**
     * Whether {@code ln P_k(r) - ln P_k'(r) = eps} exactly at the witness (k, k', r): the multisets
     * {@code {S_k' u_k(r) + S_k u_k'(r')}} and {@code {2 S_k S_k' + S_k u_k'(r) + S_k' u_k(r')}} over r' are equal.
     */
    static boolean exactTie(Utility utility, Config cfg, Witness w) {
        int outputs = utility.outputs();
        double[] ux = new double[outputs];
        double[] uy = new double[outputs];
        utility.row(w.k(), ux);
        utility.row(w.kNeighbor(), uy);
        BigDecimal sx = new BigDecimal(cfg.sensitivity()[w.k()]);
        BigDecimal sy = new BigDecimal(cfg.sensitivity()[w.kNeighbor()]);
        int r = w.output();
        BigDecimal left0 = sy.multiply(new BigDecimal(ux[r]));
        BigDecimal right0 = sx.multiply(sy).multiply(BigDecimal.valueOf(2)).add(sx.multiply(new BigDecimal(uy[r])));
        List<BigDecimal> left = new ArrayList<>(outputs);
        List<BigDecimal> right = new ArrayList<>(outputs);
        for (int q = 0; q < outputs; q++) {
            left.add(left0.add(sx.multiply(new BigDecimal(uy[q]))).stripTrailingZeros());
            right.add(right0.add(sy.multiply(new BigDecimal(ux[q]))).stripTrailingZeros());
        }
        left.sort(BigDecimal::compareTo);
        right.sort(BigDecimal::compareTo);
        for (int q = 0; q < outputs; q++) {
            if (left.get(q).compareTo(right.get(q)) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code ln P_k(r) - ln P_k'(r)} at the witness as an interval, in apfloat with {@code digits} digits: each ln P is
     * {@code c u(r) - m - ln sum_r' e^{c u(r') - m}}; every apfloat result is within a few units of its last digit, so the
     * interval is widened by {@code 10^-(digits - 8)} times the sum of the magnitudes involved.
     */
    static BigDecimal[] logRatio(Utility utility, Config cfg, Witness w, int digits) {
        long p = digits + 10;
        Apfloat eps = new Apfloat(new BigDecimal(cfg.epsilon()), p);
        Apfloat[] a = logProbability(utility, w.k(), eps.divide(new Apfloat(new BigDecimal(2 * cfg.sensitivity()[w.k()]), p)), w.output(), p);
        Apfloat[] b = logProbability(utility, w.kNeighbor(), eps.divide(new Apfloat(new BigDecimal(2 * cfg.sensitivity()[w.kNeighbor()]), p)),
                w.output(), p);
        Apfloat l = a[0].subtract(b[0]);
        BigDecimal v = new BigDecimal(l.toString(true));
        BigDecimal scale = new BigDecimal(a[1].add(b[1]).toString(true)).add(BigDecimal.valueOf(utility.outputs() + 10L));
        BigDecimal width = scale.multiply(BigDecimal.ONE.scaleByPowerOfTen(-(digits - 8)));
        MathContext mc = new MathContext(digits + 5);
        return new BigDecimal[] {v.subtract(width, mc), v.add(width, mc)};
    }

    /** {ln P_k(r), sum of |exponents| + |m|} with P_k(r') = e^{c u_k(r')} / Z. */
    private static Apfloat[] logProbability(Utility utility, int k, Apfloat c, int r, long p) {
        double[] u = new double[utility.outputs()];
        utility.row(k, u);
        Apfloat[] x = new Apfloat[u.length];
        Apfloat m = null;
        Apfloat magnitude = new Apfloat(0, p);
        for (int q = 0; q < u.length; q++) {
            x[q] = c.multiply(new Apfloat(new BigDecimal(u[q]), p));
            m = m == null || x[q].compareTo(m) > 0 ? x[q] : m;
            magnitude = magnitude.add(ApfloatMath.abs(x[q]));
        }
        Apfloat z = new Apfloat(0, p);
        for (Apfloat v : x) {
            z = z.add(ApfloatMath.exp(v.subtract(m)));
        }
        Apfloat lp = x[r].subtract(m).subtract(ApfloatMath.log(z));
        return new Apfloat[] {lp, magnitude.add(ApfloatMath.abs(m))};
    }
}
