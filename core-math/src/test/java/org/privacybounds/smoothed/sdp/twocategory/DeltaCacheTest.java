package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** The cache of ln delta(h) per eps: what is put is got back, across chunk borders and from threads writing their own eps. */
class DeltaCacheTest {
    @Test
    void storesPerEpsilonAndKeepsWhatANaNDoesNotReplace() {
        DeltaCache c = new DeltaCache(100_000, 3);
        assertFalse(c.has(17, 0));
        assertTrue(Double.isNaN(c.get(17, 0)));
        c.put(17, new double[] {-1.5, Double.NaN, -7});
        assertTrue(c.has(17, 0));
        assertFalse(c.has(17, 1));
        assertEquals(-7, c.get(17, 2));
        c.put(17, new double[] {Double.NaN, -2.5, Double.NaN});
        assertEquals(-1.5, c.get(17, 0));
        assertEquals(-2.5, c.get(17, 1));
        // neighbours across a chunk border (4,096 keys per chunk) and the last key, n/2
        c.put(4095, new double[] {-1, -1, -1});
        c.put(4096, new double[] {-2, -2, -2});
        c.put(50_000, new double[] {Double.NEGATIVE_INFINITY, -3, -3});
        assertEquals(-1, c.get(4095, 1));
        assertEquals(-2, c.get(4096, 1));
        assertEquals(Double.NEGATIVE_INFINITY, c.get(50_000, 0));
        assertTrue(c.has(50_000, 0), "delta = 0 is a value, not a gap");
        assertFalse(c.has(4097, 0));
    }

    @Test
    void threadsWritingTheirOwnEpsilonLoseNothing() {
        int eps = 4;
        DeltaCache c = new DeltaCache(200_000, eps);
        IntStream.range(0, eps).parallel().forEach(e -> {
            for (int h = 0; h <= 100_000; h += 7) {
                double[] v = {Double.NaN, Double.NaN, Double.NaN, Double.NaN};
                v[e] = -h - e / 10.0;
                c.put(h, v);
            }
        });
        for (int h = 0; h <= 100_000; h += 7) {
            for (int e = 0; e < eps; e++) {
                assertEquals(-h - e / 10.0, c.get(h, e), "h " + h + ", eps " + e);
            }
        }
    }
}
