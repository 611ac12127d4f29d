package org.privacybounds.smoothed.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

/** The plane hull, the enclosing simplex and the inner polytope, and the bounds they give on delta_SDP. */
class PolytopeBoundsTest {
    static DistributionSet random(SplittableRandom r, int points, int m) {
        List<double[]> p = new ArrayList<>();
        List<String> l = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            double[] x = new double[m];
            double s = 0;
            for (int c = 0; c < m; c++) {
                x[c] = 0.05 + r.nextDouble();
                s += x[c];
            }
            for (int c = 0; c < m; c++) {
                x[c] /= s;
            }
            p.add(x);
            l.add("p" + i);
        }
        return DistributionSet.of(p, l, "test");
    }

    @Test
    void planeHullAgreesWithLinearPrograms() {
        SplittableRandom r = new SplittableRandom(3);
        for (int t = 0; t < 20; t++) {
            DistributionSet s = random(r, 5 + r.nextInt(30), 3);
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                pts.add(s.get(i));
            }
            List<Integer> plane = PolytopeBounds.hullVertices(pts);
            // every point not chosen is a convex combination of the chosen: check through the 4-category LP path on padded points
            for (int i = 0; i < s.size(); i++) {
                boolean vertex = plane.contains(i);
                List<double[]> others = new ArrayList<>();
                for (int j = 0; j < s.size(); j++) {
                    if (j != i) {
                        others.add(s.get(j));
                    }
                }
                assertEquals(vertex, !DistributionSet.isConvexCombinationForTests(s.get(i), others), "point " + i);
            }
        }
    }

    @Test
    void boundsBracketTheExactValue() {
        SplittableRandom r = new SplittableRandom(11);
        double[] eps = {0.5, 2};
        for (int t = 0; t < 3; t++) {
            DistributionSet pts = random(r, 12, 3);
            DistributionSet hull = pts.vertices();
            DistributionSet outer = PolytopeBounds.enclosingSimplex(pts);
            DistributionSet inner = PolytopeBounds.inner(hull, 3, 1);
            for (int i = 0; i < pts.size(); i++) {
                for (int c = 0; c < 3; c++) {
                    double lo = Double.POSITIVE_INFINITY;
                    for (int v = 0; v < outer.size(); v++) {
                        lo = Math.min(lo, outer.get(v)[c]);
                    }
                    assertTrue(pts.get(i)[c] >= lo - 1e-15, "the enclosing simplex contains every point");
                }
            }
            assertTrue(inner.size() <= 3);
            SamplingHistogramMechanism mech = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 6);
            var exact = ReferenceAlgorithm1.enumerate(mech, 8, hull, eps);
            var up = ReferenceAlgorithm1.enumerate(mech, 8, outer, eps);
            var low = ReferenceAlgorithm1.enumerate(mech, 8, inner, eps);
            for (int e = 0; e < eps.length; e++) {
                assertTrue(low.get(e).logDelta() <= exact.get(e).logDelta() + 1e-12);
                assertTrue(exact.get(e).logDelta() <= up.get(e).logDelta() + 1e-12);
            }
        }
    }
}
