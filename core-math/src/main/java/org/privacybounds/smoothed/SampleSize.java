package org.privacybounds.smoothed;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.privacybounds.numeric.Decimals;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The number T of records the mechanism samples from a database of n records.
 *
 * <p>The Smoothed DP paper's Algorithm 2 uses {@code T = ceil(eta n)}; the paper's own code uses
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
            throw new BadInputException(Parameter.ETA, eta, "must be a decimal number in (0, 1)");
        }
        if (value.signum() <= 0 || value.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException(Parameter.ETA, eta, "must be in the open interval (0, 1)");
        }
        return value;
    }

    /** Parses a fraction of records lost, in (0, 1), given as a decimal string (T = n - floor(fraction n)). */
    public static BigDecimal parseLostFraction(String text) {
        BigDecimal f = decimal(Parameter.LOST_FRACTION, text);
        if (f.signum() <= 0 || f.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException(Parameter.LOST_FRACTION, text, "must be in the open interval (0, 1)");
        }
        return f;
    }

    /** Parses a fraction of records published, in (0, 1], given as a decimal string (T = ceil(fraction n)). */
    public static BigDecimal parseSampleFraction(String text) {
        BigDecimal f = decimal(Parameter.SAMPLE_FRACTION, text);
        if (f.signum() <= 0 || f.compareTo(BigDecimal.ONE) > 0) {
            throw new BadInputException(Parameter.SAMPLE_FRACTION, text, "must be in (0, 1]");
        }
        return f;
    }

    private static BigDecimal decimal(Parameter key, String text) {
        try {
            return Decimals.parse(text);
        } catch (NumberFormatException e) {
            throw new BadInputException(key, text, "must be a decimal number (|exponent| <= 1000)");
        }
    }

    /** T from a sampling rate: {@code ceil(eta n)} or {@code round(eta n)}, exactly. */
    public static long fromEta(BigDecimal eta, long n, Rounding rounding) {
        BigDecimal product = eta.multiply(BigDecimal.valueOf(n));
        RoundingMode mode = rounding == Rounding.CEIL ? RoundingMode.CEILING : RoundingMode.HALF_UP;
        long t = product.setScale(0, mode).longValueExact();
        if (t < 0 || t > n) {
            throw new BadInputException(Parameter.ETA, eta.toPlainString(), "gives T = " + t + "; the sample size T must be in [0, n] with n = " + n);
        }
        return t;
    }

    /** T from the number of lost (unsampled) records: {@code T = n - lost}. */
    public static long fromLost(long lost, long n) {
        if (lost < 0 || lost > n) {
            throw new BadInputException(Parameter.LOST, lost, "must be in [0, n] with n = " + n);
        }
        return n - lost;
    }

    /** T from the fraction of records lost: {@code T = n - floor(fraction n)} (so T = ceil((1 - fraction) n)). */
    public static long fromLostFraction(BigDecimal fraction, long n) {
        if (fraction.signum() <= 0 || fraction.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException(Parameter.LOST_FRACTION, fraction.toPlainString(), "must be in the open interval (0, 1)");
        }
        return ofLostFraction(fraction, n);
    }

    /** {@link #fromLostFraction} for a fraction its caller has checked (a record that holds one), without checking it again per n. */
    static long ofLostFraction(BigDecimal fraction, long n) {
        return n - fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** T from the fraction of records published (a random audit sample): {@code T = ceil(fraction n)}, exactly. */
    public static long fromSampleFraction(BigDecimal fraction, long n) {
        if (fraction.signum() <= 0 || fraction.compareTo(BigDecimal.ONE) > 0) {
            throw new BadInputException(Parameter.SAMPLE_FRACTION, fraction.toPlainString(), "must be in (0, 1]");
        }
        return ofSampleFraction(fraction, n);
    }

    /** {@link #fromSampleFraction} for a fraction its caller has checked. */
    static long ofSampleFraction(BigDecimal fraction, long n) {
        return fraction.multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Validates a sample size given directly. */
    public static long checked(String parameter, long sampleSize, long n) {
        if (sampleSize < 0 || sampleSize > n) {
            throw new BadInputException(parameter, sampleSize, "the sample size T must be in [0, n] with n = " + n);
        }
        return sampleSize;
    }
}
