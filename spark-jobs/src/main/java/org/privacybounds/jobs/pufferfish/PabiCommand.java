package org.privacybounds.jobs.pufferfish;

import java.awt.Color;
import java.io.PrintWriter;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.LocalPool;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SmallCsv;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent.Correlation;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent.Setting;
import org.privacybounds.pufferfish.pabi.NoisyGradientDescent;
import org.privacybounds.pufferfish.pabi.Pabi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pabi}: privacy amplification by iteration of noisy gradient descent on correlated data, for a grid of settings. */
@Command(name = "pabi", header = "Renyi Pufferfish privacy amplification by iteration of noisy gradient descent on correlated data.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Renyi Pufferfish loss eps(T) of noisy projected gradient descent after T steps when the secret is one data point",
                "(X_i = a vs X_i = b, ||a - b|| = --secret-distance) and the other points are correlated with it (Theorem 5.2 and",
                "Proposition 6.4 of the Renyi Pufferfish paper): step t moves the iterate by at most",
                "s_t = eta min(2L, C |rho_t| ||a - b||), rho_t = Cov(X_t, X_i)/Var(X_i), and Gaussian noise N(0, sigma^2) is added.",
                "The shift budgets a_t: per-step (a_t = s_t), average (Proposition F.2; needs non-increasing prefix averages) or",
                "minorant (greatest convex minorant of the prefix sums: always valid, optimal for Gaussian noise).",
                "Every list option spans a grid; the settings are spread over Spark executors. dpEpsilon (independent data) and",
                "groupEpsilon (fully correlated data) are the same bound with rho = 0 and rho = 1.",
                "Figures 5 and 6 of Appendix F.5.4: --figure 5 / --figure 6."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds pabi --steps 1:1:100 --correlation const:0.2 --correlation inv --alpha 2 --sigma 1 --step-size 1",
                "  scripts/privacy-bounds pabi --steps 1:1:13 --correlation file:datasets/examples/cov.csv --strategy minorant,per-step --json",
                "  scripts/privacy-bounds pabi --figure 5 --out out/figure5"})
public final class PabiCommand extends BoundsCommand {
    @Option(names = "--steps", paramLabel = "T|a:step:b", description = "Numbers of iterations T (integers >= 1; lists and ranges).")
    String steps;

    @Option(names = "--correlation", paramLabel = "PROFILE",
            description = "const:RHO (rho_t = RHO for t != i), inv (rho_t = 1/(|t - i| + 1): 1/t when the secret index i is 1), invsq (its square), file:CSV (covariance matrix of X_1..X_n, Proposition 6.4). Repeat for several.")
    List<String> correlations;

    @Option(names = "--alpha", paramLabel = "LIST", defaultValue = "2", description = "Renyi orders > 1 (default: ${DEFAULT-VALUE}).")
    String alpha;

    @Option(names = "--lipschitz", paramLabel = "LIST", defaultValue = "1", description = "L: the loss is L-Lipschitz in w (default: ${DEFAULT-VALUE}).")
    String lipschitz;

    @Option(names = "--sigma", paramLabel = "LIST", defaultValue = "1", description = "Standard deviation of the Gaussian noise added to the iterate (default: ${DEFAULT-VALUE}).")
    String sigma;

    @Option(names = "--step-size", paramLabel = "LIST", defaultValue = "1", description = "eta, at most 2/beta for a beta-smooth loss (default: ${DEFAULT-VALUE}).")
    String stepSize;

    @Option(names = "--data-lipschitz", paramLabel = "LIST", defaultValue = "1",
            description = "C = sup_v C_v: ||grad f(w, x1) - grad f(w, x2)|| <= C ||x1 - x2|| (default: ${DEFAULT-VALUE}).")
    String dataLipschitz;

    @Option(names = "--secret-distance", paramLabel = "LIST", defaultValue = "1", description = "||a - b|| of the two secret values (default: ${DEFAULT-VALUE}).")
    String secretDistance;

    @Option(names = "--strategy", paramLabel = "LIST", defaultValue = "average", description = "per-step, average, minorant (default: ${DEFAULT-VALUE}).")
    String strategy;

    @Option(names = "--secret-index", paramLabel = "I", defaultValue = "1", description = "The step whose data point is the secret, 1-based (default: ${DEFAULT-VALUE}).")
    int secretIndex;

    @Option(names = "--figure", paramLabel = "5|6", description = "Appendix F.5.4: Figure 5 (rho = 0, 0.1, 0.2, 0.8, 1) or 6 (rho = 0, 0.1, inv, invsq with i = 1: 1/t, 1/t^2), T = 1..100, all constants 1, alpha 2.")
    Integer figure;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions for the settings (default: 2 x the default parallelism).")
    int partitions;

