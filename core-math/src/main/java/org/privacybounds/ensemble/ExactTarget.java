package org.privacybounds.ensemble;

import java.math.BigDecimal;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The DaRRM setting as exact numbers, for verdicts that rounding cannot flip: each mechanism's eps and Delta, the target's
 * m eps and delta. A value the user typed is kept as the decimal typed ({@code 0.1} is one tenth, not the double nearest
 * it); a value the tool derives is the double it derives and prints (the general composition's eps'(M), or
 * {@code 1 - (1 - Delta)^m} for a non-integer m), taken exactly.
 *
 * <p>Example:
 * <pre>{@code
 * ExactTarget t = ExactTarget.of(new BigDecimal("0.1"), new BigDecimal("5"), BigDecimal.ZERO, null);   // (0.5, 0) exactly
 * boolean integral = t.integerM();   // true: e^{m eps} is a power of e^eps
 * }</pre>
 *
 * @param epsilon        eps of each mechanism, > 0
 * @param mechanismDelta Delta of each mechanism, in [0, 1)
 * @param mEpsilon       the target's m eps, >= eps
 * @param delta          the target's delta, in [Delta, 1)
 */
public record ExactTarget(BigDecimal epsilon, BigDecimal mechanismDelta, BigDecimal mEpsilon, BigDecimal delta) {
    public ExactTarget {
        if (epsilon == null || epsilon.signum() <= 0) {
            throw new BadInputException(Parameter.EPSILON, epsilon, "must be > 0");
        }
        if (mechanismDelta == null || mechanismDelta.signum() < 0 || mechanismDelta.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException(Parameter.MECHANISM_DELTA, mechanismDelta, "must be in [0, 1)");
        }
        if (mEpsilon == null || mEpsilon.compareTo(epsilon) < 0) {
            throw new BadInputException(Parameter.M_EPS, mEpsilon, "must be at least eps = " + epsilon);
        }
        if (delta == null || delta.compareTo(mechanismDelta) < 0 || delta.compareTo(BigDecimal.ONE) >= 0) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in [Delta, 1) = [" + mechanismDelta + ", 1)");
        }
    }

    /**
     * The target from decimal inputs: m eps = m x eps exactly; delta as given, or (null) the composition of m mechanisms
     * {@code 1 - (1 - Delta)^m}, exact for an integer m and otherwise the double {@link DarrmSetting#of} derives.
     */
    public static ExactTarget of(BigDecimal epsilon, BigDecimal m, BigDecimal mechanismDelta, BigDecimal delta) {
        BigDecimal d = delta;
        if (d == null) {
            d = isInteger(m) && m.signum() > 0 && m.compareTo(BigDecimal.valueOf(DarrmSetting.MAX_K)) <= 0
                    ? BigDecimal.ONE.subtract(BigDecimal.ONE.subtract(mechanismDelta).pow(m.intValueExact()))
                    : new BigDecimal(DarrmSetting.composedDelta(m.doubleValue(), mechanismDelta.doubleValue()));
        }
        return new ExactTarget(epsilon, mechanismDelta, m.multiply(epsilon), d);
    }

    /** The target of a setting, every double taken exactly as the binary number it is (the API's double inputs). */
    public static ExactTarget of(DarrmSetting s) {
        return binary(s.epsilon(), s.mechanismDelta(), s.m(), s.delta());
    }

    /** The target with eps, Delta, m and delta the exact values of these doubles (m eps their exact product). */
    public static ExactTarget binary(double epsilon, double mechanismDelta, double m, double delta) {
        return new ExactTarget(new BigDecimal(epsilon), new BigDecimal(mechanismDelta), new BigDecimal(m).multiply(new BigDecimal(epsilon)),
                new BigDecimal(delta));
    }

    /** Whether m = m eps / eps is an integer: then e^{m eps} is the m-th power of e^eps. */
    public boolean integerM() {
        return mEpsilon.remainder(epsilon).signum() == 0;
    }

    /** m as an integer, when {@link #integerM()}. */
    public int integralM() {
        return mEpsilon.divide(epsilon).intValueExact();
    }

    private static boolean isInteger(BigDecimal x) {
        return x.signum() == 0 || x.stripTrailingZeros().scale() <= 0;
    }
}
