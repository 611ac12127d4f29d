package org.privacybounds.exact;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.privacybounds.numeric.Compositions;
import org.privacybounds.smoothed.Sampling;

/**
 * The reference path for the sampling-histogram mechanism: full enumeration of every sampled
 * histogram, probabilities as exact rationals (BigInteger binomials and powers) rounded once to 60
 * digits, {@code e^eps} from apfloat, and the hockey-stick sum taken literally over all outputs,
 * {@code sum_k max(0, P(k) - e^eps P'(k))}. It shares no formula with the fast path (no likelihood
 * ratio closed form, no thresholds, no truncation), so agreement between the two is evidence for
 * both. Small n only.
 */
public final class ExactSamplingProfile {
    private final Sampling sampling;
    private final int sampleSize;

    public ExactSamplingProfile(Sampling sampling, int sampleSize) {
        this.sampling = sampling;
        this.sampleSize = sampleSize;
    }

    /** The law of the sampled histogram of database h: every k with positive probability. */
    public Map<List<Integer>, BigDecimal> law(int[] h) {
        int n = 0;
        for (int c : h) {
            n += c;
        }
        Map<List<Integer>, BigDecimal> out = new HashMap<>();
        if (sampling == Sampling.WITHOUT_REPLACEMENT && n - sampleSize < sampleSize) {
            // few records left out (lost ballots): enumerate the left-out histogram l = h - k, sum n - T (the same law)
            BigInteger total = ExactMath.binomial(n, n - sampleSize);
            for (int[] l : Compositions.of(n - sampleSize, h.length)) {
                BigInteger num = BigInteger.ONE;
                int[] k = new int[h.length];
                for (int i = 0; i < h.length; i++) {
                    num = num.multiply(ExactMath.binomial(h[i], l[i]));
                    k[i] = h[i] - l[i];
                }
                if (num.signum() > 0) {
                    out.put(key(k), ExactMath.ratio(num, total));
                }
            }
            return out;
        }
        List<int[]> all = Compositions.of(sampleSize, h.length);
        BigInteger total = sampling == Sampling.WITHOUT_REPLACEMENT ? ExactMath.binomial(n, sampleSize)
                : BigInteger.valueOf(n).pow(sampleSize);
        BigInteger tFact = ExactMath.factorial(sampleSize);
        for (int[] k : all) {
            BigInteger num = BigInteger.ONE;
            if (sampling == Sampling.WITHOUT_REPLACEMENT) {
                for (int i = 0; i < h.length; i++) {
                    num = num.multiply(ExactMath.binomial(h[i], k[i]));
                }
            } else {
                num = tFact;
                BigInteger den = BigInteger.ONE;
                for (int i = 0; i < h.length; i++) {
                    num = num.multiply(BigInteger.valueOf(h[i]).pow(k[i]));
                    den = den.multiply(ExactMath.factorial(k[i]));
                }
                num = num.divide(den);
            }
            if (num.signum() > 0) {
                out.put(key(k), ExactMath.ratio(num, total));
            }
        }
        return out;
    }

    /** d_eps(x, x') = sum over outputs of max(0, P_x - e^eps P_x'). */
    public BigDecimal hockeyStick(int[] x, int[] xp, double eps) {
        return hockeyStick(law(x), law(xp), ExactMath.exp(eps));
    }

    /** Literal hockey-stick sum of two laws given as maps. */
    public static <K> BigDecimal hockeyStick(Map<K, BigDecimal> p, Map<K, BigDecimal> q, BigDecimal expEps) {
        BigDecimal s = BigDecimal.ZERO;
        for (Map.Entry<K, BigDecimal> e : p.entrySet()) {
            BigDecimal diff = e.getValue().subtract(expEps.multiply(q.getOrDefault(e.getKey(), BigDecimal.ZERO), ExactMath.MC), ExactMath.MC);
            if (diff.signum() > 0) {
                s = s.add(diff, ExactMath.MC);
            }
        }
        return s;
    }

    /** delta_eps(h) = max over all replace-one neighbours and both directions. */
    public BigDecimal delta(int[] h, double eps) {
        BigDecimal expEps = ExactMath.exp(eps);
        Map<List<Integer>, BigDecimal> base = law(h);
        BigDecimal best = BigDecimal.ZERO;
        for (int[] hp : neighbours(h)) {
            Map<List<Integer>, BigDecimal> other = law(hp);
            best = best.max(hockeyStick(base, other, expEps)).max(hockeyStick(other, base, expEps));
        }
        return best;
    }