    /** One point of the grid. */
    record Point(int index, String correlationLabel, Correlation correlation, Setting setting, Pabi.Strategy strategy) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private List<Long> ts;
    private long maxT;
    private List<Pabi.Strategy> strategies;
    private final List<String> corrTexts = new ArrayList<>();
    private final List<Correlation> parsed = new ArrayList<>();
    private final List<Setting> settings = new ArrayList<>();

    @Override
    protected void check() {
        if (figure != null) {
            figureSetting();
        }
        if (steps == null) {
            throw new UserInputException("--steps", "(none)", "give the numbers of iterations, e.g. 100 or 1:1:100 (or --figure 5|6)");
        }
        if (correlations == null || correlations.isEmpty()) {
            throw new UserInputException("--correlation", "(none)", "give at least one of const:RHO, inv, invsq, file:CSV");
        }
        ts = Ranges.longs("--steps", steps);
        for (long t : ts) {
            if (t < 1 || t > 10_000_000) {
                throw new UserInputException("--steps", t, "every T must be in 1..10000000");
            }
            maxT = Math.max(maxT, t);
        }
        if (partitions < 0) {
            throw new UserInputException("--partitions", partitions, "must be >= 0");
        }
        strategies = Arrays.stream(strategy.split(",")).map(PabiCommand::parseStrategy).toList();
        for (String c : correlations) {
            corrTexts.addAll(c.startsWith("file:") ? List.of(c) : Arrays.asList(c.split(",")));
        }
        List<List<Double>> grid = List.of(Ranges.doubles("--alpha", alpha), Ranges.doubles("--lipschitz", lipschitz), Ranges.doubles("--sigma", sigma),
                Ranges.doubles("--step-size", stepSize), Ranges.doubles("--data-lipschitz", dataLipschitz), Ranges.doubles("--secret-distance", secretDistance));
        // the grid's size before it is built: a product of lists can be astronomically large
        long gridSize = corrTexts.size() * (long) strategies.size();
        for (List<Double> values : grid) {
            gridSize = values.isEmpty() ? 0 : gridSize > Long.MAX_VALUE / values.size() ? Long.MAX_VALUE : gridSize * values.size();
        }
        double rowCount = (double) gridSize * ts.size();
        if (rowCount > 20_000_000L) {
            throw new UserInputException("--steps and the grid options", ts.size() + " values of T x " + gridSize + " settings",
                    "at most 20,000,000 rows per run; split the grid");
        }
        // every setting computes its budget curve for T = 1..max T (about 1e-7 core-seconds per step); rows are kept on the driver
        WorkLimit.check(spec, common, "--steps and the grid options", gridSize * (double) maxT * 1e-7 + 1, rowCount * 200 + gridSize * 64.0);
        // validate everything that needs no file before starting Spark
        settings.addAll(grid(grid));
        for (String c : corrTexts) {
            Correlation corr = c.startsWith("file:") ? readCovariance(c) : parseCorrelation(c);
            corr.check((int) maxT, secretIndex);
            parsed.add(corr);
        }
    }

    /** Every setting of the grid (alpha, L, sigma, eta, c, d), alpha varying slowest, each checked as it is built. */
    private static List<Setting> grid(List<List<Double>> grid) {
        List<Setting> settings = new ArrayList<>();
        for (double a : grid.get(0)) {
            for (double l : grid.get(1)) {
                for (double sg : grid.get(2)) {
                    for (double e : grid.get(3)) {
                        for (double c : grid.get(4)) {
                            for (double d : grid.get(5)) {
                                settings.add(new Setting(l, c, sg, e, a, d));
                            }
                        }
                    }
                }
            }
        }
        return settings;
    }

