package org.privacybounds.smoothed.sdp.twocategory;

import java.util.stream.IntStream;

/**
 * Sliding dot products g[s] = sum_{i < len} b[i] d[off + i + s] for s in [0, shifts): the end scan's convolution and the
 * rows of an exact expectation. Each g[s] adds its terms in the order of i, the digits of one plain loop per s; eight
 * values of s share one pass over b (eight independent accumulators, about four times faster than one loop per s on this
 * machine), and groups of eight may go to the fork-join pool.
 */
final class SlidingDot {
    private SlidingDot() {
    }

    static double[] of(double[] b, int len, double[] d, int off, int shifts, boolean parallel) {
        double[] g = new double[shifts];
        IntStream groups = IntStream.range(0, (shifts + 7) / 8);
        if (parallel) {
            groups = groups.parallel();
        }
        groups.forEach(q -> {
            int s = q * 8;
            if (s + 7 < shifts) {
                double a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
                for (int i = 0; i < len; i++) {
                    double bi = b[i];
                    int j = off + i + s;
                    a0 += bi * d[j];
                    a1 += bi * d[j + 1];
                    a2 += bi * d[j + 2];
                    a3 += bi * d[j + 3];
                    a4 += bi * d[j + 4];
                    a5 += bi * d[j + 5];
                    a6 += bi * d[j + 6];
                    a7 += bi * d[j + 7];
                }
                g[s] = a0;
                g[s + 1] = a1;
                g[s + 2] = a2;
                g[s + 3] = a3;
                g[s + 4] = a4;
                g[s + 5] = a5;
                g[s + 6] = a6;
                g[s + 7] = a7;
            } else {
                for (int sw = s; sw < shifts; sw++) {
                    double acc = 0;
                    for (int i = 0; i < len; i++) {
                        acc += b[i] * d[off + i + sw];
                    }
                    g[sw] = acc;
                }
            }
        });
        return g;
    }
}
