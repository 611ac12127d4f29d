package org.privacybounds.numeric;

import java.math.BigDecimal;

/**
 * Exact decimals from text, within the range where they mean anything here: {@code 1e999999999} parses as a BigDecimal whose
 * arithmetic would take gigabytes, so an exponent beyond +-1000 or more than 1000 digits is refused like any malformed number.
 */
public final class Decimals {
    /** The largest |exponent| and number of digits accepted. */
    public static final int LIMIT = 1000;

    private Decimals() {
    }

    /**
     * The decimal written in {@code text} (surrounding blanks ignored).
     *
     * @throws NumberFormatException when it is not a number, or its exponent or length exceeds {@link #LIMIT}
     */
    public static BigDecimal parse(String text) {
        if (text == null) {
            throw new NumberFormatException("no number");
        }
        String t = text.trim();
        if (t.isEmpty() || t.length() > 2 * LIMIT) {
            throw new NumberFormatException("not a number: " + t);
        }
        BigDecimal d = new BigDecimal(t);
        long exponent = (long) d.precision() - d.scale() - 1;
        if (d.precision() > LIMIT || Math.abs(exponent) > LIMIT || Math.abs((long) d.scale()) > 2L * LIMIT) {
            throw new NumberFormatException("out of range: " + t);
        }
        return d;
    }
}
