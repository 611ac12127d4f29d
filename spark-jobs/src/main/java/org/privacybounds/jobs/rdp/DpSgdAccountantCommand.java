package org.privacybounds.jobs.rdp;

import java.io.PrintWriter;
import java.util.Locale;

import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.rdp.RdpConversion;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dp-sgd-accountant}: (eps, delta) of DP-SGD trained elsewhere, by RDP. No Spark. */
@Command(name = "dp-sgd-accountant", header = "(eps, delta) of DP-SGD with Poisson sampling, by Renyi DP (no Spark).", mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"The privacy of DP-SGD trained anywhere: Poisson sampling at rate q, Gaussian noise multiplier sigma (noise",
                "standard deviation / clip norm), S steps, add/remove-one neighbours. The RDP of one step is the exact binomial",
                "expansion of Mironov, Talwar and Zhang (2019) at integer orders and a proven upper bound (the chord of the convex",
                "log-moment) between them; RDP adds up over steps; eps is the best over the orders of the conversion of Canonne,",
                "Kamath and Steinke (2020, Proposition 12). The classic conversion eps = rdp + log(1/delta)/(alpha - 1), which",
                "most DP-SGD libraries reported before 2021, is printed beside it."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds dp-sgd-accountant --sampling-rate 0.004267 --noise-multiplier 1.1 --steps 14063 --delta 1e-5",
                "  scripts/privacy-bounds dp-sgd-accountant --sampling-rate 0.01 --noise-multiplier 12 --epochs 5 --delta 1e-4 --json",
                "  scripts/privacy-bounds dp-sgd-accountant --sampling-rate 0.05 --noise-multiplier 0.8 --steps 200 --delta 1e-6 --orders 2:1:64 --out out/acct"})
public final class DpSgdAccountantCommand extends BoundsCommand {
    @Option(names = "--sampling-rate", required = true, paramLabel = "q", description = "Poisson sampling rate q in (0, 1] (expected batch size / dataset size).")
    double q;

    @Option(names = "--noise-multiplier", required = true, paramLabel = "SIGMA", description = "Noise standard deviation divided by the clip norm, > 0.")
    double sigma;

    /** Either the number of steps or of epochs. */
    static final class Length {
        @Option(names = "--steps", required = true, paramLabel = "S", description = "Number of noisy steps.")
        Long steps;

        @Option(names = "--epochs", required = true, paramLabel = "E", description = "Epochs instead of steps: S = ceil(E / q).")
        Double epochs;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Length length;

    @Option(names = "--delta", required = true, paramLabel = "DELTA", description = "Target delta in (0, 1).")
    double delta;

    @Option(names = "--orders", paramLabel = "LIST",
            description = "RDP orders > 1: a1,a2,... or a:step:b (default: 1.1..1.9, 2..256 with halves up to 10.5, 320, 384, 512, 768, 1024).")
    String orders;

    private long steps;
    private double[] a;

    @Override
    protected void check() {
        if (!(q > 0 && q <= 1)) {
            throw new UserInputException("--sampling-rate", q, "must be in (0, 1]");
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new UserInputException("--noise-multiplier", sigma, "must be a finite number > 0");
        }
        if (!(delta > 0 && delta < 1)) {
            throw new UserInputException("--delta", delta, "must be in (0, 1)");
        }
        if (length.steps != null) {
            if (length.steps < 0) {
                throw new UserInputException("--steps", length.steps, "must be >= 0");
            }
            steps = length.steps;
        } else {
            if (!(length.epochs >= 0) || Double.isInfinite(length.epochs)) {
                throw new UserInputException("--epochs", length.epochs, "must be a finite number >= 0");
            }
            steps = (long) Math.ceil(length.epochs / q - 1e-9);
        }
        a = orders == null ? DpSgdAccountant.defaultOrders() : Ranges.doubles("--orders", orders).stream().mapToDouble(Double::doubleValue).toArray();
        for (double v : a) {
            if (!(v > 1) || v > 100_000) {
                throw new UserInputException("--orders", v, "every order must be in (1, 100000]");
            }
        }
    }

