package org.privacybounds.smoothed.sdp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.exact.ExactMath;
import org.privacybounds.exact.ExactSmoothed;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.validation.BadInputException;

class ReferenceAlgorithm1Test {
    static DistributionSet set(double[]... p) {
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            labels.add("pi" + (i + 1));
        }
        return DistributionSet.of(List.of(p), labels, "--distributions");
    }

    @Test
    void enumerationMatchesExactRationals() {
        // m = 2 with l* = 2, m = 3 with l* = 2 and l* = 3
        Object[][] cases = {
                {new double[][] {{0.3, 0.7}, {0.8, 0.2}}, 7, 4, 0.5},
                {new double[][] {{0.1, 0.9}, {0.55, 0.45}}, 6, 5, 0.0},
                {new double[][] {{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}}, 5, 3, 0.3},
                {new double[][] {{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.1, 0.8, 0.1}}, 4, 3, 1.0},
        };
        for (Object[] c : cases) {
            double[][] v = (double[][]) c[0];
            int n = (Integer) c[1];
            int t = (Integer) c[2];
            double eps = (Double) c[3];
            for (Sampling s : Sampling.values()) {
                SmoothedValue fast = ReferenceAlgorithm1.enumerate(SamplingHistogramMechanism.of(s, t), n, set(v), new double[] {eps}).get(0);
                int[] arg = new int[v.length];
                BigDecimal exact = ExactSmoothed.delta(s, t, n, v, eps, arg);
                assertEquals(0, ExactMath.relativeError(fast.logDelta(), exact), 1e-9, s + " n=" + n + " m=" + v[0].length);
                assertEquals(n, Arrays.stream(fast.argmaxAssignment()).sum());
            }
        }
    }

    @Test
    void remark8BoundExample() {
        // the Smoothed DP paper's Remark 8 setting, n = 100, T = 50, eps = 2, Pi = {Bern(.3), Bern(.7)}: delta_SDP = 1.049e-7,
        // argmax n1 = 0 (tie with n1 = n)
        SmoothedValue v = ReferenceAlgorithm1.enumerate(SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 50), 100,
                set(new double[] {0.3, 0.7}, new double[] {0.7, 0.3}), new double[] {2}).get(0);
        assertEquals(1.049e-7, v.delta(), 0.001e-7);
        assertTrue(v.argmaxAssignment()[0] == 0 || v.argmaxAssignment()[0] == 100);
        assertEquals(101, v.evaluated());
    }

    @Test
    void hullReduction() {
        // m = 2: min and max of p
        DistributionSet s = set(new double[] {0.4, 0.6}, new double[] {0.2, 0.8}, new double[] {0.5, 0.5}, new double[] {0.2, 0.8});
        assertEquals(List.of(1, 2), s.vertexIndices());
        // m = 3: a square's corners plus its centre and an edge midpoint -> the 4 corners
        DistributionSet sq = set(new double[] {0.1, 0.1, 0.8}, new double[] {0.5, 0.1, 0.4}, new double[] {0.1, 0.5, 0.4},
                new double[] {0.5, 0.5, 0.0}, new double[] {0.3, 0.3, 0.4}, new double[] {0.3, 0.1, 0.6});
        assertEquals(List.of(0, 1, 2, 3), sq.vertexIndices());
        // m = 4: the simplex corners and an interior point
        DistributionSet simplex = set(new double[] {1, 0, 0, 0}, new double[] {0, 1, 0, 0}, new double[] {0, 0, 1, 0},
                new double[] {0, 0, 0, 1}, new double[] {0.25, 0.25, 0.25, 0.25});
        assertEquals(List.of(0, 1, 2, 3), simplex.vertexIndices());
        // Proposition 7: the interior point changes nothing
        SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 4);
        double all = ReferenceAlgorithm1.enumerate(mech, 6, set(new double[] {0.2, 0.8}, new double[] {0.5, 0.5}, new double[] {0.35, 0.65}),
                new double[] {0.5}).get(0).logDelta();
        double hull = ReferenceAlgorithm1.enumerate(mech, 6, set(new double[] {0.2, 0.8}, new double[] {0.5, 0.5}), new double[] {0.5}).get(0).logDelta();
        assertEquals(hull, all, 1e-12);
        // the paper's symmetric fold
        DistributionSet f = set(new double[] {0.36, 0.64}, new double[] {0.55, 0.45}).symmetricFold();
        assertArrayEquals(new double[] {0.5, 0.5}, f.get(0));
        assertArrayEquals(new double[] {0.64, 0.36}, f.get(1), 1e-15);
    }

    @Test
    void composition() {
        // smoothed DP composes basically (Proposition 5), through the one composition module
        Guarantee r = Composition.basic(
                new Guarantee(0.5, Math.log(1e-10), "smoothed", 0), 10);
        assertEquals(5.0, r.epsilon(), 1e-15);
        assertEquals(1e-9, r.delta(), 1e-22);
        assertEquals(0.0, Composition.basic(
                new Guarantee(1, Math.log(0.3), "smoothed", 0), 5).logDelta(), 0); // capped at 1
        Guarantee c = Composition.basic(List.of(
                new Guarantee(0.1, Math.log(1e-5), "a", 1e-12), new Guarantee(0.2, Math.log(2e-5), "b", 0)));
        assertEquals(0.3, c.epsilon(), 1e-15);
        assertEquals(3e-5, c.delta(), 1e-18);
        assertEquals(1e-12, c.relativeError(), 0);
        // delta underflowing a double stays exact in log space
        assertEquals(Math.log(10) - 1000, Composition.basic(
                new Guarantee(0.1, -1000, "tiny", 0), 10).logDelta(), 1e-12);
    }

    @Test
    void badSetsAreRejected() {
        assertThrows(BadInputException.class, () -> set(new double[] {0.5, 0.6}));
        assertThrows(BadInputException.class, () -> set(new double[] {-0.1, 1.1}));
        assertThrows(BadInputException.class, () -> DistributionSet.of(List.of(), List.of(), "--distributions"));
        assertThrows(BadInputException.class, () -> set(new double[] {0.5, 0.5}, new double[] {0.2, 0.3, 0.5}));
        BadInputException e = assertThrows(BadInputException.class, () -> ReferenceAlgorithm1.enumerate(
                SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 10), 400, set(new double[] {0.1, 0.2, 0.7}, new double[] {0.3, 0.3, 0.4}),
                new double[] {1}));
        assertTrue(e.getMessage().startsWith("n = 400"), e.getMessage());
    }
}
