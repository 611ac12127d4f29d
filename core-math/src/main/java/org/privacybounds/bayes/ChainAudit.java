package org.privacybounds.bayes;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.privacybounds.numeric.LogMath;
import org.privacybounds.numeric.LogSumExp;

/**
 * Exact privacy audit of exponential mechanisms over a finite set of outputs, for databases
 * 0..N-1 where neighbours are k and k+1 (the count of ones in the notes on DP Bayesian inference; any chain works). The
 * mechanism at database k releases r with probability P_k(r) = exp(c_k u(k,r) - ln Z_k),
 * c_k = eps / (2 S(k)). For every neighbouring pair and every output it computes the log-ratio
 * L(r) = ln P_k(r) - ln P_{k+1}(r); the realised privacy loss is max |L| with its witness, and the
 * hockey-stick delta at eps' of each direction is the exact sum over all outputs of
 * (P(r) - e^eps' P'(r))_+, in log space. Rows are computed once and shared by every mechanism and
 * eps; databases can be split into ranges ({@link #run}) and the parts merged ({@link Part#merge}),
 * which is how the Spark job distributes one n.
 *
 * <p>Every delta comes with a bound on its absolute error (first-order rounding analysis): the utilities are
 * taken to be accurate to {@link #UTILITY_RELATIVE_ACCURACY} (ten times what the tests measure for the Hellinger
 * utilities against 60-digit arithmetic), which with the roundings of {@code c u - ln Z} bounds the error eta of
 * each log-probability; a term of the hockey-stick sum moves by at most {@code eta_l P(r)} when its log-ratio moves by
 * {@code eta_l}, and terms within {@code eta_l} of eps' may fall on either side. So
 * {@code |error| <= delta eta_a + 1.01 eta_l sum_{L(r) > eps' - eta_l} P(r)}, plus the sum's own roundings.
 *
 * <p>Example:
 * <pre>{@code
 * PosteriorFamily f = new PosteriorFamily(20);
 * List<ChainAudit.Config> cs = List.of(new ChainAudit.Config("global", 1, Mechanism.GLOBAL.sensitivity(f, 1, 1e-6,
 *         Mechanism.SmoothBeta.STATEMENT), new double[] {1}));
 * ChainAudit.Part p = ChainAudit.run(f, cs, 0, 11).merge(ChainAudit.run(f, cs, 11, 21));   // databases 0..20 in two parts
 * double realised = p.maxLogRatio[0];   // <= 1: the global-sensitivity mechanism is 1-DP
 * }</pre>
 */
public final class ChainAudit {
    /** Relative accuracy assumed of every utility value u(k, r) and sensitivity S(k). */
    public static final double UTILITY_RELATIVE_ACCURACY = 1e-13;
    private static final double ULP = 0x1p-52;

    private ChainAudit() {
    }

    /** The utilities u(k, r), one row per database. */
    public interface Utility {
        int databases();

        int outputs();

        void row(int k, double[] u);
    }

    /**
     * One mechanism to audit: its label, nominal eps, S(k) for every database, and the eps' at
     * which to report the hockey-stick delta (the nominal eps is always the first).
     */
    public record Config(String label, double epsilon, double[] sensitivity, double[] lossEpsilons) implements Serializable {
        public Config {
            for (double s : sensitivity) {
                if (!(s > 0) || Double.isInfinite(s)) {
                    throw new IllegalArgumentException(label + ": every sensitivity must be finite and > 0, got " + s);
                }
            }
        }
    }

    /** A neighbouring pair of databases, in the direction of the divergence: from k (ones) to kNeighbor = k +- 1. */
    public record Pair(int k, int kNeighbor) implements Serializable {
    }

    /** Where the largest privacy loss is realised: P_k(output) > P_kNeighbor(output). */
    public record Witness(int k, int kNeighbor, int output) implements Serializable {
    }

    /**
     * An output whose computed log-ratio {@code |ln P_k(output) - ln P_kNeighbor(output)| = logRatio} lies within its error
     * bound of the nominal eps or above it: the cases a pure-DP verdict must settle one by one.
     */
    public record Near(Witness at, double logRatio, double errorBound) implements Serializable {
    }

    /** The most near-eps outputs a part keeps per config (more are counted in {@link Part#nearOverflow}). */
    public static final int NEAR_CAP = 256;

