package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.distribution.HypergeometricDistribution;
import org.apfloat.Apfloat;
import org.apfloat.ApfloatMath;
import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * Loader's log-pmfs for long counts: against Commons Statistics inside the int range, and against 50-digit log-gamma
 * values (apfloat) past it; the hockey-stick divergence of a histogram of 3e9 and 1e11 records against a 50-digit sum.
 */
class SaddlePointTest {
    private static final long DIGITS = 50;

    private static Apfloat lnFactorial(long k) {
        return ApfloatMath.logGamma(new Apfloat(k + 1, DIGITS));
    }

    /** ln C(a, b) in 50 digits. */
    private static Apfloat lnChoose(long a, long b) {
        return lnFactorial(a).subtract(lnFactorial(b)).subtract(lnFactorial(a - b));
    }

    @Test
    void agreesWithCommonsStatisticsInsideTheIntRange() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int t = 0; t < 3000; t++) {
            int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 1000 : Integer.MAX_VALUE - 1);
            int k = rnd.nextInt(n + 1);
            int draws = rnd.nextInt(n + 1);
            HypergeometricDistribution h = HypergeometricDistribution.of(n, k, draws);
            int lo = h.getSupportLowerBound();
            int hi = h.getSupportUpperBound();
            // near the mode and in a tail
            int mode = (int) Math.min(hi, Math.max(lo, (long) draws * k / n));
            for (int x : new int[] {mode, lo + (int) ((hi - lo) * rnd.nextDouble())}) {
                double want = h.logProbability(x);
                double got = SaddlePoint.logHypergeometric(x, n, k, draws);
                // Commons rounds n p before its deviance terms (about 1e-12 off at n = 4e8, where these are within 1e-14 of
                // 50 digits; 1.6e-10 at ln pmf = -10,077 and n = 1.35e9): agreement to that, the exact comparison is the one below
                assertEquals(want, got, 1e-10 + 4e-14 * Math.abs(want), "x=" + x + " N=" + n + " K=" + k + " n=" + draws);
            }
            double p = rnd.nextDouble();
            BinomialDistribution b = BinomialDistribution.of(n, p);
            int x = (int) Math.min(n, Math.max(0, Math.round(n * p + (rnd.nextDouble() - 0.5) * 10 * Math.sqrt(n * p * (1 - p) + 1))));
            double want = b.logProbability(x);
            assertEquals(want, SaddlePoint.logBinomial(x, n, p, 1 - p), 1e-10 + 4e-14 * Math.abs(want), "x=" + x + " n=" + n + " p=" + p);
        }
    }

    @Test
    void agreesWith50DigitLogGammaPastTheIntRange() {
        SplittableRandom rnd = new SplittableRandom(4);
        for (int t = 0; t < 40; t++) {
            long n = 2_147_483_648L + (long) (rnd.nextDouble() * (SamplingHistogramMechanism.MAX_N - 2_147_483_648L));
            long k = (long) (n * (0.01 + 0.98 * rnd.nextDouble()));
            long draws = (long) (n * (0.5 + 0.499 * rnd.nextDouble()));
            double mean = (double) draws * k / n;
            double sd = Math.sqrt(mean * (1 - (double) k / n) * (1 - (double) draws / n)) + 1;
            long x = Math.max(Math.max(0, draws - (n - k)), Math.min(Math.min(k, draws), Math.round(mean + (rnd.nextDouble() - 0.5) * 60 * sd)));
            Apfloat exact = lnChoose(k, x).add(lnChoose(n - k, draws - x)).subtract(lnChoose(n, draws));
            double want = exact.doubleValue();
            double got = SaddlePoint.logHypergeometric(x, n, k, draws);
            // about 1e-11 absolute at these sizes: the pmf to that relative accuracy
            assertEquals(want, got, 1e-10 + 1e-15 * Math.abs(want), "x=" + x + " N=" + n + " K=" + k + " n=" + draws);
            // the binomial at the double p itself: ln C(n, x) + x ln p + (n - x) ln(1 - p), 50 digits
            double p = rnd.nextDouble();
            long y = Math.max(0, Math.min(n, Math.round(n * p + (rnd.nextDouble() - 0.5) * 60 * Math.sqrt(n * p * (1 - p)))));
            Apfloat ap = new Apfloat(new BigDecimal(p), DIGITS);
            Apfloat lnBin = lnChoose(n, y).add(new Apfloat(y, DIGITS).multiply(ApfloatMath.log(ap)))
                    .add(new Apfloat(n - y, DIGITS).multiply(ApfloatMath.log(new Apfloat(1, DIGITS).subtract(ap))));
            double wantBin = lnBin.doubleValue();
            assertEquals(wantBin, SaddlePoint.logBinomial(y, n, p, 1 - p), 1e-10 + 1e-15 * Math.abs(wantBin), "y=" + y + " n=" + n + " p=" + p);
            double bin = SaddlePoint.logBinomialCoefficient(n, k);
            assertEquals(lnChoose(n, k).doubleValue(), bin, 1e-12 * Math.abs(bin), "C(" + n + ", " + k + ")");
        }
    }

    /**
     * The certified hockey-stick divergence d_eps(g, g - e_1 + e_2) of two categories: with j the lost records of category 1
     * (Hypergeometric(n, g_1, L), L = n - T), rho(j) = (j / g_1)((g_2 + 1) / (L + 1 - j)), and the sum over j with
     * rho < e^-eps of pmf(j)(1 - e^eps rho(j)), from a 50-digit log-gamma anchor stepped down by exact ratios.
     */
    @Test
    void hockeyStickPastTheIntRangeHoldsItsCertificate() {
        long[][] cases = {{3_000_000_000L, 2_994_000_000L}, {SamplingHistogramMechanism.MAX_N, 99_800_000_000L}};
        for (long[] c : cases) {
            long n = c[0];
            long t = c[1];
            long lost = n - t;
            for (double share : new double[] {0.944667, 0.5}) {
                long g1 = (long) (n * share);
                long g2 = n - g1;
                for (double eps : new double[] {0.5, 7}) {
                    double[] got = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t).logHockeyStick(new long[] {g1, g2}, 0, 1, eps);
                    double lnWant = exactLogHockeyStick(n, lost, g1, g2, eps);
                    double rel = Math.abs(Math.expm1(got[0] - lnWant));
                    assertTrue(rel <= got[1], "n=" + n + " g1=" + g1 + " eps=" + eps + ": " + got[0] + " vs " + lnWant + ", error " + rel
                            + " above the certified " + got[1]);
                }
            }
        }
    }

    private static double exactLogHockeyStick(long n, long lost, long g1, long g2, double eps) {
        Apfloat e = ApfloatMath.exp(new Apfloat(Double.toString(eps), DIGITS));
        Apfloat g1a = new Apfloat(g1, DIGITS);
        Apfloat g2p = new Apfloat(g2 + 1, DIGITS);
        // rho(j) < e^-eps: the largest such j, from the closed form, then checked exactly
        long j = (long) Math.floor(Math.exp(-eps) * g1 * (lost + 1.0) / (g2 + 1.0 + Math.exp(-eps) * g1)) + 2;
        while (j >= 0 && !(weight(j, g1a, g2p, lost, e).signum() > 0)) {
            j--;
        }
        Apfloat lnPmf = lnChoose(g1, j).add(lnChoose(g2, lost - j)).subtract(lnChoose(n, lost));
        Apfloat pmf = ApfloatMath.exp(lnPmf.subtract(lnPmf.truncate())); // pmf / e^{trunc}: kept in range
        Apfloat scale = lnPmf.truncate();
        Apfloat sum = new Apfloat(0, DIGITS);
        for (int steps = 0; j >= Math.max(0, lost - g2) && steps < 100_000; steps++, j--) {
            Apfloat term = pmf.multiply(weight(j, g1a, g2p, lost, e));
            sum = sum.add(term);
            if (steps > 10 && term.compareTo(sum.multiply(new Apfloat("1e-40", DIGITS))) < 0) {
                break;
            }
            // pmf(j - 1) / pmf(j) = j (g2 - lost + j) / ((g1 - j + 1)(lost - j + 1))
            pmf = pmf.multiply(new Apfloat(j, DIGITS)).multiply(new Apfloat(g2 - lost + j, DIGITS))
                    .divide(new Apfloat(g1 - j + 1, DIGITS).multiply(new Apfloat(lost - j + 1, DIGITS)));
        }
        return ApfloatMath.log(sum).add(scale).doubleValue();
    }

    /** 1 - e^eps rho(j), rho(j) = (j / g1)((g2 + 1) / (lost + 1 - j)). */
    private static Apfloat weight(long j, Apfloat g1, Apfloat g2p, long lost, Apfloat e) {
        Apfloat rho = new Apfloat(j, DIGITS).multiply(g2p).divide(g1.multiply(new Apfloat(lost + 1 - j, DIGITS)));
        return new Apfloat(1, DIGITS).subtract(e.multiply(rho));
    }
}
