package org.privacybounds.rdp;

import java.util.ArrayList;
import java.util.List;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The privacy of DP-SGD (Poisson sampling at rate q, Gaussian noise multiplier sigma, S steps) by RDP: the RDP of one
 * step ({@link SubsampledGaussianRdp}) times S (RDP composes additively), converted to (eps, delta) at the best order.
 * Add/remove-one neighbours.
 *
 * <pre>{@code
 * DpSgdAccountant.Result r = DpSgdAccountant.account(0.01, 1.1, 1000, 1e-5, DpSgdAccountant.defaultOrders());
 * System.out.println(r.epsilon() + " at order " + r.order());
 * }</pre>
 */
public final class DpSgdAccountant {
    private DpSgdAccountant() {
    }

    /**
     * One order of the RDP curve: the composed RDP after all steps, the eps it converts to at that order by each conversion,
     * and how the RDP was obtained.
     */
    public record Point(double order, double rdp, double epsilon, double classicEpsilon, String method) {
    }

    /**
     * The result.
     *
     * @param epsilon        the smallest eps over the orders with {@link RdpConversion#IMPROVED}
     * @param order          the order that attains it
     * @param classicEpsilon the smallest eps with {@link RdpConversion#CLASSIC} (what most DP-SGD libraries before 2021
     *                       report), for comparison
     * @param classicOrder   its order
     * @param curve          the composed RDP at every order
     */
    public record Result(double q, double sigma, long steps, double delta, double epsilon, double order, double classicEpsilon, double classicOrder,
            List<Point> curve) {
        /** How eps was obtained, in one line. */
        public String method() {
            if (steps == 0) {
                return "no steps: nothing is released, eps = 0";
            }
            return "RDP of the Poisson-subsampled Gaussian (exact at integer orders, a proven upper bound between them), composed over " + steps
                    + " steps, converted by " + RdpConversion.IMPROVED.description() + " at the best of " + curve.size() + " orders";
        }
    }

    /** Integer orders 2..256, then 320, 384, 512, 768, 1024, and fractional orders 1.1..1.9 and 2.5..10.5. */
    public static double[] defaultOrders() {
        List<Double> o = new ArrayList<>();
        for (double a = 1.1; a < 1.95; a += 0.1) {
            o.add(Math.rint(a * 10) / 10);
        }
        for (int a = 2; a <= 256; a++) {
            o.add((double) a);
            if (a <= 10) {
                o.add(a + 0.5);
            }
        }
        for (int a : new int[] {320, 384, 512, 768, 1024}) {
            o.add((double) a);
        }
        return o.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /** eps after {@code steps} steps at rate q and noise multiplier sigma, for the given delta, over the given orders (> 1). */
    public static Result account(double q, double sigma, long steps, double delta, double[] orders) {
        if (steps < 0) {
            throw new BadInputException(Parameter.STEPS, steps, "must be >= 0");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new BadInputException(Parameter.DELTA, delta, "must be in (0, 1)");
        }
        if (orders.length == 0) {
            throw new BadInputException(Parameter.ORDERS, "(none)", "give at least one order > 1");
        }
        List<Point> curve = new ArrayList<>();
        if (steps == 0) {
            // nothing is released: (0, 0)-DP, whatever the conversion
            for (double a : orders) {
                SubsampledGaussianRdp.rdp(q, sigma, a); // the same argument checks
                curve.add(new Point(a, 0, 0, 0, "no steps"));
            }
            return new Result(q, sigma, 0, delta, 0, orders[0], 0, orders[0], List.copyOf(curve));
        }
        double best = Double.POSITIVE_INFINITY;
        double bestOrder = Double.NaN;
        double classic = Double.POSITIVE_INFINITY;
        double classicOrder = Double.NaN;
        for (double a : orders) {
            double rho = steps * SubsampledGaussianRdp.rdp(q, sigma, a);
            double e = RdpConversion.IMPROVED.epsilon(a, rho, delta);
            if (e < best) {
                best = e;
                bestOrder = a;
            }
            double c = RdpConversion.CLASSIC.epsilon(a, rho, delta);
            curve.add(new Point(a, rho, e, c, SubsampledGaussianRdp.method(a)));
            if (c < classic) {
                classic = c;
                classicOrder = a;
            }
        }
        return new Result(q, sigma, steps, delta, best, bestOrder, classic, classicOrder, List.copyOf(curve));
    }
}