    /** The audit of a range of databases [from, to): pairs (k, k+1) with k in the range, rows in the range. */
    public static final class Part implements Serializable {
        private static final long serialVersionUID = 1L;
        public final int from;
        public int to;
        /** Per config: max |L| and its witness (k, kNeighbor, r) with P_k(r) > P_kNeighbor(r). */
        public final double[] maxLogRatio;
        public final Witness[] witness;
        /** Per config: the largest error bound of any computed log-ratio (the true max loss is within it of maxLogRatio). */
        public final double[] maxLogRatioError;
        /** Per config: the outputs whose log-ratio is within its error bound of eps or above (at most {@link #NEAR_CAP}). */
        public final List<List<Near>> near;
        /** Per config: how many more such outputs there were. */
        public final long[] nearOverflow;
        /** Per config and eps': ln of the largest pair delta, and the pair {k, kNeighbor} (direction k to kNeighbor). */
        public final double[][] worstLogDelta;
        public final Pair[][] worstPair;
        /** Per config and eps': ln max(d(P_k, P_k+1), d(P_k+1, P_k)) for every pair k of the range, in order. */
        public double[][][] pairLogDelta;
        /** Per config and eps': ln of the bound on the absolute error of each pair's delta, in order. */
        public double[][][] pairLogError;
        /** Per config and eps': ln of the bound on the absolute error of {@link #worstLogDelta} (the largest pair error). */
        public final double[][] worstLogError;
        /** Per config and row of the range: E[-u] under P_k (the expected Hellinger distance) and P_k(best output). */
        public double[][] expectedLoss;
        public double[][] probabilityBest;

        Part(int from, int to, int configs, int[] lossCount) {
            this.from = from;
            this.to = to;
            maxLogRatio = new double[configs];
            witness = new Witness[configs];
            maxLogRatioError = new double[configs];
            nearOverflow = new long[configs];
            near = new ArrayList<>();
            for (int c = 0; c < configs; c++) {
                near.add(new ArrayList<>());
            }
            worstLogDelta = new double[configs][];
            worstPair = new Pair[configs][];
            pairLogDelta = new double[configs][][];
            pairLogError = new double[configs][][];
            worstLogError = new double[configs][];
            for (int c = 0; c < configs; c++) {
                worstLogDelta[c] = new double[lossCount[c]];
                Arrays.fill(worstLogDelta[c], Double.NEGATIVE_INFINITY);
                worstLogError[c] = new double[lossCount[c]];
                Arrays.fill(worstLogError[c], Double.NEGATIVE_INFINITY);
                worstPair[c] = new Pair[lossCount[c]];
                pairLogDelta[c] = new double[lossCount[c]][];
                pairLogError[c] = new double[lossCount[c]][];
            }
            expectedLoss = new double[configs][to - from];
            probabilityBest = new double[configs][to - from];
        }

        /** Merges the part of the next range (its from must be this part's to). */
        public Part merge(Part next) {
            if (next.from != to) {
                throw new IllegalArgumentException("parts must be adjacent: " + to + " vs " + next.from);
            }
            for (int c = 0; c < maxLogRatio.length; c++) {
                if (next.maxLogRatio[c] > maxLogRatio[c] || witness[c] == null) {
                    maxLogRatio[c] = next.maxLogRatio[c];
                    witness[c] = next.witness[c];
                }
                maxLogRatioError[c] = Math.max(maxLogRatioError[c], next.maxLogRatioError[c]);
                for (Near x : next.near.get(c)) {
                    keepNear(c, x);
                }
                nearOverflow[c] += next.nearOverflow[c];
                for (int e = 0; e < worstLogDelta[c].length; e++) {
                    if (next.worstLogDelta[c][e] > worstLogDelta[c][e] || worstPair[c][e] == null) {
                        worstLogDelta[c][e] = next.worstLogDelta[c][e];
                        worstPair[c][e] = next.worstPair[c][e];
                    }
                    worstLogError[c][e] = Math.max(worstLogError[c][e], next.worstLogError[c][e]);
                    pairLogDelta[c][e] = concat(pairLogDelta[c][e], next.pairLogDelta[c][e]);
                    pairLogError[c][e] = concat(pairLogError[c][e], next.pairLogError[c][e]);
                }
                expectedLoss[c] = concat(expectedLoss[c], next.expectedLoss[c]);
                probabilityBest[c] = concat(probabilityBest[c], next.probabilityBest[c]);
            }
            to = next.to;
            return this;
        }

        private static double[] concat(double[] a, double[] b) {
            double[] ab = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, ab, a.length, b.length);
            return ab;
        }

        private void keepNear(int c, Near x) {
            if (near.get(c).size() < NEAR_CAP) {
                near.get(c).add(x);
            } else {
                nearOverflow[c]++;
            }
        }

        /** Number of rows (databases) the part covers. */
        public int rows() {
            return to - from;
        }

        /** Mean over the rows of the range of E[-u], summed in row order (the same for any split). */
        public double meanExpectedLoss(int c) {
            double s = 0;
            for (double v : expectedLoss[c]) {
                s += v;
            }
            return s / expectedLoss[c].length;
        }

