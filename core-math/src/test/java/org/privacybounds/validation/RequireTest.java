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
        assertEquals(name, e.key().symbol());
        assertEquals("", e.qualifier());
        assertTrue(e.getMessage().startsWith(name + " = " + value + ": "), e.getMessage());
    }

    @Test
    void acceptsAndReturns() {
        assertEquals(0, Require.nonNegative(Parameter.N, 0));
        assertEquals(1, Require.positive(Parameter.N, 1));
        assertEquals(0.0, Require.finiteNonNegative(Parameter.X, 0.0));
        assertEquals(0.5, Require.openUnitInterval(Parameter.P, 0.5));
        assertEquals(Integer.MAX_VALUE, Require.toInt(Parameter.N, Integer.MAX_VALUE));
        assertEquals(1e-300, Require.positiveFinite(Parameter.SCALE, 1e-300));
        assertEquals(Double.POSITIVE_INFINITY, Require.renyiOrder(Parameter.ALPHA, Double.POSITIVE_INFINITY));
        assertEquals(1.0000001, Require.renyiOrder(Parameter.ALPHA, 1.0000001));
    }

    @Test
    void refusesWithTheParameterName() {
        refused("n", "-1", () -> Require.nonNegative(Parameter.N, -1));
        refused("n", "0", () -> Require.positive(Parameter.N, 0));
        refused("x", "NaN", () -> Require.finiteNonNegative(Parameter.X, Double.NaN));
        refused("x", "Infinity", () -> Require.finiteNonNegative(Parameter.X, Double.POSITIVE_INFINITY));
        refused("p", "1.0", () -> Require.openUnitInterval(Parameter.P, 1.0));
        refused("p", "0.0", () -> Require.openUnitInterval(Parameter.P, 0.0));
        refused("n", "2147483648", () -> Require.toInt(Parameter.N, Integer.MAX_VALUE + 1L));
        refused("scale", "0.0", () -> Require.positiveFinite(Parameter.SCALE, 0.0));
        refused("alpha", "1.0", () -> Require.renyiOrder(Parameter.ALPHA, 1.0));
        refused("alpha", "NaN", () -> Require.renyiOrder(Parameter.ALPHA, Double.NaN));
    }

    @Test
    void anElementKeepsItsKeyAndTheCallersNameStaysAsGiven() {
        BadInputException e = new BadInputException(Parameter.COUNTS, "[2]", -1, "must be >= 0");
        assertEquals(Parameter.COUNTS, e.key());
        assertEquals("counts[2] = -1: must be >= 0", e.getMessage());
        BadInputException renamed = e.renamed("--counts");
        assertEquals("--counts[2] = -1: must be >= 0", renamed.getMessage());
        assertEquals(Parameter.COUNTS, renamed.key());
        BadInputException named = new BadInputException("--data", "x.csv", "no such file");
        assertEquals(null, named.key());
        assertEquals("--data = x.csv: no such file", named.getMessage());
    }
}
