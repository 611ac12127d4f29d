package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/**
 * What the parts of the large-n search share: the moments of h for a split of the records, and the delta cache filled by one
 * request per batch, each key min(h, n - h) once, only for the eps asked for, never twice.
 */
class LargeNProblemTest {
    static final long N = 1_000;
    static final long T = 900;

    @Test
    void momentsOfASplit() {
        LargeNProblem p = new LargeNProblem(N, T, 0.7, 0.2, new double[] {1}, (hs, which) -> new double[hs.length][1]);
        assertEquals(300 * 0.7 + 700 * 0.2, p.mean(300, N), 1e-12);
        assertEquals(300 * 0.7 * 0.3 + 700 * 0.2 * 0.8, p.variance(300, N), 1e-12);
        assertEquals(N * 0.7, p.mean(N, N), 1e-12);
    }

    @Test
    void ensureAsksOnceForEachMissingKeyAndMirrorsTheOtherHalf() {
        double[] eps = {0.5, 2};
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, T);
        List<long[]> requests = new ArrayList<>();
        List<boolean[]> asked = new ArrayList<>();
        DeltaSource local = LargeNSmoothed.local(m, N, eps);
        LargeNProblem p = new LargeNProblem(N, T, 0.7, 0.2, eps, (hs, which) -> {
            requests.add(hs.clone());
            asked.add(which.clone());
            return local.logDelta(hs, which);
        });
        // [490, 510] and [495, 520] overlap; their keys min(h, n - h) are 480..500 (h = 510 is key 490, h = 520 is key 480)
        int computed = p.ensure(List.of(new Span(490, 510), new Span(495, 520)), 1);
        assertEquals(21, computed);
        assertEquals(1, requests.size());
        long[] keys = requests.get(0);
        assertEquals(480, keys[0]);
        assertEquals(500, keys[keys.length - 1]);
        for (int i = 1; i < keys.length; i++) {
            assertTrue(keys[i] > keys[i - 1], "increasing, no repeats");
        }
        assertFalse(asked.get(0)[0]);
        assertTrue(asked.get(0)[1]);
        // what was computed is there, for h and its mirror n - h, at the eps asked for only
        double[] direct = LargeNSmoothed.logDeltas(m, N, 485, eps, new boolean[] {true, true});
        assertEquals(direct[1], p.delta(485, 1), 0);
        assertEquals(direct[1], p.delta(N - 485, 1), 0);
        assertTrue(p.has(515, 1));
        assertFalse(p.has(485, 0));
        assertTrue(Double.isNaN(p.delta(485, 0)));
        // asking again computes nothing; asking for every eps computes only the eps still missing
        assertEquals(0, p.ensure(List.of(new Span(490, 500)), 1));
        assertEquals(1, requests.size());
        assertEquals(11, p.ensure(List.of(new Span(490, 500)), -1));
        assertEquals(2, requests.size());
        assertEquals(LargeNSmoothed.logDeltas(m, N, 495, eps, new boolean[] {true, true})[0], p.delta(495, 0), 0);
        assertEquals(21 + 11, p.deltaEvaluations.get());
        // ranges beyond [0, n] are clipped
        assertEquals(0, p.ensure(List.of(new Span(-50, -1), new Span(N + 1, N + 40)), 1));
    }
}
