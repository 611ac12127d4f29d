package org.privacybounds.smoothed.sdp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * Smaller sets of distributions that bound delta_SDP from both sides when the convex hull of Pi has too many vertices.
 * delta_SDP is monotone in Pi (a maximum over more distributions), so
 * <ul>
 *   <li>{@link #enclosingSimplex}: a superset of the hull with m vertices gives an upper bound. Every p of the hull has
 *   {@code p_c >= lo_c = min over Pi of p_c}, so {@code p = lo + (1 - sum lo) q} with q in the probability simplex: the hull
 *   lies in the simplex with vertices {@code lo + (1 - sum lo) e_c};</li>
 *   <li>{@link #inner}: some of the hull's own vertices (points of Pi that maximise a linear function) give a lower bound.</li>
 * </ul>
 * For three categories {@link #hullVertices} finds the exact hull in the plane of the first two coordinates (Andrew's
 * monotone chain, O(N log N)), so that thousands of points need no linear program each.
 */
public final class PolytopeBounds {
    private PolytopeBounds() {
    }

    /** The m-vertex simplex {@code {p : p_c >= lo_c}} that contains every point of the set. */
    public static DistributionSet enclosingSimplex(DistributionSet points) {
        int m = points.categories();
        double[] lo = new double[m];
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        for (int i = 0; i < points.size(); i++) {
            double[] p = points.get(i);
            for (int c = 0; c < m; c++) {
                lo[c] = Math.min(lo[c], p[c]);
            }
        }
        double free = 1;
        for (double v : lo) {
            free -= v;
        }
        // rounding: the vertices must still enclose, so the free mass is never below what the points need
        free = Math.max(0, free);
        List<double[]> v = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int c = 0; c < m; c++) {
            double[] p = lo.clone();
            p[c] += free;
            v.add(p);
            labels.add("enclosing " + (c + 1));
        }
        return DistributionSet.of(v, labels, "enclosing simplex").vertices();
    }

    /**
     * At most {@code k} vertices of the hull: the points that maximise and minimise each coordinate, then those that maximise
     * seeded random directions of the plane {@code sum p = 1}, in that order, distinct.
     */
    public static DistributionSet inner(DistributionSet points, int k, long seed) {
        if (k < 1) {
            throw new BadInputException(Parameter.MAX_VERTICES, k, "must be >= 1");
        }
        int m = points.categories();
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int c = 0; c < m && chosen.size() < k; c++) {
            double[] d = new double[m];
            d[c] = 1;
            chosen.add(argmax(points, d));
            if (chosen.size() < k) {
                d[c] = -1;
                chosen.add(argmax(points, d));
            }
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int tries = 0; chosen.size() < k && tries < 50 * k; tries++) {
            double[] d = new double[m];
            double mean = 0;
            for (int c = 0; c < m; c++) {
                d[c] = r.nextGaussian();
                mean += d[c] / m;
            }
            for (int c = 0; c < m; c++) {
                d[c] -= mean;
            }
            chosen.add(argmax(points, d));
        }
        List<double[]> v = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (int i : chosen) {
            v.add(points.get(i));
            labels.add(points.label(i));
        }
        return DistributionSet.of(v, labels, "inner polytope").vertices();
    }

    private static int argmax(DistributionSet points, double[] d) {
        int best = 0;
        double bv = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < points.size(); i++) {
            double s = 0;
            double[] p = points.get(i);
            for (int c = 0; c < d.length; c++) {
                s += d[c] * p[c];
            }
            if (s > bv) {
                bv = s;
                best = i;
            }
        }
        return best;
    }

    /**
     * The vertices of the convex hull of distributions over three categories, as indices, by Andrew's monotone chain on the
     * first two coordinates (the plane sum = 1 projects one to one). Collinear and repeated points are not vertices.
     */
    public static List<Integer> hullVertices(List<double[]> points) {
        Integer[] order = new Integer[points.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Double.compare(points.get(a)[0], points.get(b)[0]);
            return c != 0 ? c : Double.compare(points.get(a)[1], points.get(b)[1]);
        });
        List<Integer> distinct = new ArrayList<>();
        for (int i : order) {
            if (distinct.isEmpty() || !Arrays.equals(points.get(distinct.get(distinct.size() - 1)), points.get(i))) {
                distinct.add(i);
            }
        }
        if (distinct.size() <= 2) {
            return distinct;
        }
        int[] hull = new int[2 * distinct.size()];
        int k = 0;
        for (int i : distinct) {
            while (k >= 2 && cross(points.get(hull[k - 2]), points.get(hull[k - 1]), points.get(i)) <= 0) {
                k--;
            }
            hull[k++] = i;
        }
        for (int j = distinct.size() - 2, lower = k + 1; j >= 0; j--) {
            int i = distinct.get(j);
            while (k >= lower && cross(points.get(hull[k - 2]), points.get(hull[k - 1]), points.get(i)) <= 0) {
                k--;
            }
            hull[k++] = i;
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < k - 1; i++) {
            out.add(hull[i]);
        }
        out.sort(Integer::compare);
        return out;
    }

    private static double cross(double[] o, double[] a, double[] b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    }
}
