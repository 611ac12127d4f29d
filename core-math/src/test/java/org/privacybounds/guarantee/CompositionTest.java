package org.privacybounds.guarantee;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.validation.BadInputException;

/** Basic and general composition against their formulas, and the numbers the DaRRM paper reports. */
class CompositionTest {
    @Test
    void basicAddsEpsilonsAndDeltas() {
        Guarantee one = Guarantee.of(0.5, 1e-6, "one release", 1e-12);
        Guarantee ten = Composition.basic(one, 10);
        assertEquals(5, ten.epsilon(), 1e-15);
        assertEquals(1e-5, ten.delta(), 1e-15 * 1e-5 * 4);
        assertEquals(1e-12, ten.relativeError());
        assertTrue(ten.method().startsWith("basic composition of 10 runs of: one release"), ten.method());
        assertEquals("one release", Composition.basic(one, 1).method());
        // delta is capped at 1; tiny deltas do not underflow in log space
        assertEquals(1, Composition.basic(Guarantee.of(1, 0.3, "x", 0), 4).delta());
        Guarantee tiny = new Guarantee(1, -2000, "tiny", 0);
        assertEquals(-2000 + Math.log(1000), Composition.basic(tiny, 1000).logDelta(), 1e-9);

        Guarantee mixed = Composition.basic(List.of(Guarantee.of(0.1, 1e-5, "a", 1e-9), Guarantee.of(0.2, 2e-5, "b", 1e-11)));
        assertEquals(0.3, mixed.epsilon(), 1e-15);
        assertEquals(3e-5, mixed.delta(), 1e-15 * 3e-5 * 4);
        assertEquals(1e-9, mixed.relativeError());
    }

    @Test
    void generalIsTheMinimumOfItsThreeBranches() {
        double eps = 0.1;
        long k = 100;
        double dPrime = 1e-5;
        Guarantee g = Composition.general(Guarantee.of(eps, 0, "pure", 0), k, dPrime);
        double t = k * eps * (Math.exp(eps) - 1) / (Math.exp(eps) + 1);
        double want = Math.min(k * eps, Math.min(t + eps * Math.sqrt(2 * k * Math.log(Math.E + Math.sqrt(k * eps * eps) / dPrime)),
                t + eps * Math.sqrt(2 * k * Math.log(1 / dPrime))));
        assertEquals(want, g.epsilon(), 1e-12 * want);
        assertEquals(dPrime, g.delta(), 1e-18); // 1 - (1 - 0)^k (1 - delta')
        assertTrue(g.epsilon() < k * eps, "many small releases compose below k eps");
        assertEquals("k eps", Composition.generalBranch(2, 0.1, 1e-5));
        assertEquals(2 * 0.1, Composition.general(Guarantee.of(0.1, 0, "pure", 0), 2, 1e-5).epsilon(), 1e-15);
    }

    @Test
    void theDaRRMPapersTableTwo() {
        // per query (0.2676, 0.0003) by DaRRM, 100 queries, delta' = 1e-4: (15.044, 0.030)
        Guarantee total = Composition.general(Guarantee.of(0.2676, 0.0003, "DaRRM, (m eps, m Delta)", 0), 100, 1e-4);
        assertEquals(15.044, total.epsilon(), 5e-4);
        assertEquals(0.030, total.delta(), 5e-4);
    }

    @Test
    void badInputIsNamed() {
        Guarantee g = Guarantee.of(1, 0, "x", 0);
        assertEquals("k", assertThrows(BadInputException.class, () -> Composition.basic(g, 0)).parameter());
        assertEquals("k", assertThrows(BadInputException.class, () -> Composition.general(g, 0, 0.1)).parameter());
        assertEquals("delta'", assertThrows(BadInputException.class, () -> Composition.general(g, 3, 0)).parameter());
        assertEquals("mechanisms", assertThrows(BadInputException.class, () -> Composition.basic(List.of())).parameter());
    }
}
