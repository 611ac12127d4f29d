package org.privacybounds.smoothed;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.privacybounds.numeric.Decimals;
import org.privacybounds.validation.BadInputException;

/**
 * The number T of records the mechanism samples from a database of n records.
 *
 * <p>Seed 000 Algorithm 2 uses {@code T = ceil(eta n)}; the paper's own code uses
 * {@code round(eta n)}. Both are computed in exact decimal arithmetic from the user's string, so
 * {@code ceil(0.998 * 1000)} is 998, never 999 (0.998 in binary floating point is not 0.998).
 */
public final class SampleSize {
    /** Rounding of {@code eta * n}. */
    public enum Rounding {
        /** {@code ceil(eta n)}: Algorithm 2 (default). */
        CEIL,
        /** {@code round(eta n)}, halves away from zero: the paper's MATLAB code. */
        ROUND
    }

    private SampleSize() {
    }

    /** Parses a sampling rate eta in (0, 1) given as a decimal string. */
    public static BigDecimal parseEta(String eta) {
        BigDecimal value;
        try {
            value = Decimals.parse(eta);
        } catch (NumberFormatException e) {
            throw new BadInputException("eta", eta, "must be a decimal number in (0, 1)");
        }
        if (value.signum() <= 0 || value.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException("eta", eta, "must be in the open interval (0, 1)");
        }
        return value;
    }

    /** T from a sampling rate: {@code ceil(eta n)} or {@code round(eta n)}, exactly. */
    public static long fromEta(BigDecimal eta, long n, Rounding rounding) {
        BigDecimal product = eta.multiply(BigDecimal.valueOf(n));
        RoundingMode mode = rounding == Rounding.CEIL ? RoundingMode.CEILING : RoundingMode.HALF_UP;
        return checked("eta", product.setScale(0, mode).longValueExact(), n);
    }

    /** T from the number of lost (unsampled) records: {@code T = n - lost}. */
    public static long fromLost(long lost, long n) {
        if (lost < 0 || lost > n) {
            throw new BadInputException("lost", lost, "must be in [0, n] with n = " + n);
        }
        return n - lost;
    }

    /** T from the fraction of records lost: {@code T = n - floor(fraction n)} (so T = ceil((1 - fraction) n)). */
    public static long fromLostFraction(BigDecimal fraction, long n) {
        if (fraction.signum() <= 0 || fraction.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException("lost fraction", fraction.toPlainString(), "must be in the open interval (0, 1)");
        }
        long lost = fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.FLOOR).longValueExact();
        return fromLost(lost, n);
    }

    /** T from the fraction of records published (a random audit sample): {@code T = ceil(fraction n)}, exactly. */
    public static long fromSampleFraction(BigDecimal fraction, long n) {
        if (fraction.signum() <= 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new BadInputException("sample fraction", fraction.toPlainString(), "must be in (0, 1]");
        }
        return checked("sample fraction", fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.CEILING).longValueExact(), n);
    }

    /** Validates a sample size given directly. */
    public static long checked(String parameter, long sampleSize, long n) {
        if (sampleSize < 0 || sampleSize > n) {
            throw new BadInputException(parameter, sampleSize, "the sample size T must be in [0, n] with n = " + n);
        }
        return sampleSize;
    }
}