        /** The largest E[-u] of a row and its row: {value, k}. */
        public double[] maxExpectedLoss(int c) {
            int arg = 0;
            for (int i = 1; i < expectedLoss[c].length; i++) {
                if (expectedLoss[c][i] > expectedLoss[c][arg]) {
                    arg = i;
                }
            }
            return new double[] {expectedLoss[c][arg], from + arg};
        }

        /** Mean over the rows of P_k(best output). */
        public double meanProbabilityBest(int c) {
            double s = 0;
            for (double v : probabilityBest[c]) {
                s += v;
            }
            return s / probabilityBest[c].length;
        }

        /**
         * The database-dependent delta_eps'(k) of config c at loss index e for every k of a merged
         * part covering all databases: max over the pairs k belongs to (a database's profile is its worst neighbour).
         */
        public double[] profileLogDelta(int c, int e) {
            return perDatabase(pairLogDelta[c][e]);
        }

        /** ln of the bound on the absolute error of each value of {@link #profileLogDelta} (the larger of its pairs' errors). */
        public double[] profileLogError(int c, int e) {
            return perDatabase(pairLogError[c][e]);
        }

        /** The relative error bound of {@link #worstLogDelta}: 0 when the delta is exactly 0. */
        public double worstRelativeError(int c, int e) {
            return worstLogDelta[c][e] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(worstLogError[c][e] - worstLogDelta[c][e]);
        }

