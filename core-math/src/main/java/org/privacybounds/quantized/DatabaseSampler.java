package org.privacybounds.quantized;

import java.util.SplittableRandom;

/**
 * Databases drawn from an assignment of vertex distributions (n_i records from distribution i),
 * one independent random stream per trial: the seed of trial r is a fixed function of the master
 * seed, the setting and r (SplitMix64 finaliser), so results do not depend on how trials are
 * split across executors.
 */
public final class DatabaseSampler {
    private DatabaseSampler() {
    }

    /** The seed of one trial. */
    public static long trialSeed(long masterSeed, long setting, long trial) {
        long z = mix(masterSeed);
        z = mix(z ^ (setting * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L));
        return mix(z ^ (trial * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL));
    }

    /** The code histogram (over the common grid) of one database drawn with the given seed. */
    public static int[] histogram(QuantizedDistribution[] vertices, int[] assignment, long seed) {
        if (vertices.length != assignment.length) {
            throw new IllegalArgumentException("one count per distribution");
        }
        CodeGrid grid = vertices[0].grid();
        int[] h = new int[grid.size()];
        SplittableRandom rng = new SplittableRandom(seed);
        for (int i = 0; i < vertices.length; i++) {
            for (int r = 0; r < assignment[i]; r++) {
                h[vertices[i].sample(rng) - grid.min()]++;
            }
        }
        return h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
