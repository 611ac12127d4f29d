package org.privacybounds.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every check returns the value it accepts and names the parameter, the value and the rule when it refuses. */
class RequireTest {
    static void refused(String name, String value, Executable call) {
        BadInputException e = assertThrows(BadInputException.class, call);
        assertEquals(name, e.parameter());
        assertTrue(e.getMessage().startsWith(name + " = " + value + ": "), e.getMessage());
    }

    @Test
    void acceptsAndReturns() {
        assertEquals(0, Require.nonNegative("n", 0));
        assertEquals(1, Require.positive("n", 1));
        assertEquals(0.0, Require.finiteNonNegative("x", 0.0));
        assertEquals(0.5, Require.openUnitInterval("p", 0.5));
        assertEquals(Integer.MAX_VALUE, Require.toInt("n", Integer.MAX_VALUE));
        assertEquals(1e-300, Require.positiveFinite("s", 1e-300));
        assertEquals(Double.POSITIVE_INFINITY, Require.renyiOrder("alpha", Double.POSITIVE_INFINITY));
        assertEquals(1.0000001, Require.renyiOrder("alpha", 1.0000001));
    }

    @Test
    void refusesWithTheParameterName() {
        refused("n", "-1", () -> Require.nonNegative("n", -1));
        refused("n", "0", () -> Require.positive("n", 0));
        refused("x", "NaN", () -> Require.finiteNonNegative("x", Double.NaN));
        refused("x", "Infinity", () -> Require.finiteNonNegative("x", Double.POSITIVE_INFINITY));
        refused("p", "1.0", () -> Require.openUnitInterval("p", 1.0));
        refused("p", "0.0", () -> Require.openUnitInterval("p", 0.0));
        refused("n", "2147483648", () -> Require.toInt("n", Integer.MAX_VALUE + 1L));
        refused("s", "0.0", () -> Require.positiveFinite("s", 0.0));
        refused("alpha", "1.0", () -> Require.renyiOrder("alpha", 1.0));
        refused("alpha", "NaN", () -> Require.renyiOrder("alpha", Double.NaN));
    }
}