        private static double[] perDatabase(double[] pair) {
            int databases = pair.length + 1;
            double[] d = new double[databases];
            for (int k = 0; k < databases; k++) {
                d[k] = Math.max(k > 0 ? pair[k - 1] : Double.NEGATIVE_INFINITY, k < pair.length ? pair[k] : Double.NEGATIVE_INFINITY);
            }
            return d;
        }
    }

    /** Audits databases [from, to) for every config (rows from..to, pairs (k, k+1) for k in [from, to) with k+1 < N). */
    public static Part run(Utility utility, List<Config> configs, int from, int to) {
        int databases = utility.databases();
        if (from < 0 || to > databases || from >= to) {
            throw new IllegalArgumentException("range [" + from + ", " + to + ") of " + databases + " databases");
        }
        int outputs = utility.outputs();
        int cs = configs.size();
        int[] lossCount = configs.stream().mapToInt(c -> c.lossEpsilons().length).toArray();
        Part part = new Part(from, to, cs, lossCount);
        int pairs = Math.min(to, databases - 1) - from;
        for (int c = 0; c < cs; c++) {
            part.maxLogRatio[c] = Double.NEGATIVE_INFINITY;
            for (int e = 0; e < lossCount[c]; e++) {
                part.pairLogDelta[c][e] = new double[Math.max(0, pairs)];
                part.pairLogError[c][e] = new double[Math.max(0, pairs)];
            }
        }
        double[] uCur = new double[outputs];
        double[] uNext = new double[outputs];
        double[][] lpCur = new double[cs][outputs];
        double[][] lpNext = new double[cs][outputs];
        double[] etaCur = new double[cs];
        double[] etaNext = new double[cs];
        utility.row(from, uCur);
        for (int c = 0; c < cs; c++) {
            etaCur[c] = logLaw(uCur, configs.get(c).epsilon() / (2 * configs.get(c).sensitivity()[from]), lpCur[c]);
        }
        for (int k = from; k < to; k++) {
            rowMetrics(part, k, uCur, lpCur);
            if (k + 1 < databases) {
                utility.row(k + 1, uNext);
                for (int c = 0; c < cs; c++) {
                    Config cfg = configs.get(c);
                    etaNext[c] = logLaw(uNext, cfg.epsilon() / (2 * cfg.sensitivity()[k + 1]), lpNext[c]);
                    pair(part, c, cfg, k, lpCur[c], lpNext[c], etaCur[c], etaNext[c]);
                }
                double[] te = etaCur;
                etaCur = etaNext;
                etaNext = te;
                double[] t = uCur;
                uCur = uNext;
                uNext = t;
                double[][] tl = lpCur;
                lpCur = lpNext;
                lpNext = tl;
            }
        }
        return part;
    }

    /**
     * ln P(r) = c u(r) - ln Z into out; returns eta, a bound on the absolute error of every out[r]: c u(r) is off by at most
     * {@code |c u(r)| (2 rho + ulp)} (u and the sensitivity in c each to rho), ln Z by the largest of these plus the roundings of
     * its sum and logarithm, and the subtraction adds one rounding.
     */
    static double logLaw(double[] u, double c, double[] out) {
        double m = Double.NEGATIVE_INFINITY;
        double maxAbs = 0;
        for (int r = 0; r < u.length; r++) {
            out[r] = c * u[r];
            m = Math.max(m, out[r]);
            maxAbs = Math.max(maxAbs, Math.abs(out[r]));
        }
        double s = 0;
        for (double v : out) {
            s += Math.exp(v - m); // the largest term is 1: the sum never underflows
        }
        double logZ = m + Math.log(s);
        for (int r = 0; r < u.length; r++) {
            out[r] -= logZ;
        }
        double product = maxAbs * (2 * UTILITY_RELATIVE_ACCURACY + ULP);
        return 2 * product + (u.length + 3) * ULP + 2 * ULP * (Math.abs(logZ) + maxAbs);
    }

    private static void rowMetrics(Part part, int k, double[] u, double[][] lp) {
        int best = 0;
        for (int r = 1; r < u.length; r++) {
            if (u[r] > u[best]) {
                best = r;
            }
        }
        for (int c = 0; c < lp.length; c++) {
            double loss = 0;
            for (int r = 0; r < u.length; r++) {
                loss += Math.exp(lp[c][r]) * -u[r];
            }
            part.expectedLoss[c][k - part.from] = loss;
            part.probabilityBest[c][k - part.from] = Math.exp(lp[c][best]);
        }
    }

    private static void pair(Part part, int c, Config cfg, int k, double[] a, double[] b, double etaA, double etaB) {
        // the error of each log-ratio (one more rounding in the subtraction, of at most |l| <= the larger log-probability)
        double etaL = etaA + etaB + 2 * ULP * Math.max(maxAbs(a), maxAbs(b));
        part.maxLogRatioError[c] = Math.max(part.maxLogRatioError[c], etaL);
        for (int r = 0; r < a.length; r++) {
            double l = a[r] - b[r];
            Witness w = l >= 0 ? new Witness(k, k + 1, r) : new Witness(k + 1, k, r);
            if (Math.abs(l) > part.maxLogRatio[c]) {
                part.maxLogRatio[c] = Math.abs(l);
                part.witness[c] = w;
            }
            if (Math.abs(l) >= cfg.epsilon() - etaL) {
                part.keepNear(c, new Near(w, Math.abs(l), etaL));
            }
        }
        double[] loss = cfg.lossEpsilons();
        for (int e = 0; e < loss.length; e++) {
            LogSumExp forward = new LogSumExp();
            LogSumExp backward = new LogSumExp();
            LogSumExp nearForward = new LogSumExp();
            LogSumExp nearBackward = new LogSumExp();
            for (int r = 0; r < a.length; r++) {
                double l = a[r] - b[r];
                if (l > loss[e]) {
                    forward.add(a[r] + LogMath.log1mexp(loss[e] - l));
                } else if (-l > loss[e]) {
                    backward.add(b[r] + LogMath.log1mexp(loss[e] + l));
                }
                if (l > loss[e] - etaL) {
                    nearForward.add(a[r]);
                } else if (-l > loss[e] - etaL) {
                    nearBackward.add(b[r]);
                }
            }
            double f = forward.log();
            double bw = backward.log();
            double d = Math.max(f, bw);
            double err = Math.max(logError(f, etaA, etaL, nearForward.log(), a.length), logError(bw, etaB, etaL, nearBackward.log(), a.length));
            part.pairLogDelta[c][e][k - part.from] = d;
            part.pairLogError[c][e][k - part.from] = err;
            part.worstLogError[c][e] = Math.max(part.worstLogError[c][e], err);
            if (d > part.worstLogDelta[c][e] || part.worstPair[c][e] == null) {
                part.worstLogDelta[c][e] = d;
                part.worstPair[c][e] = f >= bw ? new Pair(k, k + 1) : new Pair(k + 1, k);
            }
        }
    }

    /**
     * ln of the error bound of one direction's delta: {@code delta (eta_a + (n + 4) ulp) + 1.01 eta_l M}, with {@code logNear = ln M}
     * the log-mass of the outputs whose log-ratio is within eta_l of eps' or above.
     */
    private static double logError(double logDelta, double etaA, double etaL, double logNear, int outputs) {
        LogSumExp e = new LogSumExp();
        if (logDelta > Double.NEGATIVE_INFINITY) {
            e.add(logDelta + Math.log(etaA + (outputs + 4) * ULP));
        }
        if (logNear > Double.NEGATIVE_INFINITY) {
            e.add(logNear + Math.log(1.01 * etaL));
        }
        return e.log();
    }

    private static double maxAbs(double[] v) {
        double m = 0;
        for (double x : v) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }
}
