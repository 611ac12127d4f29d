package org.privacybounds.validation;

/** Argument checks that throw {@link BadInputException} with the parameter name in the message. */
public final class Require {
    private Require() {
    }

    public static long nonNegative(Parameter name, long value) {
        if (value < 0) {
            throw new BadInputException(name, value, "must be >= 0");
        }
        return value;
    }

    public static long positive(Parameter name, long value) {
        if (value <= 0) {
            throw new BadInputException(name, value, "must be >= 1");
        }
        return value;
    }

    public static double finiteNonNegative(Parameter name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new BadInputException(name, value, "must be a finite number >= 0");
        }
        return value;
    }

    public static double openUnitInterval(Parameter name, double value) {
        if (!(value > 0 && value < 1)) {
            throw new BadInputException(name, value, "must be in the open interval (0, 1)");
        }
        return value;
    }

    public static int toInt(Parameter name, long value) {
        if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
            throw new BadInputException(name, value, "must be at most " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    public static double positiveFinite(Parameter name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new BadInputException(name, value, "must be a finite number > 0");
        }
        return value;
    }

    /** A Renyi order: alpha > 1, or +infinity (pure Pufferfish/DP). */
    public static double renyiOrder(Parameter name, double value) {
        if (!(value > 1)) {
            throw new BadInputException(name, value, "must be > 1 (a Renyi order; inf for pure privacy)");
        }
        return value;
    }
}
