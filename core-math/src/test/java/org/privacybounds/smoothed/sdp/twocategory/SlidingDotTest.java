package org.privacybounds.smoothed.sdp.twocategory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sliding dot products equal one plain loop per shift, digit for digit, with and without the pool. */
class SlidingDotTest {
    @ParameterizedTest(name = "len {0}, off {1}, shifts {2}")
    @CsvSource({"1, 0, 1", "7, 3, 5", "64, 10, 8", "100, 0, 17", "333, 41, 100"})
    void equalsThePlainLoop(int len, int off, int shifts) {
        SplittableRandom r = new SplittableRandom(len * 31L + shifts);
        double[] b = r.doubles(len).toArray();
        double[] d = r.doubles(off + len + shifts).map(x -> Math.exp(-50 * x)).toArray(); // values over many magnitudes
        for (boolean parallel : new boolean[] {false, true}) {
            double[] g = SlidingDot.of(b, len, d, off, shifts, parallel);
            assertEquals(shifts, g.length);
            for (int s = 0; s < shifts; s++) {
                double want = 0;
                for (int i = 0; i < len; i++) {
                    want += b[i] * d[off + i + s];
                }
                assertEquals(want, g[s], 0, "shift " + s + (parallel ? " (pool)" : ""));
            }
        }
    }
}
