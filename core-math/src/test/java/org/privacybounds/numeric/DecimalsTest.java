package org.privacybounds.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

/** Decimals are kept as typed, and refused outside the range where they mean anything. */
class DecimalsTest {
    @Test
    void keepsTheDigitsAsTyped() {
        assertEquals(new BigDecimal("0.998"), Decimals.parse(" 0.998 "));
        assertEquals(0, Decimals.parse("0.998").compareTo(new BigDecimal(998).movePointLeft(3)));
        assertEquals(new BigDecimal("1E-5"), Decimals.parse("1e-5"));
        assertEquals(new BigDecimal("-3"), Decimals.parse("-3"));
        assertEquals(new BigDecimal("1E+1000"), Decimals.parse("1e1000"));
        assertEquals(1000, Decimals.parse("1" + "0".repeat(999)).precision());
    }

    @Test
    void refusesWhatIsNotANumberOrOutOfRange() {
        for (String bad : new String[] {"", "  ", "abc", "1..2", "0x10", "1e1001", "1e-1001", "1" + "0".repeat(1000), "1e999999999"}) {
            assertThrows(NumberFormatException.class, () -> Decimals.parse(bad), bad.length() > 20 ? bad.substring(0, 20) + "..." : bad);
        }
        assertThrows(NumberFormatException.class, () -> Decimals.parse(null));
    }
}
