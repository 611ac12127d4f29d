package org.privacybounds.smoothed.sdp.pair;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * A certified lower bound on {@code E[d_eps(H, H - e_a + e_b)]}, the expectation of one direction of a pair's divergence when
 * every record is drawn from one distribution p (H ~ Multinomial(n, p)) and T of the n records are released by sampling without
 * replacement. It is at most that assignment's value E[delta(H)], so at most delta_SDP.
 *
 * <p><b>Released and lost counts are independent.</b> With H multinomial and the released set a uniform subset of size T, the
 * released histogram K ~ Multinomial(T, p) and the lost one J = H - K ~ Multinomial(n - T, p) are independent. The likelihood
 * ratio of the neighbour at a released k is {@code rho = (j_a / h_a) (h_b + 1) / (j_b + 1)} with h = k + j, so
 * {@code E_H[d_eps] = sum over j of P(J = j) Phi(j)}, {@code Phi(j) = E_K[(1 - c R)_+]}, {@code c = e^eps j_a / (j_b + 1)} and
 * {@code R = (K_b + j_b + 1) / (K_a + j_a)} (only the counts of a and b enter).
 *
 * <p><b>Each Phi(j) from below.</b> By Jensen, {@code Phi(j) >= (1 - c E_K[R])_+}, where E_K[R] is a sum over K_a alone (given K_a,
 * K_b is Binomial(T - K_a, p_b / (1 - p_a))), taken from above. Where c E_K[R] lies near 1 (the kink, where most of the value
 * is), Phi(j) is summed exactly instead: for each K_a in a window of 12 standard deviations the sum over K_b is two binomial
 * CDFs, {@code F(t) (1 - (j_b + 1) / u) - (N q / u) F_{N-1}(t - 1)} with {@code u = (K_a + j_a) / c} and t the largest K_b with
 * {@code K_b + j_b + 1 < u} (each CDF moved for its rounding on the side that lowers the row; along the window both are walked
 * by recurrence, {@link CdfWalk}). What is left out (other j, K_a outside the window, K_a = 0 where h_a may be 0) is
 * non-negative and dropped.
 *
 * <p>At n = 1e6 with 0.2 % lost (the vertex (0.40, 0.52, 0.08), a record moved from category 3 to 1, eps 0.5) it is 10^-8.4805993
 * in 0.94 s on 2 cores (12.5 s with two CDFs from Commons Statistics per row), where the cells' lower bound
 * ({@code multicategory.VertexLowerBound}) was 10^-8.48075. The work is the kink's rows: about 2e7 there, growing about as n^1.5; beyond
 * {@code maxRows} (in CDF pairs, {@link Released#ROW_COST} a row) it is not done.
 */
public final class DirectionSum {
    static final double CDF_MARGIN = 1e-12;
    /**
     * Half-width of the windows (of K_a and of J_b) in standard deviations: the rest is dropped (a lower bound). Past the kink's
     * middle a lost histogram's value comes from released counts far out in K_a's tail, as far as the kink reaches (8 standard
     * deviations), and its chance grows about 7-fold per lost record at n = 1e6 and eps = 2: 7 left out 5e-4 of that value, 8 left
     * out 1e-5, 10 and 12 nothing to 1e-9.
     */
    private static final double WINDOW = 12;
    /** Half-width of the kink in standard deviations of ln R. */
    private static final double KINK = 8;
    /** What the upper bound bounds rather than sums, in ln relative to its floor (per row of lost histograms). */
    private static final double TAIL = -36;

    private DirectionSum() {
    }

    /** What rows left to their cheap bounds may add together, relative to the floor: their choice moves a bound by at most this. */
    private static final double DROP = 1e-8;

    /**
     * ln of the lower bound for shares {@code pa, pb} of the pair's categories, n records of which T are released, or
     * -infinity where nothing is lost, a share is 0, or the kink's CDF pairs would pass {@code maxRows}.
     */
    public static double logLower(long n, long sampleSize, double pa, double pb, double eps, double maxRows) {
        return logLower(n, sampleSize, pa, pb, eps, maxRows, Double.NEGATIVE_INFINITY);
    }

    /**
     * {@link #logLower(long, long, double, double, double, double)} given a value the expectation is about ({@code logFloor}, e.g.
     * another lower bound of it; -infinity: none): the lost histograms are then taken where they can matter against it, wherever
     * that lies (at the national n and eps 0.5 between 23 and 34 standard deviations of j_b above its mean), and the kink's rows
     * whose bound from above adds at most {@value #DROP} of it together are left to Jensen's bound.
     */
    public static double logLower(long n, long sampleSize, double pa, double pb, double eps, double maxRows, double logFloor) {
        Plan plan = Plan.of(n, sampleSize, pa, pb, eps, logFloor, true, true, false, maxRows);
        if (plan == null || plan.work > maxRows) {
            return Double.NEGATIVE_INFINITY;
        }
        // each term's log-pmf and the sums' rounding: 1e-9 relative, far above either
        return plan.sum() - 1e-9;
    }

    /**
     * ln of an upper bound on the same expectation, or +infinity where nothing is lost, a share is 0, or the work would pass
     * {@code maxRows}. Each Phi(j) from above: in the kink the same rows with each CDF moved the other way, plus the chance of
     * K_a outside its window (Phi <= 1 there); below the kink (c E_K[R] under e^-kink)
     * {@code 1 - c E_K[R] + c (T + j_b + 1) / j_a P(c R > 1)}; above it {@code P(c R < 1)}. Both chances are Chernoff bounds of
     * a linear form of K, a sum of T independent records. Phi falls as j_a grows (c R rises with j_a for every K), so once a
     * j_a lies beyond the kink and its bound times the chance of every larger j_a is below e^{@value #TAIL} of
     * {@code logFloor}, that product bounds the rest of the row. Lost histograms beyond the j_b window count in full (Phi <= 1),
     * the window reaching where their chance falls below the same floor (at least 12 standard deviations); so do the j_a
     * below where a row is summed, and whole rows of j_b whose chance up to the kink's top plus Phi there lies below it.
     *
     * @param logFloor ln of a value the expectation is about (e.g. a lower bound of it), to size what is bounded rather than
     *                 summed; -infinity: windows of 12 standard deviations
     */
    static double logUpper(long n, long sampleSize, double pa, double pb, double eps, double maxRows, double logFloor) {
        return logUpper(n, sampleSize, pa, pb, eps, maxRows, logFloor, true);
    }

    /**
     * {@link #logUpper(long, long, double, double, double, double, double)}, or with {@code exact} false each Phi(j) of the kink
     * from its first two moments ({@link Released#momentBound}, at most 1.25 times Phi at the kink's middle) or the Chernoff
     * bound of P(c R < 1), the smaller, with no CDF: for a direction far smaller than the other.
     */
    static double logUpper(long n, long sampleSize, double pa, double pb, double eps, double maxRows, double logFloor, boolean exact) {
        Plan plan = Plan.of(n, sampleSize, pa, pb, eps, logFloor, false, exact, false, maxRows);
        if (plan == null || plan.work > maxRows) {
            return Double.POSITIVE_INFINITY;
        }
        return plan.sum() + 1e-9;
    }

    /**
     * ln of an estimate (not a bound) of the same expectation: {@link #logUpper} with each Phi(j) of the kink from a normal law of
     * c R with R's first two moments (at the national n and eps 0.5 within 0.01 in ln of the sum, in 2 s): to choose how many
     * records to move ({@link PairDirections}), where only its change with the shares matters.
     */
    static double logApprox(long n, long sampleSize, double pa, double pb, double eps, double logFloor, double maxRows) {
        Plan plan = Plan.of(n, sampleSize, pa, pb, eps, logFloor, false, false, true, maxRows);
        return plan == null || plan.work > maxRows ? Double.POSITIVE_INFINITY : plan.sum();
    }

    /** One lost histogram of the kink: its counts, ln of its chance, and Phi from its cheap bounds (from above, and the side's). */
    private record Row(int a, int b, double logP, double cheap, double fallback) {
        double logWeight() {
            return logP + Math.log(cheap);
        }
    }

    /**
     * One side's sum laid out before any CDF is walked: what is bounded or summed without CDFs ({@code fixed}), and the kink's
     * rows to sum exactly ({@code rows}), with their work in CDF pairs. Where a floor is given, the kink's rows whose bounds
     * from above ({@link Released#momentBound} or a Chernoff bound) add at most {@value #DROP} of it together, smallest first,
     * keep those bounds (or Jensen's, below) instead.
     */
    private static final class Plan {
        final Released k;
        final double eps;
        final boolean lower;
        final LogSumExp fixed;
        final List<Row> rows;
        final double work;

        private Plan(Released k, double eps, boolean lower, LogSumExp fixed, List<Row> rows, double work) {
            this.k = k;
            this.eps = eps;
            this.lower = lower;
            this.fixed = fixed;
            this.rows = rows;
            this.work = work;
        }

        static Plan of(long n, long sampleSize, double pa, double pb, double eps, double logFloor, boolean lower, boolean exact, boolean approx,
                double maxRows) {
            Released k = Released.of(n, sampleSize, pa, pb);
            if (k == null) {
                return null;
            }
            int l = (int) (n - sampleSize);
            // (no floor: windows of 12 standard deviations)
            double cut = logFloor > Double.NEGATIVE_INFINITY ? Math.min(-WINDOW * WINDOW / 2, logFloor + TAIL) : -WINDOW * WINDOW / 2;
            double sb = Math.sqrt(l * pb * (1 - pb));
            int step = (int) Math.max(1, sb);
            int bLo = (int) Math.max(0, Math.floor(l * pb - WINDOW * sb - 1));
            int bHi = (int) Math.min(l, Math.ceil(l * pb + WINDOW * sb + 1));
            while (bLo > 0 && ChernoffTail.logBinomialTail(l, pb, bLo - 1, false) > cut) {
                bLo = Math.max(0, bLo - step);
            }
            while (bHi < l && ChernoffTail.logBinomialTail(l, pb, bHi + 1, true) > cut) {
                bHi = Math.min(l, bHi + step);
            }
            BinomialDistribution jb = BinomialDistribution.of(l, pb);
            // the layout itself within the budget, an eighth of it where rows are to be walked (at the national n it takes about
            // 2 s; with 10 % lost at n = 1e7 it had run for minutes before any work was counted)
            k.planLimit = exact ? maxRows / 8 : maxRows;
            int first = bLo;
            LogSumExp[] parts = new LogSumExp[bHi - bLo + 1];
            @SuppressWarnings("unchecked")
            List<Row>[] kinks = new List[bHi - bLo + 1];
            IntStream.rangeClosed(bLo, bHi).parallel().forEach(b -> {
                LogSumExp s = new LogSumExp();
                List<Row> kink = new ArrayList<>();
                if (k.planned.sum() <= k.planLimit) {
                    k.row(l, b, jb.logProbability(b), eps, cut, lower, exact, approx, s, kink);
                }
                parts[b - first] = s;
                kinks[b - first] = kink;
            });
            if (k.planned.sum() > k.planLimit) {
                return new Plan(k, eps, lower, new LogSumExp(), List.of(), Double.POSITIVE_INFINITY);
            }
            LogSumExp fixed = new LogSumExp();
            for (LogSumExp p : parts) {
                fixed.addAll(p);
            }
            if (!lower) {
                // the lost histograms beyond the window, in full
                fixed.add(ChernoffTail.logBinomialTail(l, pb, bLo - 1, false));
                fixed.add(ChernoffTail.logBinomialTail(l, pb, bHi + 1, true));
            }
            List<Row> rows = new ArrayList<>();
            for (List<Row> kink : kinks) {
                rows.addAll(kink);
            }
            if (logFloor > Double.NEGATIVE_INFINITY && !rows.isEmpty()) {
                rows.sort(Comparator.comparingDouble(Row::logWeight));
                double limit = logFloor + Math.log(DROP);
                double dropped = Double.NEGATIVE_INFINITY;
                int kept = 0;
                while (kept < rows.size() && LogMath.logAdd(dropped, rows.get(kept).logWeight()) <= limit) {
                    Row r = rows.get(kept++);
                    dropped = LogMath.logAdd(dropped, r.logWeight());
                    if (r.fallback() > 0) {
                        fixed.add(r.logP() + Math.log(r.fallback()));
                    }
                }
                rows = new ArrayList<>(rows.subList(kept, rows.size()));
            }
            double ce = Math.exp(eps);
            double work = 0;
            for (Row r : rows) {
                work += k.work(ce * r.a() / (r.b() + 1.0));
            }
            return new Plan(k, eps, lower, fixed, rows, work);
        }

        /** ln of the side's sum: the kink's rows walked (in parallel) and the rest. */
        double sum() {
            double ce = Math.exp(eps);
            double[] terms = rows.parallelStream().mapToDouble(r -> {
                double d = r.b() + 1.0;
                double c = ce * r.a() / d;
                // the better of the row's cheap bound and its sum (both hold)
                double phi = lower ? Math.max(r.fallback(), k.rows(r.a(), d, c, true)) : Math.min(r.fallback(), k.rows(r.a(), d, c, false) + k.outside);
                return phi > 0 ? r.logP() + Math.log(phi) : Double.NEGATIVE_INFINITY;
            }).toArray();
            LogSumExp total = new LogSumExp();
            total.addAll(fixed);
            for (double t : terms) {
                total.add(t);
            }
            return total.log();
        }
    }
    /** The released counts' law and the sums over K_a's window that both sides share. */
    private static final class Released {
        final int trials;
        final double pa;
        final double pb;
        final double q;
        final int lo;
        final double[] pk;
        /** The chance of K_a outside the window (below it or 0, or above it), from above. */
        final double outside;
        /** The kink's half-width in ln R. */
        final double kink;
        /**
         * The relative rounding of a sum over the window of positive terms each within a few ulps: at most (terms + 16) ulps
         * (1.3e-12 at n = 1e6, where the window holds 12,000 released counts).
         */
        final double sumMargin;
        private final double[][] moments;
        /**
         * The layout's own work so far, in CDF pairs ({@link #PLAN_STEP_COST} a j_a visited, {@link #MOMENTS_COST} a released
         * count of a j_a's moments), and its limit: past it every row stops and the side is not done.
         */
        private final DoubleAdder planned = new DoubleAdder();
        private volatile double planLimit = Double.POSITIVE_INFINITY;

        private Released(int trials, double pa, double pb, int lo, double[] pk, double outside, double kink, int lost) {
            this.trials = trials;
            this.pa = pa;
            this.pb = pb;
            this.q = pb / (1 - pa);
            this.lo = lo;
            this.pk = pk;
            this.outside = outside;
            this.kink = kink;
            this.moments = new double[lost + 1][];
            this.sumMargin = (pk.length + 16) * 0x1p-52;
        }

        /** The law, or null where nothing is lost or a share is 0. */
        static Released of(long n, long sampleSize, double pa, double pb) {
            long lost = n - sampleSize;
            if (lost < 1 || pa <= 0 || pb <= 0 || pa + pb > 1 || n > Integer.MAX_VALUE) {
                return null;
            }
            int t = (int) sampleSize;
            // K_a's window (K_a >= 1: h_a >= 1, so that the neighbour exists)
            double sa = Math.sqrt(t * pa * (1 - pa));
            int lo = (int) Math.max(1, Math.floor(t * pa - WINDOW * sa - 1));
            int hi = (int) Math.min(t, Math.ceil(t * pa + WINDOW * sa + 1));
            BinomialDistribution ka = BinomialDistribution.of(t, pa);
            double[] pk = new double[hi - lo + 1];
            for (int i = 0; i < pk.length; i++) {
                pk[i] = Math.exp(ka.logProbability(lo + i));
            }
            double outside = Math.min(1, (ka.cumulativeProbability(lo - 1) + ka.survivalProbability(hi)) * (1 + CDF_MARGIN) + 1e-300);
            // the kink's width: ln R spreads by about sqrt(1/E[K_a] + 1/E[K_b]) over K
            double kink = KINK * Math.sqrt(1 / (t * pa) + 1 / (t * pb));
            return new Released(t, pa, pb, lo, pk, outside, kink, (int) lost);
        }

        /**
         * One row of lost histograms (j_b = b, ln of its chance {@code logPb}) for one side: what is bounded or summed without CDFs
         * into {@code s}, and the kink's rows into {@code kinkRows} (or, {@code exact} false, their cheap bounds into {@code s}). The j_a
         * below where the row starts count in full on the upper side (Phi <= 1) and are left out on the lower; so is the whole row
         * where its chance up to the kink's top plus Phi just past it (Phi falls as j_a grows) lies below {@code cut}.
         */
        void row(int l, int b, double logPb, double eps, double cut, boolean lower, boolean exact, boolean approx, LogSumExp s,
                List<Row> kinkRows) {
            double shareA = pa / (1 - pb);
            int na = l - b;
            double d = b + 1.0;
            double ce = Math.exp(eps);
            BinomialDistribution jaGivenB = na > 0 ? BinomialDistribution.of(na, shareA) : null;
            // the kink's j_a, about: c E[R] = 1 where E[R] is about (T pb + d) / (T pa + j_a) (a guide only: any start is valid)
            double den = ce * (trials * pb + d) - d;
            double aMid = den > 0 ? d * trials * pa / den : Double.POSITIVE_INFINITY;
            int aTop = (int) Math.min(na, Math.ceil(aMid * Math.exp(2 * kink)) + 2);
            double whole = logPb + (aTop < na ? LogMath.logAdd(ChernoffTail.logBinomialTail(na, shareA, aTop, false), logBeyond(na, shareA, d, ce, aTop + 1)) : 0);
            if (whole < cut) {
                if (!lower) {
                    s.add(whole);
                }
                return;
            }
            int start = (int) Math.max(0, Math.min(na, Math.floor(aMid * Math.exp(-2 * kink)) - 1));
            int down = (int) Math.max(1, Math.sqrt(na * shareA * (1 - shareA)) / 8);
            while (start > 0 && logPb + ChernoffTail.logBinomialTail(na, shareA, start - 1, false) >= cut) {
                start = Math.max(0, start - down);
            }
            if (start > 0 && !lower) {
                s.add(logPb + ChernoffTail.logBinomialTail(na, shareA, start - 1, false));
            }
            double upKink = Math.exp(kink);
            int beyond = 0;
            // rows past the kink whose bound from above reaches this are summed too (at the national n and eps 1 the kink's 8
            // standard deviations had left 1.2 % between the sides: there a lost record more in a is 2.2 times as likely)
            double matter = cut - TAIL + Math.log(DROP) - 5;
            for (int a = start; a <= na; a++) {
                if (((a - start) & 255) == 0) {
                    planned.add(256 * PLAN_STEP_COST);
                    if (planned.sum() > planLimit) {
                        return;
                    }
                }
                double logP = logPb + (jaGivenB == null ? 0 : jaGivenB.logProbability(a));
                if (a == 0) {
                    // rho = 0: every released k counts in full (K_a >= 1), Phi <= 1
                    s.add(lower ? logP + Math.log(Math.max(0, 1 - outside)) : logP);
                    continue;
                }
                double c = ce * a / d;
                double[] m = moments(a);
                double erLow = (m[0] + d * m[1]) * (1 - sumMargin);
                double erHigh = (m[0] + d * m[1]) * (1 + sumMargin) + outside * (trials + d) / a;
                if (lower) {
                    double x = c * erHigh;
                    if (x >= upKink) {
                        // beyond the kink, summed while its bound from above could still matter; then the rest is left out
                        double logPhi = logLinearTail(1, -c, c * d - a);
                        if (exact && logP + logPhi >= matter) {
                            kinkRows.add(new Row(a, b, logP, cheap(a, d, c, logPhi), 0));
                            continue;
                        }
                        break;
                    }
                    double jensen = Math.max(0, 1 - x);
                    if (x > 1 / upKink && exact) {
                        kinkRows.add(new Row(a, b, logP, cheap(a, d, c, logLinearTail(1, -c, c * d - a)), jensen));
                    } else if (jensen > 0) {
                        s.add(logP + Math.log(jensen));
                    }
                    continue;
                }
                if (c * erLow >= upKink) {
                    // beyond the kink: P(K_a - c K_b > c d - a); this j_a and every larger one bounded together (checked at
                    // doubling distances past the kink)
                    beyond++;
                    if ((beyond & (beyond - 1)) == 0) {
                        double logRest = logPb + logBeyond(na, shareA, d, ce, a);
                        if (logRest < cut) {
                            s.add(logRest);
                            break;
                        }
                    }
                    double logPhi = logLinearTail(1, -c, c * d - a);
                    if (exact && logP + logPhi >= matter) {
                        // where its chance grows fast enough with j_a, a row past the kink can still matter: summed
                        double cheap = cheap(a, d, c, logPhi);
                        kinkRows.add(new Row(a, b, logP, cheap, cheap));
                    } else {
                        s.add(logP + logPhi);
                    }
                    continue;
                }
                if (c * erHigh <= 1 / upKink) {
                    double phi = 1 - c * erLow + c * (trials + d) / a * Math.exp(logLinearTail(-1, c, a - c * d));
                    s.add(logP + Math.log(Math.min(1, phi)));
                    continue;
                }
                double cheap = cheap(a, d, c, logLinearTail(1, -c, c * d - a));
                if (exact) {
                    kinkRows.add(new Row(a, b, logP, cheap, cheap));
                } else {
                    s.add(logP + (approx ? Math.min(Math.log(cheap), logNormalPhi(a, d, c)) : Math.log(cheap)));
                }
            }
        }

        /**
         * ln of an upper bound on {@code sum over j_a >= from of P(J_a = j_a) Phi(j_a)} (J_a ~ Binomial(na, shareA), the lost
         * count of a given j_b; {@code c = ce j_a / d}): over intervals of j_a of doubling length, the chance of the interval
         * (the smaller of its two binomial tails) times Phi at its first j_a (Phi falls as j_a grows), from the Chernoff bound of
         * P(c R < 1). Where j_a lies below its mean beyond the kink, this falls with Phi far sooner than j_a's own upper tail.
         */
        double logBeyond(int na, double shareA, double d, double ce, int from) {
            LogSumExp s = new LogSumExp();
            int step = 1;
            for (long lo = from; lo <= na; lo += step, step = Math.min(1 << 30, 2 * step)) {
                long hi = Math.min(na, lo + step - 1);
                double c = ce * lo / d;
                double logPhi = logLinearTail(1, -c, c * d - lo);
                s.add(logPhi + Math.min(ChernoffTail.logBinomialTail(na, shareA, hi, false), ChernoffTail.logBinomialTail(na, shareA, lo, true)));
                if (logPhi == Double.NEGATIVE_INFINITY) {
                    break;
                }
            }
            return s.log();
        }

        /**
         * ln of {@code E[(1 - X)_+]} for X normal with the mean and variance of c R (an estimate of Phi(j), not a bound):
         * {@code sigma (phi(z) + z Phi(z))} with {@code z = (1 - mean) / sigma}, below z = -8 its asymptote {@code sigma phi(z) / z^2}.
         */
        double logNormalPhi(int a, double d, double c) {
            double[] m = moments(a);
            double er = m[0] + d * m[1];
            double er2 = m[3] + 2 * d * m[4] + d * d * m[5] + m[6];
            double sigma = c * Math.sqrt(Math.max(0, er2 - er * er));
            double mean = c * er;
            if (!(sigma > 0)) {
                return Math.log(Math.max(0, 1 - mean));
            }
            double z = (1 - mean) / sigma;
            if (z < -8) {
                return Math.log(sigma) - z * z / 2 - 0.5 * Math.log(2 * Math.PI) - 2 * Math.log(-z);
            }
            double pdf = Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
            double cdf = 0.5 * Erfc.value(-z / Math.sqrt(2));
            return Math.log(sigma * (pdf + z * cdf));
        }

        /**
         * Phi(j) from above without CDFs: its first two moments ({@link #momentBound}) or the Chernoff bound of P(c R < 1),
         * {@code logPhi} ({@code logLinearTail(1, -c, c d - a)}, which callers have at hand).
         */
        double cheap(int a, double d, double c, double logPhi) {
            return Math.min(1, Math.min(momentBound(a, d, c), Math.exp(logPhi)));
        }

        /**
         * A kink row's work in CDF pairs ({@code c = e^eps j_a / (j_b + 1)}): the rows walked, from where the CDF of K_b reaches
         * {@link #START} to where it lies within {@link #SATURATED} of 1, about {@code (14 + 9) sd / (1 / c + q)} of them (top
         * moves 1 / c a row and K_b's mean q the other way), {@value #ROW_COST} of a pair each, and the rest of the window at
         * {@value #SKIP_COST}.
         */
        double work(double c) {
            double sd = Math.sqrt(trials * (1 - pa) * q * (1 - q));
            double walked = Math.min(pk.length, 23 * sd / (1 / c + q) + 2);
            return walked * ROW_COST + pk.length * SKIP_COST;
        }

        /**
         * A walked row's cost in CDF pairs (a pair taken as 40 terms of 25 ns, 1 microsecond): at the national n (the vertex
         * (0.40, 0.52, 0.08), a record moved from category 3 to 1, 0.2 % lost) the lower sums took 241 core-seconds at eps 0.5
         * (228,299 kink rows) and 63 at eps 2 (57,533) with two walks a row, about 34 ns a walked row with the window's other
         * rows; with one walk ({@link CdfWalk#rangeOneFewer}) 174 core-seconds at eps 0.5 with the rows past the kink too.
         */
        static final double ROW_COST = 0.026;
        /** Where the walks of a kink row start: each CDF at least this (rows before hold at most twice it; see {@link #rows}). */
        static final double START = 1e-40;
        /** Where a kink row's CDFs count as 1: both upper tails below this. */
        static final double SATURATED = 1e-16;
        /** A j_a visited while laying a side out (a log-pmf and a Chernoff bound's search, about 2.5 microseconds), in CDF pairs. */
        static final double PLAN_STEP_COST = 2.5;
        /** A released count of one j_a's moments (two passes over the window), in CDF pairs. */
        static final double MOMENTS_COST = 0.006;
        /** A row of the window not walked (before the walk starts, or saturated), in CDF pairs. */
        static final double SKIP_COST = 0.002;

        /**
         * Per j_a, over the window, kept (the same for every j_b): {sum p_k (T - k) q / (k + j_a), sum p_k / (k + j_a)} and the sums
         * of {@link #momentBound}.
         */
        double[] moments(int a) {
            synchronized (moments) {
                if (moments[a] == null) {
                    planned.add(pk.length * MOMENTS_COST);
                    double m0 = 0;
                    double m1 = 0;
                    for (int i = 0; i < pk.length; i++) {
                        int k = lo + i;
                        m0 += pk[i] * (trials - k) * q / (k + a);
                        m1 += pk[i] / (k + a);
                    }
                    // and for the second moment of R: sum p_k, sum p_k E[K_b | k]^2 / u^2, sum p_k E[K_b | k] / u^2, sum p_k / u^2,
                    // sum p_k Var(K_b | k) / u^2 (u = k + j_a)
                    double s0 = 0;
                    double q2 = 0;
                    double q1 = 0;
                    double q0 = 0;
                    double w = 0;
                    for (int i = 0; i < pk.length; i++) {
                        int k = lo + i;
                        double u2 = (double) (k + a) * (k + a);
                        double mu = (trials - k) * q;
                        s0 += pk[i];
                        q2 += pk[i] * mu * mu / u2;
                        q1 += pk[i] * mu / u2;
                        q0 += pk[i] / u2;
                        w += pk[i] * mu * (1 - q) / u2;
                    }
                    moments[a] = new double[] {m0, m1, s0, q2, q1, q0, w};
                }
                return moments[a];
            }
        }

        /**
         * An upper bound on Phi(j) = E[X_+], X = 1 - c R, from its first two moments: {@code E[X_+] = (E[X] + E|X|) / 2 <=
         * (E[X] + sqrt(E[X^2])) / 2}, each moment over the window from above (moved by {@link #sumMargin} of the terms' size for
         * rounding: the second's terms cancel to about c^2 Var R) plus K_a outside it at the largest |X|. At the kink's middle it is about
         * 1.25 times Phi (0.5 against 0.4 standard deviations of X), for no CDF.
         */
        double momentBound(int a, double d, double c) {
            double[] m = moments(a);
            double er = m[0] + d * m[1];
            double er2 = m[3] + 2 * d * m[4] + d * d * m[5] + m[6];
            double xMax = Math.max(1, c * (trials + d) / a - 1);
            double mean = (m[2] - c * er) + 2 * sumMargin * (m[2] + c * er) + outside;
            double second = (m[2] - 2 * c * er + c * c * er2) + 2 * sumMargin * (m[2] + 2 * c * er + c * c * er2) + outside * xMax * xMax;
            return (mean + Math.sqrt(Math.max(0, second))) / 2;
        }

        /**
         * Phi(j) summed over K_a's window, each row from two binomial CDFs moved for their rounding so that the row is lowered
         * ({@code lower}) or raised. Along the window {@code F_N(top)} with N = T - K_a follows a path on which N falls by one a
         * row and top does not fall, so it grows row by row and is walked by recurrence ({@link CdfWalk}) from where it first
         * reaches {@link #START} (found by bisection); rows before that hold at most twice that each (left out below, added
         * above). {@code F_{N-1}(top - 1)} comes from the same point ({@link CdfWalk#rangeOneFewer}): one walk a row (two had
         * taken 34 ns a row at the national n). From where the Chernoff bounds of both CDFs' upper tails fall below
         * {@link #SATURATED} (also by bisection) they are taken within that of 1 and not walked: at the national n about two
         * thirds of the window.
         */
        double rows(int a, double d, double c, boolean lower) {
            double sign = lower ? -1 : 1;
            double sum = 0;
            double under = 0; // the upper side's rows before the walks start, each at most 2 START
            CdfWalk f = new CdfWalk(q);
            int firstF = -1;
            int sat = -1;
            for (int i = 0; i < pk.length; i++) {
                int k = lo + i;
                double u = (k + a) / c;
                long top = top(i, a, d, c);
                if (top < 0) {
                    continue;
                }
                int n = trials - k;
                double row;
                if (top >= n) {
                    row = 1 - d / u - n * q / u; // every K_b: E[1 - (K_b + d) / u]
                    row += sign * 1e-15 * (1 + d / u + n * q / u);
                } else {
                    if (firstF < 0) {
                        // both CDFs grow along the window: where each first reaches the floor
                        firstF = first(i, a, d, c);
                        sat = saturated(i, a, d, c);
                    }
                    if (i < firstF) {
                        under += pk[i];
                        continue;
                    }
                    double fr;
                    double f1r;
                    if (i >= sat) {
                        // both within SATURATED of 1 (1 - SATURATED rounds down: lower for F, and for F_{N-1} on the upper side)
                        fr = lower ? 1 - SATURATED : 1;
                        f1r = lower ? 1 : 1 - SATURATED;
                    } else {
                        double[] fv = f.range(n, top);
                        // F_{N-1}(top - 1) from the same walk's point (one walk a row instead of two)
                        double[] gv = top < 1 ? new double[] {0, 0} : f.rangeOneFewer();
                        fr = lower ? fv[0] : fv[1];
                        f1r = lower ? gv[1] : gv[0];
                    }
                    // sum over K_b <= top of K_b P(K_b) = N q F_{N-1}(top - 1): lowered with F from below and F_{N-1} from above
                    row = fr * (1 - d / u) - n * q * f1r / u;
                    row += sign * 1e-15 * (fr + n * q * f1r / u);
                }
                if (row > 0) {
                    sum += pk[i] * row;
                }
            }
            return sum * (1 + sign * sumMargin) + (lower ? 0 : under * 2 * START * (1 + sumMargin));
        }

        /** The largest K_b with K_b + d < u at the window's row i (u = (K_a + j_a) / c); it does not fall as i grows. */
        private long top(int i, int a, double d, double c) {
            double u = (lo + i + a) / c;
            return (long) Math.ceil(u - d) - 1;
        }

        /**
         * The first row from {@code from} whose CDF {@code F_N(top)} reaches {@link #START} or whose top reaches N (the row is
         * then closed-form), by bisection (it grows along the window); the window's length where none does. Before it,
         * {@code F_{N-1}(top - 1) <= F_N(top)} lies below START too.
         */
        private int first(int from, int a, double d, double c) {
            return firstWhere(from, i -> {
                long top = top(i, a, d, c);
                int n = trials - (lo + i);
                return top >= n || top >= 0 && BinomialDistribution.of(n, q).cumulativeProbability((int) top) >= START;
            });
        }

        /**
         * The first row from {@code from} where top reaches N, or where the Chernoff bounds of both CDFs' upper tails
         * ({@code P(K_b > top)} of N trials and {@code P(K_b > top - 1)} of N - 1) lie below {@link #SATURATED}, by bisection (both
         * tails fall along the window); the window's length where none does.
         */
        private int saturated(int from, int a, double d, double c) {
            double limit = Math.log(SATURATED);
            return firstWhere(from, i -> {
                long top = top(i, a, d, c);
                int n = trials - (lo + i);
                return top >= n || ChernoffTail.logBinomialTail(n, q, top + 1, true) <= limit && ChernoffTail.logBinomialTail(n - 1, q, top, true) <= limit;
            });
        }

        /** The first row from {@code from} where {@code reached} holds (it holds on every later row), by bisection; the window's length where none does. */
        private int firstWhere(int from, IntPredicate reached) {
            int lo = from;
            int hi = pk.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (reached.test(mid)) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }

        /**
         * ln of an upper bound on {@code P(ua K_a + ub K_b >= x)}, K ~ Multinomial(T; pa, pb, rest): Chernoff,
         * {@code min over theta >= 0 of T ln(pa e^(theta ua) + pb e^(theta ub) + rest) - theta x}, the minimum found by bisection
         * on the derivative (any theta gives a bound).
         */
        double logLinearTail(double ua, double ub, double x) {
            double rest = Math.max(0, 1 - pa - pb);
            double mean = trials * (ua * pa + ub * pb);
            if (x <= mean) {
                return 0;
            }
            if (x > trials * Math.max(0, Math.max(ua, ub)) * (1 + 1e-12)) {
                return Double.NEGATIVE_INFINITY;
            }
            double lo = 0;
            double hi = 1;
            while (slope(ua, ub, rest, hi) < x && hi < 1e6) {
                lo = hi;
                hi *= 2;
            }
            for (int i = 0; i < 60; i++) {
                double mid = (lo + hi) / 2;
                if (slope(ua, ub, rest, mid) < x) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            double theta = (lo + hi) / 2;
            double lnM = logMgf(ua, ub, rest, theta);
            double v = trials * lnM - theta * x;
            return Math.min(0, v + 1e-9 * (trials * Math.abs(lnM) + Math.abs(theta * x)) + 1e-12);
        }

        private double logMgf(double ua, double ub, double rest, double theta) {
            double s = theta * Math.max(ua, ub);
            return s + Math.log(pa * Math.exp(theta * ua - s) + pb * Math.exp(theta * ub - s) + rest * Math.exp(-s));
        }

        /** The derivative in theta of T ln M(theta). */
        private double slope(double ua, double ub, double rest, double theta) {
            double s = theta * Math.max(ua, ub);
            double ea = pa * Math.exp(theta * ua - s);
            double eb = pb * Math.exp(theta * ub - s);
            return trials * (ua * ea + ub * eb) / (ea + eb + rest * Math.exp(-s));
        }
    }
    /**
     * {@code F_N(t)} and {@code b_N(t)} of Binomial(N, q) along a path on which N does not grow and t does not fall, by recurrence
     * with positive terms only: {@code b_{N-1}(t) = b_N(t) (N - t) / (N (1 - q))}, {@code F_{N-1}(t) = F_N(t) + q b_{N-1}(t)} (one
     * more trial passes t only from t), {@code b_N(t + 1) = b_N(t) (N - t) / (t + 1) q / (1 - q)}, {@code F_N(t + 1) = F_N(t) +
     * b_N(t + 1)}; started, and restarted every {@value #RESTART} operations, from Commons Statistics' CDF and pmf (each taken
     * within {@link DirectionSum#CDF_MARGIN} relative, as the rows assumed before). A value then lies within {@code 2 CDF_MARGIN +
     * 5 ops 2^-53} relative of the exact one (each operation rounds a positive product or sum once to three times), plus 1e-300
     * absolute per operation for pmfs near the subnormal range and what the walk leaves out where it stops far in the upper tail
     * ({@link #settle}).
     */
    static final class CdfWalk {
        /** Where a walk may start: a CDF at least this (its pmf then far above the subnormal range). */
        static final double FLOOR = 1e-280;
        /** Operations between restarts from Commons Statistics: the error they add stays below 1e-11. */
        static final int RESTART = 1 << 14;
        private final double q;
        private final double odds;
        private long n = -1;
        private long t;
        private double b;
        private double f;
        private int ops;
        /** Where the walk has stopped in the upper tail, what the values may still grow by ({@link #settle}); -1 while it walks. */
        private double rest = -1;

        CdfWalk(double q) {
            this.q = q;
            this.odds = q / (1 - q);
        }

        /** {value of F_N(t), its relative error bound, its absolute error bound}; N at most, t at least, the last call's. */
        double[] at(long toN, long toT) {
            if (n < 0 || toN > n || toT < t || rest < 0 && ops + (n - toN) + (toT - t) > RESTART) {
                BinomialDistribution d = BinomialDistribution.of((int) toN, q);
                n = toN;
                t = toT;
                f = d.cumulativeProbability((int) toT);
                b = d.probability((int) toT);
                ops = 0;
                rest = -1;
                settle();
            }
            while (rest < 0 && n > toN) {
                b *= (n - t) / (n * (1 - q));
                f += q * b;
                n--;
                ops++;
                settle();
            }
            while (rest < 0 && t < toT) {
                b *= (n - t) / (t + 1.0) * odds;
                t++;
                f += b;
                ops++;
                settle();
            }
            n = toN;
            t = toT;
            return new double[] {f, relativeError(), absoluteError()};
        }

        /** {from below, from above} of F_N(t) ({@link #at} with its errors), within [0, 1]. */
        double[] range(long toN, long toT) {
            double[] v = at(toN, toT);
            return new double[] {Math.max(0, v[0] * (1 - v[1]) - v[2]), Math.min(1, v[0] * (1 + v[1]) + v[2])};
        }

        /** The last point's relative error bound: the start's two margins and 5 roundings an operation since. */
        private double relativeError() {
            return 2 * CDF_MARGIN + 5 * ops * 0x1p-53;
        }

        /** The last point's absolute error bound: 1e-300 an operation (pmfs near the subnormal range) and the tail left where the walk stopped. */
        private double absoluteError() {
            return 1e-300 * (ops + 1) + Math.max(0, rest);
        }

        /**
         * {from below, from above} of {@code F_{N-1}(t - 1)} at the last point (N, t) of {@link #at}, t >= 1: one trial fewer
         * falls at or below t - 1 except where it was at t with the last trial a failure, so {@code F_{N-1}(t - 1) = F_N(t) -
         * b_N(t) (N - t) / N}. Both values carry the walk's error bound (the pmf's is the CDF's: the same starts and at most as
         * many roundings), plus three roundings of the difference; where the walk has stopped in the upper tail the pmf it
         * dropped (below 1e-290) is added.
         */
        double[] rangeOneFewer() {
            double w = b * ((double) (n - t) / n);
            double v = f - w;
            double abs = absoluteError() + (rest >= 0 ? 1e-290 : 0);
            double err = (f + w) * (relativeError() + 3 * 0x1p-53) + 2 * abs;
            return new double[] {Math.max(0, v - err), Math.min(1, v + err)};
        }

        /**
         * Far in the upper tail, where the pmf falls below 1e-290, the walk stops: every later value along the path exceeds this
         * one by at most the tail beyond t now, {@code P(X > t) <= b r / (1 - r)} (r the ratio of the next pmf to this one, and
         * the ratios fall further out), kept as an absolute error. (Subnormal pmfs would otherwise make each operation slow.)
         */
        private void settle() {
            if (b < 1e-290 && t > n * q) {
                double r = (n - t) / (t + 1.0) * odds;
                rest = 2 * Math.max(b, 1e-300) * r / (1 - r); // (twice: b itself is rounded)
                b = 0;
            }
        }
    }
}