    @Override
    protected Report compute(OutputDir out) {
        DpSgdAccountant.Result r = DpSgdAccountant.account(q, sigma, steps, delta, a);
        return Report.of(json(r)).text(o -> {
            o.printf(Locale.ROOT, "dp-sgd-accountant: q = %s, sigma = %s, %d steps, delta = %s (add/remove-one neighbours)%n", q, sigma, steps, delta);
            o.printf(Locale.ROOT, "eps = %.6f at order %s (%s)%n", r.epsilon(), fmt(r.order()), "Canonne-Kamath-Steinke conversion");
            o.printf(Locale.ROOT, "classic conversion: eps = %.6f at order %s%n", r.classicEpsilon(), fmt(r.classicOrder()));
            o.printf(Locale.ROOT, "RDP at that order after %d steps: %.6g (%s)%n", steps,
                    r.curve().stream().filter(pt -> pt.order() == r.order()).findFirst().get().rdp(), "integer orders exact, fractional orders an upper bound");
        }).csv("rdp.csv", CURVE, r.curve()).write(dir -> plot(dir, r));
    }

    private ObjectNode json(DpSgdAccountant.Result r) {
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("samplingRate", q);
        p.put("noiseMultiplier", sigma);
        p.put("steps", steps);
        if (length.epochs != null) {
            p.put("epochs", length.epochs);
        }
        p.put("delta", delta);
        p.put("orders", orders == null ? "default" : orders);
        p.put("neighbours", "add or remove one record");
        root.put("epsilon", r.epsilon());
        root.put("delta", delta);
        root.put("order", r.order());
        root.put("conversion", RdpConversion.IMPROVED.description());
        root.put("classicEpsilon", r.classicEpsilon());
        root.put("classicOrder", r.classicOrder());
        root.put("method", r.method());
        root.put("guarantee", String.format(Locale.ROOT, "(%.6g, %.3g)-DP", r.epsilon(), delta));
        ArrayNode rdp = root.putArray("rdp");
        for (DpSgdAccountant.Point pt : r.curve()) {
            ObjectNode o = rdp.addObject();
            o.put("order", pt.order());
            o.put("value", pt.rdp());
            o.put("epsilon", pt.epsilon());
            o.put("classicEpsilon", pt.classicEpsilon());
            o.put("method", pt.method());
        }
        root.put("units", "eps and RDP values in nats; order alpha dimensionless");
        return root;
    }

    /** epsilon-by-order.png: log10 eps against log10 alpha, so that the minimum (the reported eps) stays visible next to the orders where eps is huge. */
    private void plot(OutputDir out, DpSgdAccountant.Result r) {
        if (!(r.epsilon() > 0)) {
            return;
        }
        double[] lx = r.curve().stream().mapToDouble(pt -> Math.log10(pt.order())).toArray();
        double[] e1 = r.curve().stream().mapToDouble(pt -> Math.log10(Math.max(pt.epsilon(), Double.MIN_NORMAL))).toArray();
        double[] e2 = r.curve().stream().mapToDouble(pt -> Math.log10(Math.max(pt.classicEpsilon(), Double.MIN_NORMAL))).toArray();
        Plots.figure(String.format(Locale.ROOT, "DP-SGD: q = %s, sigma = %s, %d steps, delta = %s", q, sigma, steps, delta))
                .x("RDP order alpha (log scale)", Plots.Scale.LOG10).y("eps at that order (nats, log scale)", Plots.Scale.LOG10)
                .add(new Plots.Series("Canonne-Kamath-Steinke conversion", lx, e1, false, Plots.color(0)))
                .add(new Plots.Series("classic conversion", lx, e2, true, Plots.color(1)))
                .add(new Plots.Series(String.format(Locale.ROOT, "reported: eps = %.4g at order %s", r.epsilon(), fmt(r.order())),
                        new double[] {Math.log10(r.order())}, new double[] {Math.log10(r.epsilon())}, null, Plots.Style.POINTS, Plots.color(2)))
                .save(out.resolve("epsilon-by-order.png"));
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    /** The columns of rdp.csv (the JSON names the RDP value "value"). */
    static final Columns<DpSgdAccountant.Point> CURVE = Columns.<DpSgdAccountant.Point>of().number("order", DpSgdAccountant.Point::order)
            .number("rdp", DpSgdAccountant.Point::rdp).number("epsilon", DpSgdAccountant.Point::epsilon)
            .number("classicEpsilon", DpSgdAccountant.Point::classicEpsilon).string("method", DpSgdAccountant.Point::method);
}
