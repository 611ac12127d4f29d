package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;

/** The log-pmfs against exact rationals (BigInteger binomials), rounded once. */
class LogPmfTest {
    static double ln(BigInteger num, BigInteger den) {
        return ExactMath.ln(ExactMath.ratio(num, den));
    }

    @Test
    void binomialAndHypergeometric() {
        // Binomial(40, 3/7) at k = 11: C(40, 11) 3^11 4^29 / 7^40
        BigInteger num = ExactMath.binomial(40, 11).multiply(BigInteger.valueOf(3).pow(11)).multiply(BigInteger.valueOf(4).pow(29));
        assertEquals(ln(num, BigInteger.valueOf(7).pow(40)), LogPmf.binomial(11, 40, 3, 7), 1e-13);
        // Hypergeometric(population 50, marked 20, draws 12) at k = 5: C(20, 5) C(30, 7) / C(50, 12)
        assertEquals(ln(ExactMath.binomial(20, 5).multiply(ExactMath.binomial(30, 7)), ExactMath.binomial(50, 12)),
                LogPmf.hypergeometric(5, 50, 20, 12), 1e-13);
        assertEquals(Double.NEGATIVE_INFINITY, LogPmf.hypergeometric(13, 50, 20, 12));
    }

    @Test
    void threeCategoryMarginalIsTheMultivariateLaw() {
        // counts (9, 6, 15), 10 draws: Pr[(3, 2, 5)] = C(9,3) C(6,2) C(15,5) / C(30,10)
        BigInteger num = ExactMath.binomial(9, 3).multiply(ExactMath.binomial(6, 2)).multiply(ExactMath.binomial(15, 5));
        double want = ln(num, ExactMath.binomial(30, 10));
        assertEquals(want, LogPmf.hypergeometric3(3, 2, 30, 9, 6, 10), 1e-13);
        assertEquals(want, LogPmf.multivariateHypergeometric(new int[] {3, 2, 5}, new int[] {9, 6, 15}), 1e-12);
        assertEquals(Double.NEGATIVE_INFINITY, LogPmf.multivariateHypergeometric(new int[] {10, 0, 0}, new int[] {9, 6, 15}));
    }

    @Test
    void multinomial() {
        // 7 draws with replacement from counts (2, 3, 5): 7!/(2! 4! 1!) (2/10)^2 (3/10)^4 (5/10)^1
        BigInteger num = ExactMath.factorial(7).divide(ExactMath.factorial(2).multiply(ExactMath.factorial(4)))
                .multiply(BigInteger.valueOf(2).pow(2)).multiply(BigInteger.valueOf(3).pow(4)).multiply(BigInteger.valueOf(5));
        assertEquals(ln(num, BigInteger.TEN.pow(7)), LogPmf.multinomial(new int[] {2, 4, 1}, new int[] {2, 3, 5}), 1e-12);
        assertEquals(Double.NEGATIVE_INFINITY, LogPmf.multinomial(new int[] {1, 0}, new int[] {0, 5}));
        assertEquals(0, new BigDecimal(Math.exp(LogPmf.multinomial(new int[] {0, 0}, new int[] {0, 5}))).compareTo(BigDecimal.ONE));
    }
}
