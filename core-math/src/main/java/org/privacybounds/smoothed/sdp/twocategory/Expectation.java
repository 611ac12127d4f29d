package org.privacybounds.smoothed.sdp.twocategory;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.privacybounds.numeric.ChernoffTail;
import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogMath;

/**
 * One exact expectation f(n1) = E[delta(X + Y)], X ~ Bin(n1, pHi), Y ~ Bin(n - n1, pLo), over
 * fixed windows of X and Y, with the delta values it needs carried along: a self-contained unit
 * of stage 2 that an executor can evaluate. What the windows leave out is at most
 * {@code exp(logTail)} (Chernoff tails of X and Y times certified bounds of delta, an absolute bound).
 *
 * @param n1       records on the p_hi vertex
 * @param xl       window of X
 * @param yl       window of Y
 * @param hStart   first h of {@code logDelta}
 * @param logDelta ln delta(h) for h in [xl + yl, xr + yr]
 * @param logTail  ln of the bound on what the windows leave out
 */
public record Expectation(long n, double pHi, double pLo, long n1, long xl, long xr, long yl, long yr, long hStart, double[] logDelta,
        double logTail) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The windows of X and Y an expectation sums over, and ln of the bound on what they leave out.
     *
     * @param logTail ln of the bound on the left-out part ({@code -Infinity} when the windows are the whole supports)
     */
    public record Window(long xl, long xr, long yl, long yr, double logTail) {
        /** The first h = x + y the windows produce. */
        public long hFrom() {
            return xl + yl;
        }

        /** The last h. */
        public long hTo() {
            return xr + yr;
        }
    }

    /** An upper bound on ln delta(h) over every h in [a, b] (a <= b; the range may reach past [0, n]). */
    @FunctionalInterface
    public interface DeltaBound {
        double logMax(long a, long b);
    }

    /**
     * The windows for f(n1), bounding what they leave out by Chernoff tails of X and Y times the DP delta
     * ({@code logDp}); see {@link #window(long, double, double, long, double, double, DeltaBound)}.
     */
    public static Window window(long n, double pHi, double pLo, long n1, double logDp, double logTarget) {
        return window(n, pHi, pLo, n1, logDp, logTarget, (a, b) -> logDp);
    }

    /**
     * The windows for f(n1): widened until the left-out part is below {@code exp(logTarget)}. With W_x, W_y the
     * windows, what is left out is at most
     * <pre>
     *   sum_{x outside W_x} P(x) max_{y in W_y} delta(x + y) + sum_{y outside W_y} P(y) max_{x in W_x} delta(x + y)
     *     + sum_{x outside W_x, y outside W_y} P(x) P(y) delta(x + y),
     * </pre>
     * where each tail runs over chunks of about one standard deviation, each chunk weighted by the Chernoff bound of
     * reaching it and by {@code bound}'s maximum of delta over the h it can produce (pairs of chunks in the last sum),
     * until the rest times T/n is negligible. Each end of each window widens on its own. With {@code bound} from certified block maxima of delta this keeps the windows near where delta times
     * the probability matters (about 9 standard deviations at n = 1e8) instead of where the probability alone is below
     * the target (about 45).
     *
     * @return the windows and the bound on what they leave out
     */
    public static Window window(long n, double pHi, double pLo, long n1, double logDp, double logTarget, DeltaBound bound) {
        CountLaw x = CountLaw.binomial(n1, pHi);
        CountLaw y = CountLaw.binomial(n - n1, pLo);
        double sdx = Math.sqrt(n1 * pHi * (1 - pHi)) + 1;
        double sdy = Math.sqrt((n - n1) * pLo * (1 - pLo)) + 1;
        DeltaBound capped = (a, b) -> Math.min(logDp, bound.logMax(Math.max(0, a), Math.min(n, b)));
        // each end of each window widens on its own while its share of the left-out part is above a quarter of the target
        double[] z = {6, 6, 6, 6}; // x left, x right, y left, y right, in standard deviations from the mode
        double quarter = logTarget - Math.log(4);
        while (true) {
            long xl = (long) Math.max(x.lower(), Math.floor(x.mode() - z[0] * sdx));
            long xr = (long) Math.min(x.upper(), Math.ceil(x.mode() + z[1] * sdx));
            long yl = (long) Math.max(y.lower(), Math.floor(y.mode() - z[2] * sdy));
            long yr = (long) Math.min(y.upper(), Math.ceil(y.mode() + z[3] * sdy));
            boolean full = xl == x.lower() && xr == x.upper() && yl == y.lower() && yr == y.upper();
            if (full) {
                return new Window(xl, xr, yl, yr, Double.NEGATIVE_INFINITY);
            }
            double stop = logTarget - 10;
            List<double[]> xLo = chunks(n1, pHi, xl, xr, sdx, logDp, stop, -1);
            List<double[]> xHi = chunks(n1, pHi, xl, xr, sdx, logDp, stop, 1);
            List<double[]> yLo = chunks(n - n1, pLo, yl, yr, sdy, logDp, stop, -1);
            List<double[]> yHi = chunks(n - n1, pLo, yl, yr, sdy, logDp, stop, 1);
            double[] side = {cross(xLo, List.of(new double[] {0, yl, yr}), capped, logDp), cross(xHi, List.of(new double[] {0, yl, yr}), capped, logDp),
                cross(yLo, List.of(new double[] {0, xl, xr}), capped, logDp), cross(yHi, List.of(new double[] {0, xl, xr}), capped, logDp)};
            List<double[]> xOut = new ArrayList<>(xLo);
            xOut.addAll(xHi);
            List<double[]> yOut = new ArrayList<>(yLo);
            yOut.addAll(yHi);
            double both = cross(xOut, yOut, capped, logDp); // x and y both outside their windows
            double tail = both;
            for (double v : side) {
                tail = LogMath.logAdd(tail, v);
            }
            if (tail <= logTarget) {
                return new Window(xl, xr, yl, yr, tail);
            }
            for (int i = 0; i < 4; i++) {
                if (side[i] > quarter || both > quarter) {
                    z[i] *= 1.25;
                }
            }
        }
    }

    /**
     * The values below l ({@code dir = -1}) or above r ({@code dir = 1}) of U ~ Bin(m, p), in chunks of about one standard
     * deviation outward from that end: {ln Pr[U reaches the chunk] (Chernoff), first, last}. Once Pr[reach] x T/n is below
     * {@code stop}, one last entry {ln Pr[reach], -1, -1} stands for all the rest (to be weighted by T/n).
     */
    private static List<double[]> chunks(long m, double p, long l, long r, double sd, double logDp, double stop, int dir) {
        List<double[]> out = new ArrayList<>();
        long chunk = (long) Math.max(1, Math.ceil(sd));
        long c0 = dir < 0 ? l - 1L : r + 1L; // the chunk's value nearest the window
        while (c0 >= 0 && c0 <= m) {
            long c1 = dir < 0 ? Math.max(0, c0 - chunk + 1) : Math.min(m, c0 + chunk - 1);
            double a = (double) c0 / m;
            double reach = (dir < 0 ? a < p : a > p) ? -m * ChernoffTail.kl(a, p) : 0;
            if (reach + logDp < stop) {
                out.add(new double[] {reach, -1, -1});
                break;
            }
            out.add(new double[] {reach, Math.min(c0, c1), Math.max(c0, c1)});
            c0 = dir < 0 ? c1 - 1 : c1 + 1;
        }
        return out;
    }

    /**
     * Bound on the mass of u + v over pairs of chunks: sum of Pr[reach u's chunk] Pr[reach v's chunk] times the largest
     * delta over the h the pair can produce (T/n for a "rest" entry).
     */
    private static double cross(List<double[]> us, List<double[]> vs, DeltaBound bound, double logDp) {
        double acc = Double.NEGATIVE_INFINITY;
        for (double[] u : us) {
            for (double[] v : vs) {
                double d = u[1] < 0 || v[1] < 0 ? logDp : bound.logMax((long) (u[1] + v[1]), (long) (u[2] + v[2]));
                acc = LogMath.logAdd(acc, u[0] + v[0] + d);
            }
        }
        return acc;
    }

    /** Multiply-adds this evaluation costs (the product of its two windows). */
    public double work() {
        return (double) (xr - xl + 1) * (yr - yl + 1);
    }

    /** Above this many terms the rows of {@link #evaluate} are summed in parallel (on the caller's fork-join pool). */
    static final double PARALLEL_WORK = 5e5;

    /** {ln f over the windows (a lower bound of f), ln of the bound on the rest}. */
    public double[] evaluate() {
        CountLaw x = CountLaw.binomial(n1, pHi);
        CountLaw y = CountLaw.binomial(n - n1, pLo);
        int off = (int) (xl + yl - hStart);
        // where delta spans too many nats for one scale: P(x) e^{beta i} P(y) e^{beta j} delta(h) e^{-beta (i + j)} (i = x - xl,
        // j = y - yl), the same products; beta = 0 elsewhere (the same digits)
        double beta = EndScan.tilt(logDelta, 0);
        double[] px = scaled(x, xl, xr, beta);
        double[] py = scaled(y, yl, yr, beta);
        double md = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < logDelta.length; i++) {
            md = Math.max(md, logDelta[i] - beta * (i - off));
        }
        if (md == Double.NEGATIVE_INFINITY) {
            return new double[] {Double.NEGATIVE_INFINITY, logTail};
        }
        double[] d = new double[logDelta.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Math.exp(logDelta[i] - beta * (i - off) - md);
        }
        // each row's inner sum on its own (sliding dot products, in parallel when large), then the rows summed in order: the
        // same digits either way
        int rows = px.length - 1;
        double[] inner = SlidingDot.of(py, py.length - 1, d, off, rows, (double) rows * (py.length - 1) > PARALLEL_WORK);
        double f = 0;
        for (int i = 0; i < inner.length; i++) {
            f += px[i] * inner[i];
        }
        double lf = f > 0 ? Math.log(f) + px[px.length - 1] + py[py.length - 1] + md : Double.NEGATIVE_INFINITY;
        return new double[] {lf, logTail};
    }

    /** exp(log pmf + beta i - max) over [lo, hi] (i = k - lo), with the max appended as the last element. */
    private static double[] scaled(CountLaw law, long lo, long hi, double beta) {
        double[] v = new double[Math.toIntExact(hi - lo + 2)];
        double m = Double.NEGATIVE_INFINITY;
        for (int i = 0; i <= hi - lo; i++) {
            v[i] = law.logProbability(lo + i) + beta * i;
            m = Math.max(m, v[i]);
        }
        for (int i = 0; i <= hi - lo; i++) {
            v[i] = Math.exp(v[i] - m);
        }
        v[v.length - 1] = m;
        return v;
    }
}
