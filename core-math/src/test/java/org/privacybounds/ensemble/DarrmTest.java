package org.privacybounds.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.apache.commons.numbers.fraction.BigFraction;
import org.junit.jupiter.api.Test;
import org.privacybounds.validation.BadInputException;

/** Spec darrm.md section 9 values and property tests. */
class DarrmTest {
    private static final double EPS = 0.1;

    static DarrmOptimizer.Result optimize(int k, double delta0, double m, double delta) {
        ConstraintSet set = ConstraintSet.of(k, EPS, delta0);
        double em = Math.exp(m * EPS);
        return DarrmOptimizer.optimize(set, m, delta, DarrmOptimizer.objective(k, 0.75), (x, th, keep) -> set.scanAll(x, em, th, keep), null);
    }

    @Test
    void gammaOptK11ApproximateDp() {
        double d = 1e-5;
        DarrmOptimizer.Result r3 = optimize(11, d, 3, 1 - Math.pow(1 - d, 3));
        assertArrayEquals(new double[] {0.939241, 0.542340, 1, 1, 0.977696, 1}, Arrays.copyOfRange(r3.gamma(), 6, 12), 1e-5);
        assertEquals(-0.424403, r3.objective(), 1e-6);
        assertEquals(31824, r3.constraints());
        assertTrue(r3.maxCost() <= r3.bound());
        DarrmOptimizer.Result r5 = optimize(11, d, 5, 1 - Math.pow(1 - d, 5));
        assertArrayEquals(new double[] {0.999969, 1, 0.984491, 0.996349, 1, 1}, Arrays.copyOfRange(r5.gamma(), 6, 12), 1e-5);
        assertEquals(-0.463208, r5.objective(), 1e-6);
        DarrmOptimizer.Result r1 = optimize(11, d, 1, d);
        assertArrayEquals(NoiseFunctions.subsampling(11, 1), r1.gamma(), 1e-5, "gamma_opt = gamma_Sub at m = 1");
        assertEquals(-0.25, r1.objective(), 1e-6);
        DarrmOptimizer.Result r7 = optimize(11, d, 7, 1 - Math.pow(1 - d, 7));
        assertEquals(-0.465672, r7.objective(), 1e-6);
    }
}
