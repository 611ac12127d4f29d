package org.privacybounds.smoothed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Remark8BoundTest {
    @Test
    void referenceValueAndDomain() {
        // the Smoothed DP paper, Remark 8: n = 100, eta = 1/2, eps = 2, f = 0.3, m = 2 -> 0.11703 (the bound evaluated independently)
        assertEquals(0.11703, Math.exp(Remark8Bound.logBound(0.5, 2, 0.3, 2, 100).getAsDouble()), 5e-5);
        // eps must exceed ln(1/(1 - eta)) = ln 2
        assertTrue(Remark8Bound.logBound(0.5, 0.69, 0.3, 2, 100).isEmpty());
        // in log space it does not underflow
        assertTrue(Remark8Bound.logBound(0.5, 2, 0.3, 2, 100_000_000).getAsDouble() < -1e6);
    }
}