    /** --figure 5|6: the figure's own steps and correlations; an option the figure fixes is refused. */
    private void figureSetting() {
        if (figure != 5 && figure != 6) {
            throw new UserInputException("--figure", figure, "allowed: 5 or 6");
        }
        for (String fixed : List.of("--steps", "--correlation", "--alpha", "--lipschitz", "--sigma", "--step-size", "--data-lipschitz", "--secret-distance",
                "--secret-index")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(fixed)) {
                throw new UserInputException("--figure", figure, "fixes " + fixed + " (the figure's own setting); drop " + fixed
                        + " or drop --figure and give the grid yourself");
            }
        }
        steps = steps == null ? "1:1:100" : steps;
        if (correlations == null) {
            correlations = figure == 5 ? List.of("const:0", "const:0.1", "const:0.2", "const:0.8", "const:1") : List.of("const:0", "const:0.1", "inv", "invsq");
        }
    }

    @Override
    protected Report compute(OutputDir out) {
        // driver-sized on a local master: a pool of its cores instead of Spark
        Integer threads = SparkSessions.localThreads(common);
        SparkSession spark = threads == null ? SparkSessions.get(common, "pabi") : null;
        List<Point> points = new ArrayList<>();
        for (int k = 0; k < corrTexts.size(); k++) {
            for (Setting s : settings) {
                for (Pabi.Strategy st : strategies) {
                    points.add(new Point(points.size(), corrTexts.get(k), parsed.get(k), s, st));
                }
            }
        }
        JavaSparkContext jsc = spark == null ? null : JavaSparkContext.fromSparkContext(spark.sparkContext());
        int parts = Math.max(1, Math.min(points.size(), partitions > 0 ? partitions : 2 * (jsc == null ? threads : jsc.defaultParallelism())));
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "pabi: %d settings x %d values of T (max %d) on %s%n", points.size(), ts.size(), maxT,
                jsc == null ? threads + " driver threads" : parts + " partitions");
        err.flush();
        long start = System.nanoTime();
        int maxSteps = (int) maxT;
        int secret = secretIndex;
        long[] wanted = ts.stream().mapToLong(Long::longValue).toArray();
        List<Curves> curves = LocalPool.distribute(jsc, jsc == null ? threads : parts, points, parts, p -> evaluate(p, maxSteps, secret, wanted));
        err.printf(Locale.ROOT, "pabi: done in %.1f s%n", (System.nanoTime() - start) / 1e9);
        err.flush();
        List<Result> table = new ArrayList<>();
        for (int k = 0; k < points.size(); k++) {
            Curves c = curves.get(k);
            for (int j = 0; j < wanted.length; j++) {
                table.add(new Result(points.get(k), wanted[j], c.epsilon()[j], c.dp()[j], c.group()[j], c.referencesFellBack()));
            }
        }
        return Report.of(json(points.size(), table)).text(o -> COLUMNS.printText(o, table, 200, out != null
                ? "every row is in rows.csv (and rows.parquet) of " + common.outText : "rerun with --out DIR for every row in DIR/rows.csv, or with --json"))
                .dataset("rows", COLUMNS, spark, table).write(dir -> plot(dir.resolve(figure != null ? "figure" + figure + ".png" : "pabi.png"), points, curves, wanted));
    }

    private ObjectNode json(int settingCount, List<Result> table) {
        ObjectNode root = resultObject();
        ObjectNode par = root.putObject("parameters");
        par.put("steps", steps);
        par.set("correlation", Json.MAPPER.valueToTree(corrTexts));
        par.put("alpha", alpha);
        par.put("lipschitz", lipschitz);
        par.put("sigma", sigma);
        par.put("stepSize", stepSize);
        par.put("dataLipschitz", dataLipschitz);
        par.put("secretDistance", secretDistance);
        par.put("strategy", strategy);
        par.put("secretIndex", secretIndex);
        if (figure != null) {
            par.put("figure", figure);
        }
        root.put("settings", settingCount);
        root.put("method", "closed form: Theorem 5.2 with Gaussian R_alpha(z) = alpha z^2 / (2 sigma^2), exact in double precision");
        root.put("units", "epsilon in nats (Renyi divergence of order alpha); T in iterations");
        ArrayNode rows = root.putArray("rows");
        table.forEach(x -> rows.add(x.json()));
        return root;
    }

    /** One setting at one T: the bound, its DP (rho = 0) and group-DP (rho = 1) references, and whether they fell back to the minorant. */
    record Result(Point point, long T, double epsilon, double dpEpsilon, double groupEpsilon, boolean referenceFallback) {
        /** The JSON row of the contract. */
        ObjectNode json() {
            ObjectNode r = Json.object();
            r.put("T", T);
            Json.put(r, "epsilon", epsilon);
            r.put("strategy", point.strategy().label());
            Json.put(r, "dpEpsilon", dpEpsilon);
            Json.put(r, "groupEpsilon", groupEpsilon);
            r.put("correlation", point.correlationLabel());
            Setting s = point.setting();
            r.put("alpha", s.alpha());
            r.put("sigma", s.sigma());
            r.put("stepSize", s.stepSize());
            r.put("lipschitz", s.lipschitz());
            r.put("dataLipschitz", s.dataLipschitz());
            r.put("secretDistance", s.secretDistance());
            if (referenceFallback) {
                r.put("referenceStrategy", "minorant (the average budget is not valid for the reference profiles)");
            }
            return r;
        }
    }

    /** The columns of rows.csv, rows.parquet and the text table (the JSON rows keep their own camel-case names). */
    static final Columns<Result> COLUMNS = Columns.<Result>of().int32("setting", r -> r.point().index()).shown("set", "%-5d")
            .string("correlation", r -> r.point().correlationLabel()).shown("correlation", "%-16s")
            .string("strategy", r -> r.point().strategy().label()).shown("strategy", "%-9s")
            .number("alpha", r -> r.point().setting().alpha()).shown("alpha", "%-6.3g").number("sigma", r -> r.point().setting().sigma()).shown("sigma", "%-6.3g")
            .number("step_size", r -> r.point().setting().stepSize()).shown("eta", "%-6.3g").number("lipschitz", r -> r.point().setting().lipschitz())
            .number("data_lipschitz", r -> r.point().setting().dataLipschitz()).number("secret_distance", r -> r.point().setting().secretDistance())
            .integer("T", Result::T).shown("T", "%-8d").number("epsilon", Result::epsilon).shown("epsilon", "%-14.6g")
            .number("dp_epsilon", Result::dpEpsilon).shown("DP", "%-14.6g").number("group_epsilon", Result::groupEpsilon).shown("group DP", "%.6g");

    /**
     * One setting's bounds at the wanted horizons: its own, the DP reference (rho = 0) and the group-DP reference (rho = 1),
     * and whether the references fell back to the minorant strategy.
     */
    record Curves(double[] epsilon, double[] dp, double[] group, boolean referencesFellBack) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    static Curves evaluate(Point p, int maxSteps, int secretIndex, long[] wanted) {
        double[] curve = p.setting().curve(p.correlation().rho(maxSteps, secretIndex), p.strategy());
        // the references (rho = 0: DP, rho = 1: group DP) use the requested strategy where it is valid for their shifts, else
        // the minorant (an explicit rule: Pabi.validStrategy)
        double[] rhoDp = new NoisyGradientDescent.Constant(0).rho(maxSteps, secretIndex);
        double[] rhoGroup = new NoisyGradientDescent.Constant(1).rho(maxSteps, secretIndex);
        Pabi.Strategy dpStrategy = Pabi.validStrategy(p.setting().shifts(rhoDp), p.strategy());
        Pabi.Strategy groupStrategy = Pabi.validStrategy(p.setting().shifts(rhoGroup), p.strategy());
        boolean fallback = dpStrategy != p.strategy() || groupStrategy != p.strategy();
        if (fallback) {
            dpStrategy = Pabi.Strategy.MINORANT; // both references with the same strategy, as before
            groupStrategy = Pabi.Strategy.MINORANT;
        }
        double[] dp = p.setting().curve(rhoDp, dpStrategy);
        double[] group = p.setting().curve(rhoGroup, groupStrategy);
        double[] own = new double[wanted.length];
        double[] dpAt = new double[wanted.length];
        double[] groupAt = new double[wanted.length];
        for (int j = 0; j < wanted.length; j++) {
            int t = (int) wanted[j] - 1;
            own[j] = curve[t];
            dpAt[j] = dp[t];
            groupAt[j] = group[t];
        }
        return new Curves(own, dpAt, groupAt, fallback);
    }

    /** A covariance matrix from a CSV file (a non-numeric first row is a header). */
    private static Correlation readCovariance(String text) {
        List<String[]> rows = SmallCsv.read("--correlation", Path.of(text.substring(5)), false).rows();
        List<double[]> m = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            double[] v = new double[r.length];
            try {
                for (int j = 0; j < r.length; j++) {
                    v[j] = Double.parseDouble(r[j] == null ? "" : r[j].trim());
                }
            } catch (NumberFormatException e) {
                if (i == 0) {
                    continue;
                }
                throw new UserInputException("--correlation", text + " row " + (i + 1), "every entry of the covariance must be a number");
            }
            m.add(v);
        }
        if (m.isEmpty()) {
            throw new UserInputException("--correlation", text, "the covariance file has no numeric rows");
        }
        return new NoisyGradientDescent.Matrix(text, m.toArray(new double[0][]));
    }

    /** The constants of the settings for a title: each one's value where all settings share it, else "varies". */
    static String settings(List<Point> points) {
        List<String> parts = new ArrayList<>();
        String[] names = {"alpha", "sigma", "eta", "L", "C", "||a - b||"};
        List<ToDoubleFunction<Setting>> values = List.of(Setting::alpha, Setting::sigma, Setting::stepSize,
                Setting::lipschitz, Setting::dataLipschitz, Setting::secretDistance);
        for (int k = 0; k < names.length; k++) {
            ToDoubleFunction<Setting> f = values.get(k);
            double first = f.applyAsDouble(points.get(0).setting());
            boolean same = points.stream().allMatch(p -> f.applyAsDouble(p.setting()) == first);
            parts.add(names[k] + (same ? " = " + Plots.num(first) : " varies"));
        }
        return String.join(", ", parts);
    }

    /**
     * Renyi eps against T, one line per setting (at most 12, coloured along the correlation order), with the DP (rho = 0)
     * and group-DP (rho = 1) references dashed. Legends name the correlation as rho, not as the option's text.
     */
    Plots.Figure plot(Path png, List<Point> points, List<Curves> curves, long[] wanted) {
        if (wanted.length < 2) {
            return null;
        }
        double[] x = new double[wanted.length];
        for (int j = 0; j < x.length; j++) {
            x[j] = wanted[j];
        }
        List<Plots.Series> series = new ArrayList<>();
        int shown = Math.min(points.size(), 12);
        for (int k = 0; k < shown; k++) {
            Point p = points.get(k);
            String name = rhoLegend(p.correlation(), secretIndex)
                    + (points.size() > corrCount(points) ? ", " + p.strategy().label() + ", sigma = " + p.setting().sigma() : "");
            series.add(new Plots.Series(name, x, log10(curves.get(k).epsilon()), false, Plots.sequential(k, shown)));
        }
        series.add(new Plots.Series("DP (rho = 0)", x, log10(curves.get(0).dp()), true, Color.GRAY));
        series.add(new Plots.Series("group DP (rho = 1)", x, log10(curves.get(0).group()), true, Color.BLACK));
        String title = figure != null ? "Figure " + figure + ": privacy loss vs iterations (alpha = 2, L = sigma = eta = C = ||a - b|| = 1)"
                : "PABI bound of noisy gradient descent (" + settings(points) + ", secret index " + secretIndex + ")"
                        + (points.size() > shown ? ", first " + shown + " of " + points.size() + " settings" : "");
        return Plots.figure(title).x("iterations T", Plots.Scale.LINEAR).y("Renyi epsilon (nats, log scale)", Plots.Scale.LOG10).addAll(series)
                .save(png);
    }

    /** The legend of a correlation profile: rho = 0.1, rho_t = 1/t, rho_t = 1/t^2, or the covariance file's name. */
    static String rhoLegend(NoisyGradientDescent.Correlation c, int secretIndex) {
        String shift = secretIndex == 1 ? "t" : "(|t - " + secretIndex + "| + 1)";
        if (c instanceof NoisyGradientDescent.Constant k) {
            return "rho = " + BigDecimal.valueOf(k.value()).stripTrailingZeros().toPlainString();
        } else if (c instanceof NoisyGradientDescent.Inverse) {
            return "rho_t = 1/" + shift;
        } else if (c instanceof NoisyGradientDescent.InverseSquare) {
            return "rho_t = 1/" + shift + "^2";
        }
        return "rho from " + c.label();
    }

    private static double[] log10(double[] v) {
        double[] r = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = Math.log10(v[i]);
        }
        return r;
    }

    private static long corrCount(List<Point> points) {
        return points.stream().map(Point::correlationLabel).distinct().count();
    }

    /** per-step, average or minorant. */
    static Pabi.Strategy parseStrategy(String text) {
        for (Pabi.Strategy st : Pabi.Strategy.values()) {
            if (st.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return st;
            }
        }
        throw new UserInputException("--strategy", text, "allowed: per-step, average, minorant");
    }

    /** {@code const:RHO}, {@code inv}, {@code invsq} (files are read by {@link #readCovariance}). */
    static Correlation parseCorrelation(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("inv")) {
            return new NoisyGradientDescent.Inverse();
        }
        if (t.equals("invsq")) {
            return new NoisyGradientDescent.InverseSquare();
        }
        if (t.startsWith("const:")) {
            double r;
            try {
                r = Double.parseDouble(t.substring(6));
            } catch (NumberFormatException e) {
                throw new UserInputException("--correlation", text, "const:RHO needs a number RHO in [-1, 1]");
            }
            if (!(r >= -1 && r <= 1)) {
                throw new UserInputException("--correlation", "const:" + r, "rho must be in [-1, 1]");
            }
            return new NoisyGradientDescent.Constant(r);
        }
        throw new UserInputException("--correlation", text, "allowed: const:RHO, inv, invsq, file:CSV");
    }
}
