package org.privacybounds.smoothed.sdp;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NoFeasibleSolutionException;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * A set Pi of distributions over m categories: the data distributions of smoothed DP (Liu, Wang and Xia, "Smoothed Differential Privacy",
 * Definition 3). Only the vertices of its convex hull matter (Proposition 7).
 *
 * <p>Example:
 * <pre>{@code
 * DistributionSet pi = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}),
 *         List.of("1920", "2020"), "Pi");
 * int vertices = pi.size();   // 2
 * }</pre>
 */
public final class DistributionSet implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Largest allowed |sum - 1| of a distribution. */
    public static final double SUM_TOLERANCE = 1e-12;
    /** Tolerance of the LP vertex test (m >= 3). */
    public static final double LP_TOLERANCE = 1e-12;

    private final List<double[]> points;
    private final List<String> labels;
    private final int m;

    private DistributionSet(List<double[]> points, List<String> labels) {
        this.points = points;
        this.labels = labels;
        this.m = points.get(0).length;
    }

    /**
     * Validates and builds a set: at least one distribution, all over the same m >= 2 categories,
     * every probability in [0, 1], each summing to 1 within {@link #SUM_TOLERANCE}.
     */
    public static DistributionSet of(List<double[]> points, List<String> labels, String parameter) {
        if (points.isEmpty()) {
            throw new BadInputException(parameter, "(empty)", "the set of distributions Pi needs at least one distribution");
        }
        int m = points.get(0).length;
        for (int i = 0; i < points.size(); i++) {
            double[] p = points.get(i);
            String name = labels.get(i);
            if (p.length != m || m < 2) {
                throw new BadInputException(parameter, name, "every distribution needs the same number m >= 2 of categories (first has " + m + ")");
            }
            double s = 0;
            for (double v : p) {
                if (!(v >= 0 && v <= 1)) {
                    throw new BadInputException(parameter, name + " = " + Arrays.toString(p), "probabilities must be in [0, 1]");
                }
                s += v;
            }
            if (Math.abs(s - 1) > SUM_TOLERANCE) {
                throw new BadInputException(parameter, name + " = " + Arrays.toString(p),
                        "probabilities must sum to 1 within " + SUM_TOLERANCE + " (sum = " + s + ")");
            }
        }
        return new DistributionSet(List.copyOf(points), List.copyOf(labels));
    }

    public int categories() {
        return m;
    }

    public int size() {
        return points.size();
    }

    public double[] get(int i) {
        return points.get(i).clone();
    }

    public String label(int i) {
        return labels.get(i);
    }

    /**
     * The vertices of the convex hull (Proposition 7), as indices into this set, without
     * duplicates. m = 2: the smallest and the largest probability of category 1, exactly. m = 3: the plane hull
     * ({@link PolytopeBounds#hullVertices}). m >= 4:
     * a point is a vertex iff it is not a convex combination of the other (distinct) points, a
     * linear feasibility problem per point (Commons Math simplex, tolerance {@link #LP_TOLERANCE}).
     */
    public List<Integer> vertexIndices() {
        List<Integer> distinct = new ArrayList<>();
        outer:
        for (int i = 0; i < points.size(); i++) {
            for (int j : distinct) {
                if (Arrays.equals(points.get(i), points.get(j))) {
                    continue outer;
                }
            }
            distinct.add(i);
        }
        if (distinct.size() <= 2 || m == 2) {
            if (m == 2 && distinct.size() > 2) {
                int lo = distinct.get(0);
                int hi = distinct.get(0);
                for (int i : distinct) {
                    if (points.get(i)[0] < points.get(lo)[0]) {
                        lo = i;
                    }
                    if (points.get(i)[0] > points.get(hi)[0]) {
                        hi = i;
                    }
                }
                List<Integer> v = new ArrayList<>(List.of(lo, hi));
                Collections.sort(v);
                return v;
            }
            return distinct;
        }
        if (m == 3) {
            // the exact hull in the plane: O(N log N) instead of one linear program per point
            List<double[]> pts = new ArrayList<>();
            for (int i : distinct) {
                pts.add(points.get(i));
            }
            List<Integer> v = new ArrayList<>();
            for (int k : PolytopeBounds.hullVertices(pts)) {
                v.add(distinct.get(k));
            }
            Collections.sort(v);
            return v;
        }
        List<Integer> vertices = new ArrayList<>();
        for (int i : distinct) {
            List<double[]> others = new ArrayList<>();
            for (int j : distinct) {
                if (j != i) {
                    others.add(points.get(j));
                }
            }
            if (!isConvexCombination(points.get(i), others)) {
                vertices.add(i);
            }
        }
        return vertices;
    }

    /** The set of hull vertices. */
    public DistributionSet vertices() {
        List<double[]> p = new ArrayList<>();
        List<String> l = new ArrayList<>();
        for (int i : vertexIndices()) {
            p.add(points.get(i));
            l.add(labels.get(i));
        }
        return new DistributionSet(p, l);
    }

    /**
     * The paper's code's symmetric hull for two categories: p and 1 - p are treated as the same
     * distribution, and the lower vertex is pinned at 1/2: vertices {(1/2, 1/2), (q, 1 - q)} with
     * q = max over Pi of max(p, 1 - p). Off by default; outputs say when it was used.
     */
    public DistributionSet symmetricFold() {
        if (m != 2) {
            throw new BadInputException(Parameter.SYMMETRIC_FOLD, "m = " + m, "the symmetric fold is defined for two categories only");
        }
        int best = 0;
        double q = 0;
        for (int i = 0; i < points.size(); i++) {
            double f = Math.max(points.get(i)[0], points.get(i)[1]);
            if (f > q) {
                q = f;
                best = i;
            }
        }
        List<double[]> p = new ArrayList<>();
        List<String> l = new ArrayList<>();
        p.add(new double[] {0.5, 0.5});
        l.add("pinned 1/2");
        if (q > 0.5) {
            p.add(new double[] {q, 1 - q});
            l.add(labels.get(best) + " (folded)");
        }
        return new DistributionSet(p, l);
    }

    /** The linear-program test of a point against others, for tests comparing it with {@link PolytopeBounds#hullVertices}. */
    static boolean isConvexCombinationForTests(double[] p, List<double[]> others) {
        return isConvexCombination(p, others);
    }

    private static boolean isConvexCombination(double[] p, List<double[]> others) {
        int k = others.size();
        int m = p.length;
        // variables lambda_1..lambda_k >= 0, sum lambda = 1, sum lambda_j q_j = p (m - 1 free rows)
        List<LinearConstraint> cons = new ArrayList<>();
        double[] ones = new double[k];
        Arrays.fill(ones, 1);
        cons.add(new LinearConstraint(ones, Relationship.EQ, 1));
        for (int c = 0; c < m - 1; c++) {
            double[] row = new double[k];
            for (int j = 0; j < k; j++) {
                row[j] = others.get(j)[c];
            }
            cons.add(new LinearConstraint(row, Relationship.GEQ, p[c] - LP_TOLERANCE));
            cons.add(new LinearConstraint(row, Relationship.LEQ, p[c] + LP_TOLERANCE));
        }
        try {
            PointValuePair r = new SimplexSolver(1e-9, 10, 1e-15).optimize(new MaxIter(10_000),
                    new LinearObjectiveFunction(new double[k], 0), new LinearConstraintSet(cons),
                    GoalType.MINIMIZE, new NonNegativeConstraint(true));
            return r != null;
        } catch (NoFeasibleSolutionException e) {
            return false;
        }
    }
}