    /**
     * One-sided utility {@code u(x, x', t) = 1/(1-t) sum_k P_x(k) (max(P_x, P_x')/(P_x + P_x') - t)_+}
     * with {@code t = e^eps / (1 + e^eps)}, taken literally.
     */
    public BigDecimal oneSidedUtility(int[] x, int[] xp, double eps) {
        BigDecimal e = ExactMath.exp(eps);
        BigDecimal t = e.divide(BigDecimal.ONE.add(e), ExactMath.MC);
        BigDecimal oneMinusT = BigDecimal.ONE.subtract(t);
        Map<List<Integer>, BigDecimal> p = law(x);
        Map<List<Integer>, BigDecimal> q = law(xp);
        BigDecimal s = BigDecimal.ZERO;
        for (Map.Entry<List<Integer>, BigDecimal> en : p.entrySet()) {
            BigDecimal a = en.getValue();
            BigDecimal b = q.getOrDefault(en.getKey(), BigDecimal.ZERO);
            BigDecimal post = a.max(b).divide(a.add(b), ExactMath.MC);
            BigDecimal gain = post.subtract(t);
            if (gain.signum() > 0) {
                s = s.add(a.multiply(gain, ExactMath.MC), ExactMath.MC);
            }
        }
        return s.divide(oneMinusT, ExactMath.MC);
    }

    /** Every replace-one neighbour of h. */
    public static List<int[]> neighbours(int[] h) {
        List<int[]> out = new ArrayList<>();
        for (int a = 0; a < h.length; a++) {
            if (h[a] == 0) {
                continue;
            }
            for (int b = 0; b < h.length; b++) {
                if (b != a) {
                    int[] hp = h.clone();
                    hp[a]--;
                    hp[b]++;
                    out.add(hp);
                }
            }
        }
        return out;
    }

    /**
     * Algorithm 4 by brute force: the noisy output law on the explicit grid {@code [0, T + extra]^m}
     * (no folding of the tail), each probability in 60-digit decimals, {@code r = e^{-noiseEps/4}}
     * from apfloat. The mass beyond the grid is below {@code m r^{extra+1} / (1 - r)}.
     */
    public Map<List<Integer>, BigDecimal> noisyLaw(int[] h, double noiseEps, int extra) {
        int m = h.length;
        int side = sampleSize + extra + 1;
        BigDecimal r = ExactMath.exp(-noiseEps / 4);
        BigDecimal oneMinusR = BigDecimal.ONE.subtract(r);
        BigDecimal[] rPow = new BigDecimal[side + sampleSize + 2];
        rPow[0] = BigDecimal.ONE;
        for (int i = 1; i < rPow.length; i++) {
            rPow[i] = rPow[i - 1].multiply(r, ExactMath.MC);
        }
        BigDecimal[] z = new BigDecimal[sampleSize + 1];
        for (int c = 0; c <= sampleSize; c++) {
            z[c] = BigDecimal.ONE.add(r).subtract(rPow[c + 1]).divide(oneMinusR, ExactMath.MC);
        }
        Map<List<Integer>, BigDecimal> sampled = law(h);
        Map<List<Integer>, BigDecimal> out = new HashMap<>();
        int size = 1;
        for (int j = 0; j < m; j++) {
            size *= side;
        }
        int[] y = new int[m];
        for (int idx = 0; idx < size; idx++) {
            int rest = idx;
            for (int j = 0; j < m; j++) {
                y[j] = rest % side;
                rest /= side;
            }
            BigDecimal s = BigDecimal.ZERO;
            for (Map.Entry<List<Integer>, BigDecimal> e : sampled.entrySet()) {
                BigDecimal v = e.getValue();
                for (int j = 0; j < m; j++) {
                    int c = e.getKey().get(j);
                    v = v.multiply(rPow[Math.abs(y[j] - c)], ExactMath.MC).divide(z[c], ExactMath.MC);
                }
                s = s.add(v, ExactMath.MC);
            }
            out.put(key(y), s);
        }
        return out;
    }

    private static List<Integer> key(int[] k) {
        List<Integer> l = new ArrayList<>(k.length);
        for (int v : k) {
            l.add(v);
        }
        return l;
    }

}
