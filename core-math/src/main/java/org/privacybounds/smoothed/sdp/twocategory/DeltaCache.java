package org.privacybounds.smoothed.sdp.twocategory;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * ln delta(h) for every eps of a run, keyed by h in [0, n/2] (delta(h) = delta(n - h) for two
 * categories), stored in chunks of primitive arrays allocated on first use (no boxing; memory
 * only where values were computed).
 *
 * <p>Safe for threads that each write their own eps (the eps of a run solved at once, {@link LargeNSmoothed.Options#withParallelEpsilons}):
 * a chunk is published once (its NaN fill included) through an atomic array, and a slot of one eps is written only by
 * the thread of that eps, or before the threads start.
 */
final class DeltaCache {
    private static final int CHUNK = 4096;
    private final int width;
    private final AtomicReferenceArray<double[]> chunks;

    DeltaCache(long n, int epsCount) {
        this.width = epsCount;
        this.chunks = new AtomicReferenceArray<>(Math.toIntExact(n / 2 / CHUNK + 1));
    }

    /** Whether ln delta(h) is known for eps index e. */
    boolean has(long key, int e) {
        double[] c = chunks.get((int) (key / CHUNK));
        return c != null && !Double.isNaN(c[(int) (key % CHUNK) * width + e]);
    }

    /** ln delta for eps index e; NaN if not computed. */
    double get(long key, int e) {
        double[] c = chunks.get((int) (key / CHUNK));
        return c == null ? Double.NaN : c[(int) (key % CHUNK) * width + e];
    }

    /** Stores the values that are not NaN (an eps that was not requested keeps what the cache had). */
    void put(long key, double[] values) {
        int i = (int) (key / CHUNK);
        double[] c = chunks.get(i);
        if (c == null) {
            double[] fresh = new double[CHUNK * width];
            Arrays.fill(fresh, Double.NaN);
            c = chunks.compareAndSet(i, null, fresh) ? fresh : chunks.get(i);
        }
        int base = (int) (key % CHUNK) * width;
        for (int e = 0; e < width; e++) {
            if (!Double.isNaN(values[e])) {
                c[base + e] = values[e];
            }
        }
    }
}
