package org.privacybounds.jobs.quantized;

import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.jobs.common.CommonOptions;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.DatabaseSampler;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quantized-sgd}: smoothed DP of one SGD step on b-bit quantized gradients (Smoothed DP paper
 * Figure 2 right, Figure 5): outer Monte Carlo over databases drawn from assignments of the vertex
 * distributions, distributed over executors, with the exact, certified delta(x) of every database.
 */
@Command(name = "quantized-sgd", header = "Smoothed DP of one SGD step on b-bit quantized gradients (Monte Carlo over databases, exact inner delta).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Smoothed delta of one SGD step that averages T = round(sqrt n) b-bit quantized gradients (no added noise):",
                "for each n, databases are drawn from each assignment of the vertex distributions (n_1 records from the first, ...),",
                "trials spread over the executors with one seed per trial split from --seed (same digits for any partitioning);",
                "each database's delta_eps(x) is exact over every neighbour (or the paper's two) and certified. Per eps: mean over",
                "databases, standard error and a 99 %% interval (the distribution-free empirical Bernstein, and an approximate Student t);",
                "the smoothed bound is the largest upper limit over the assignments (--ci picks which interval). --steps k adds",
                "Proposition 5's composition (k eps, k delta). Progress per n with ETA; with --out a rerun resumes finished n.",
                "Writes CSV, JSON, Parquet and a PNG like Figure 2 (right)."},
        footer = {"", "Presets: fig2-right = gauss:0:0.12,gauss:0.2:0.12; fig5-1 = sigma 0.15; fig5-2 = sigma 0.1;",
                "         fig5-3 = gauss:0:0.12,laplace:0:0.12; fig5-4 = laplace:0:0.12,laplace:0.2:0.12 (laplace:MU:SIGMA = std SIGMA).",
                "", "Examples:",
                "  privacy-bounds quantized-sgd --preset fig2-right --n 100:100:1000 --epsilon 1 --trials 200 --out out/fig2-right",
                "  privacy-bounds quantized-sgd --distributions gauss:0:0.12,laplace:0:0.12 --n 400 --epsilon 0.5,1,2 \\",
                "      --assignments grid:4 --steps 100 --json"})
public final class QuantizedSgdCommand implements Callable<Integer> {
    static final List<String> ROW_HEADER = List.of("n", "T", "assignment", "epsilon", "trials", "mean", "log10Mean", "stdError", "ciLow", "ciHigh",
            "ciMethod", "studentLow", "studentHigh", "bernsteinLow", "bernsteinHigh", "maxDelta", "heuristicMean", "heuristicTightFraction",
            "maxRelativeError");
    static final List<String> SUMMARY_HEADER = List.of("n", "T", "epsilon", "smoothedDelta", "log10SmoothedDelta", "argmaxAssignment",
            "meanAtArgmax", "ciLowAtArgmax", "ciMethod", "dpDelta", "inverseN", "steps", "composedEpsilon", "composedDelta");

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = "--n", required = true, paramLabel = "LIST", description = "Numbers of records: n1,n2,... or a:step:b.")
    String nList;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "One or more eps >= 0: e1,e2,... or a:step:b.")
    String epsilon;

    @Option(names = "--distributions", paramLabel = "LIST",
            description = "Vertex distributions: gauss:MU:SIGMA, laplace:MU:SIGMA (SIGMA the standard deviation), laplace-scale:MU:B, comma-separated.")
    String distributions;

    @Option(names = "--preset", paramLabel = "NAME", description = "A setting of the paper instead of --distributions: fig2-right, fig5-1, fig5-2, fig5-3, fig5-4.")
    String preset;

    @Mixin
    QuantizedOptions mechanism;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "200", description = "Databases drawn per n and assignment (default: ${DEFAULT-VALUE}).")
    int trials;

    @Option(names = "--assignments", paramLabel = "SET", defaultValue = "endpoints",
            description = "endpoints (all records from one distribution, each in turn; the paper), grid:K (n_1 = round(i n / K), i = 0..K, two distributions), or all (n_1 = 0..n) (default: ${DEFAULT-VALUE}).")
    String assignments;

    @Option(names = "--steps", paramLabel = "K", defaultValue = "1", description = "SGD steps for the composition (Proposition 5) (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--confidence", paramLabel = "C", defaultValue = "0.99", description = "Two-sided confidence of the intervals (default: ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--ci", paramLabel = "METHOD", defaultValue = "empirical-bernstein",
            description = "The interval whose upper limit is the reported bound: empirical-bernstein (guaranteed coverage for any law on [0, T/n]) or student-t-approximate (the paper's bands; may undercover on skewed data; 'student-t' is accepted) (default: ${DEFAULT-VALUE}).")
    String ci;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions per n (default: 4 x the default parallelism).")
    int partitions;

    @Override
    public Integer call() throws IOException {
        List<Long> ns = Ranges.longs("--n", nList);
        for (long v : ns) {
            if (v < 1 || v > 100_000) {
                throw new UserInputException("--n", v, "every n must be in [1, 100000]");
            }
        }
        double[] eps = Ranges.epsilons("--epsilon", epsilon);
        mechanism.check();
        QuantizedDistribution[] pi = QuantizedOptions.distributions(distributions, preset, mechanism.bits);
        if (trials < 2) {
            throw new UserInputException("--trials", trials, "must be >= 2 (a confidence interval needs two values)");
        }
        if (steps < 1) {
            throw new UserInputException("--steps", steps, "must be >= 1");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new UserInputException("--confidence", confidence, "must be in (0, 1)");
        }
        if ("student-t".equals(ci)) {
            ci = MonteCarloMean.STUDENT;
        }
        if (!MonteCarloMean.STUDENT.equals(ci) && !MonteCarloMean.BERNSTEIN.equals(ci)) {
            throw new UserInputException("--ci", ci, "must be empirical-bernstein or student-t-approximate");
        }
        if (partitions < 0) {
            throw new UserInputException("--partitions", partitions, "must be >= 0");
        }
        CodeGrid grid = mechanism.grid();
        OutputRounding rounding = mechanism.rounding();
        SamplingAverageMechanism.Neighbors neighborSet = mechanism.neighborSet();
        double coreSeconds = 0;
        double memory = 0;
        for (long v : ns) {
            int t = mechanism.sampleSize(v);
            SamplingAverageMechanism.checkSizes(grid, t, v); // size limits, before any work
            int a = assignments((int) v, pi.length).size(); // syntax and feasibility
            // one database costs about 2e-5 n^1.5 core-seconds with every neighbour, 15 times less with the heuristic two
            coreSeconds += (double) a * trials * 2e-5 * Math.pow(v, 1.5) / (neighborSet == SamplingAverageMechanism.Neighbors.ALL ? 1 : 15);
            memory = Math.max(memory, (double) a * trials * (8.0 * (3 * eps.length + 1) + 48));
        }
        WorkLimit.check(spec, common, "--n, --trials and --assignments", coreSeconds, memory);
        try (OutputDir out = OutputDir.begin(spec, common)) {
            SparkSession spark = SparkSessions.get(common, "quantized-sgd");
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int parts = partitions > 0 ? partitions : 4 * jsc.defaultParallelism();
            OutputDir.mark(out, "sparkStart");
            ObjectNode params = Json.object();
            params.put("n", nList);
            params.set("epsilon", Json.MAPPER.valueToTree(eps));
            ArrayNode dl = params.putArray("distributions");
            for (QuantizedDistribution d : pi) {
                dl.add(d.label());
            }
            if (preset != null) {
                params.put("preset", preset);
            }
            mechanism.echo(params);
            params.put("trials", trials);
            params.put("seed", common.seed);
            params.put("assignments", assignments);
            params.put("steps", steps);
            params.put("confidence", confidence);
            params.put("ci", ci);
            Path work = out == null ? null : out.workDir(params, spec.commandLine().getErr(), "quantized-sgd");
            PrintWriter err = spec.commandLine().getErr();
            List<ObjectNode> summaries = new ArrayList<>();
            long start = System.nanoTime();
            int resumed = 0;
            // ETA: the cost of one database grows about as n^1.5 (bench/results/quantized-scaling.csv)
            double[] weight = new double[ns.size()];
            double remaining = 0;
            for (int i = 0; i < ns.size(); i++) {
                weight[i] = Math.pow(ns.get(i), 1.5) * assignments((int) (long) ns.get(i), pi.length).size();
                remaining += weight[i];
            }
            double doneWeight = 0;
            for (int i = 0; i < ns.size(); i++) {
                int n = (int) (long) ns.get(i);
                ArrayNode forN = OutputDir.finishedStage(work, "n=" + n, spec.commandLine().getErr());
                boolean computedNow = forN == null;
                if (!computedNow) {
                    resumed++;
                } else {
                    long t0 = System.nanoTime();
                    forN = runN(jsc, n, pi, grid, rounding, neighborSet, eps, parts);
                    double secs = (System.nanoTime() - t0) / 1e9;
                    forN.forEach(r -> ((ObjectNode) r).put("seconds", secs));
                    OutputDir.keepStage(work, "n=" + n, forN);
                }
                forN.forEach(r -> summaries.add((ObjectNode) r));
                double elapsed = (System.nanoTime() - start) / 1e9;
                remaining -= weight[i];
                if (computedNow) {
                    doneWeight += weight[i];
                }
                double eta = doneWeight == 0 ? 0 : elapsed / doneWeight * remaining;
                err.printf(Locale.ROOT, "quantized-sgd: %d/%d n = %d done (%d resumed), %d databases, elapsed %.0f s, ETA %.0f s%n",
                        i + 1, ns.size(), n, resumed, trials * assignments(n, pi.length).size(), elapsed, eta);
                err.flush();
            }
            ObjectNode root = Json.object();
            root.put("command", "quantized-sgd");
            root.set("parameters", params);
            ArrayNode arr = root.putArray("rows");
            summaries.forEach(arr::add);
            root.put("method", "outer Monte Carlo over databases (" + trials + " per n and assignment, one seed per trial split from --seed); "
                    + "inner delta_eps(x) exact over " + (neighborSet == SamplingAverageMechanism.Neighbors.ALL ? "every neighbour" : "the two heuristic neighbours")
                    + ", certified (maxRelativeError); smoothedDelta = largest " + ci + " upper limit at confidence " + confidence + " over the assignments");
            root.put("units", "delta is a probability; epsilon in nats; codes are integers c = ceil(g * 2^bits); assignment counts records per distribution, in the order of parameters.distributions");
            PrintWriter o = spec.commandLine().getOut();
            if (common.json) {
                o.println(Json.write(root));
            } else {
                o.printf("quantized-sgd: %s, %d bits, output %s, neighbours %s, %d trials per assignment, %s %.0f %% interval%n",
                        String.join(" + ", Arrays.stream(pi).map(QuantizedDistribution::label).toList()), grid.bits(), rounding.label(),
                        neighborSet.name().toLowerCase(Locale.ROOT), trials, ci, 100 * confidence);
                o.printf("%-8s %-5s %-8s %-14s %-12s %-14s %-14s %-10s%n", "n", "T", "epsilon", "smoothed delta", "log10", "argmax assign.", "mean there", "log10 1/n");
                for (ObjectNode r : summaries) {
                    o.printf(Locale.ROOT, "%-8d %-5d %-8.4g %-14.4e %-12.4f %-14s %-14.4e %.3f%n", r.get("n").asInt(), r.get("T").asInt(),
                            r.get("epsilon").asDouble(), r.get("smoothedDelta").asDouble(), num(r.get("log10SmoothedDelta")),
                            r.get("argmaxAssignment").asText(), r.get("meanAtArgmax").asDouble(), Math.log10(r.get("inverseN").asDouble()));
                }
            }
            o.flush();
            if (out != null) {
                OutputDir.mark(out, "compute");
                out.writeString("result.json", Json.pretty(root) + "\n");
                List<List<Object>> sum = new ArrayList<>();
                List<List<Object>> rows = new ArrayList<>();
                for (ObjectNode r : summaries) {
                    sum.add(summaryRow(r));
                    for (JsonNode a : r.get("assignments")) {
                        rows.add(detailRow(r, a));
                    }
                }
                out.writeString("summary.csv", Csv.table(SUMMARY_HEADER, sum));
                out.writeString("rows.csv", Csv.table(ROW_HEADER, rows));
                out.writeParquet(spark, "rows.parquet", ROW_SCHEMA, rows);
                plot(out.resolve("quantized-sgd.png"), summaries, eps, root.get("parameters"));
                out.commit();
                OutputDir.deleteTree(work);
            }
            return 0;
        }
    }

    /** One n: all assignments x trials over the executors, summarised in trial order. */
    private ArrayNode runN(JavaSparkContext jsc, int n, QuantizedDistribution[] pi, CodeGrid grid, OutputRounding rounding,
            SamplingAverageMechanism.Neighbors neighborSet, double[] eps, int parts) {
        int t = mechanism.sampleSize(n);
        List<int[]> assign = assignments(n, pi.length);
        int total = assign.size() * trials;
        int slices = Math.max(1, Math.min(parts, total));
        List<int[]> ranges = new ArrayList<>();
        for (int s = 0; s < slices; s++) {
            int lo = (int) ((long) total * s / slices);
            int hi = (int) ((long) total * (s + 1) / slices);
            if (hi > lo) {
                ranges.add(new int[] {lo, hi});
            }
        }
        long seed = common.seed;
        int nTrials = trials;
        // each item: assignment a = item / trials, trial r = item % trials
        List<double[][]> results = jsc.parallelize(ranges, ranges.size()).map(range -> {
            SamplingAverageMechanism m = new SamplingAverageMechanism(grid, t, rounding);
            double[][] res = new double[range[1] - range[0]][];
            for (int item = range[0]; item < range[1]; item++) {
                int a = item / nTrials;
                int r = item % nTrials;
                int[] h = DatabaseSampler.histogram(pi, assign.get(a), DatabaseSampler.trialSeed(seed, settingKey(n, assign.get(a)), r));
                SamplingAverageMechanism.Value[] v = m.profile(h, eps, neighborSet);
                double[] row = new double[3 * eps.length + 1];
                double maxRel = 0;
                for (int e = 0; e < eps.length; e++) {
                    row[e] = v[e].delta();
                    row[eps.length + e] = v[e].heuristicDelta();
                    row[2 * eps.length + e] = v[e].heuristicTight() ? 1 : 0;
                    maxRel = Math.max(maxRel, v[e].relativeError());
                }
                row[3 * eps.length] = maxRel;
                res[item - range[0]] = row;
            }
            return res;
        }).collect(); // collect keeps the order of the ranges, hence of the items
        double[][] all = new double[total][];
        int k = 0;
        for (double[][] part : results) {
            for (double[] row : part) {
                all[k++] = row;
            }
        }
        double range = (double) t / n;
        ArrayNode forN = Json.array();
        for (int e = 0; e < eps.length; e++) {
            ObjectNode s = forN.addObject();
            s.put("n", n);
            s.put("T", t);
            s.put("epsilon", eps[e]);
            ArrayNode per = Json.array();
            double bestHigh = -1;
            ObjectNode best = null;
            for (int a = 0; a < assign.size(); a++) {
                double[] vals = new double[trials];
                double heurSum = 0;
                double tight = 0;
                double maxRel = 0;
                for (int r = 0; r < trials; r++) {
                    double[] row = all[a * trials + r];
                    vals[r] = row[e];
                    heurSum += row[eps.length + e];
                    tight += row[2 * eps.length + e];
                    maxRel = Math.max(maxRel, row[3 * eps.length]);
                }
                MonteCarloMean mc = MonteCarloMean.of(vals, range, confidence);
                double[] iv = mc.interval(ci);
                ObjectNode d = per.addObject();
                d.put("assignment", label(assign.get(a)));
                d.put("trials", trials);
                d.put("mean", mc.mean());
                Json.put(d, "log10Mean", Math.log10(mc.mean()));
                d.put("stdError", mc.stdError());
                d.put("ciLow", iv[0]);
                d.put("ciHigh", iv[1]);
                d.put("ciMethod", ci);
                d.put("studentLow", mc.studentLow());
                d.put("studentHigh", mc.studentHigh());
                d.put("bernsteinLow", mc.bernsteinLow());
                d.put("bernsteinHigh", mc.bernsteinHigh());
                d.put("maxDelta", mc.max());
                d.put("heuristicMean", heurSum / trials);
                d.put("heuristicTightFraction", tight / trials);
                d.put("maxRelativeError", maxRel);
                if (iv[1] > bestHigh) {
                    bestHigh = iv[1];
                    best = d;
                }
            }
            s.put("smoothedDelta", bestHigh);
            Json.put(s, "log10SmoothedDelta", Math.log10(bestHigh));
            s.put("argmaxAssignment", best.get("assignment").asText());
            s.put("meanAtArgmax", best.get("mean").asDouble());
            s.put("ciLowAtArgmax", best.get("ciLow").asDouble());
            s.put("ciMethod", ci);
            s.put("dpDelta", range);
            s.put("inverseN", 1.0 / n);
            s.put("steps", steps);
            // the smoothed bound composes over the steps like DP (Proposition 5): basic composition of the upper confidence end
            Guarantee composed = Composition.basic(Guarantee.of(eps[e], Math.min(1, bestHigh), "one step, upper end of the confidence interval", 0), steps);
            s.put("composedEpsilon", composed.epsilon());
            s.put("composedDelta", composed.delta());
            s.set("assignments", per);
        }
        return forN;
    }

    /** The assignments of n records to the distributions, as --assignments says. */
    List<int[]> assignments(int n, int vertices) {
        String a = assignments.trim().toLowerCase(Locale.ROOT);
        List<int[]> out = new ArrayList<>();
        if (a.equals("endpoints")) {
            for (int v = 0; v < vertices; v++) {
                int[] c = new int[vertices];
                c[v] = n;
                out.add(c);
            }
            return out;
        }
        if (vertices != 2 && (a.equals("all") || a.startsWith("grid:"))) {
            throw new UserInputException("--assignments", assignments, "grid:K and all need exactly two distributions (" + vertices + " given); use endpoints");
        }
        if (a.equals("all")) {
            if (n > 10_000) {
                throw new UserInputException("--assignments", assignments, "all is limited to n <= 10000; use grid:K");
            }
            for (int n1 = n; n1 >= 0; n1--) {
                out.add(new int[] {n1, n - n1});
            }
            return out;
        }
        if (a.startsWith("grid:")) {
            int kk;
            try {
                kk = Integer.parseInt(a.substring(5));
            } catch (NumberFormatException e) {
                throw new UserInputException("--assignments", assignments, "write grid:K with an integer K >= 1");
            }
            if (kk < 1 || kk > 10_000) {
                throw new UserInputException("--assignments", assignments, "K must be in 1..10000");
            }
            java.util.TreeSet<Integer> n1s = new java.util.TreeSet<>(java.util.Comparator.reverseOrder());
            for (int i = 0; i <= kk; i++) {
                n1s.add((int) Math.round((double) n * (kk - i) / kk));
            }
            for (int n1 : n1s) {
                out.add(new int[] {n1, n - n1});
            }
            return out;
        }
        throw new UserInputException("--assignments", assignments, "must be endpoints, grid:K or all");
    }

    static long settingKey(int n, int[] assignment) {
        long key = n;
        for (int c : assignment) {
            key = key * 1_000_003L + c;
        }
        return key;
    }

    static String label(int[] assignment) {
        return String.join("+", Arrays.stream(assignment).mapToObj(Integer::toString).toList());
    }

    static final StructType ROW_SCHEMA = new StructType().add("n", DataTypes.LongType).add("T", DataTypes.LongType)
            .add("assignment", DataTypes.StringType).add("epsilon", DataTypes.DoubleType).add("trials", DataTypes.LongType)
            .add("mean", DataTypes.DoubleType).add("log10Mean", DataTypes.DoubleType).add("stdError", DataTypes.DoubleType)
            .add("ciLow", DataTypes.DoubleType).add("ciHigh", DataTypes.DoubleType).add("ciMethod", DataTypes.StringType)
            .add("studentLow", DataTypes.DoubleType).add("studentHigh", DataTypes.DoubleType).add("bernsteinLow", DataTypes.DoubleType)
            .add("bernsteinHigh", DataTypes.DoubleType).add("maxDelta", DataTypes.DoubleType).add("heuristicMean", DataTypes.DoubleType)
            .add("heuristicTightFraction", DataTypes.DoubleType).add("maxRelativeError", DataTypes.DoubleType);

    private static List<Object> detailRow(JsonNode s, JsonNode a) {
        return Arrays.asList(s.get("n").asLong(), s.get("T").asLong(), a.get("assignment").asText(), s.get("epsilon").asDouble(),
                a.get("trials").asLong(), a.get("mean").asDouble(), num(a.get("log10Mean")), a.get("stdError").asDouble(),
                a.get("ciLow").asDouble(), a.get("ciHigh").asDouble(), a.get("ciMethod").asText(), a.get("studentLow").asDouble(),
                a.get("studentHigh").asDouble(), a.get("bernsteinLow").asDouble(), a.get("bernsteinHigh").asDouble(), a.get("maxDelta").asDouble(),
                a.get("heuristicMean").asDouble(), a.get("heuristicTightFraction").asDouble(), a.get("maxRelativeError").asDouble());
    }

    private static List<Object> summaryRow(JsonNode s) {
        return Arrays.asList(s.get("n").asLong(), s.get("T").asLong(), s.get("epsilon").asDouble(), s.get("smoothedDelta").asDouble(),
                num(s.get("log10SmoothedDelta")), s.get("argmaxAssignment").asText(), s.get("meanAtArgmax").asDouble(),
                s.get("ciLowAtArgmax").asDouble(), s.get("ciMethod").asText(), s.get("dpDelta").asDouble(), s.get("inverseN").asDouble(),
                s.get("steps").asLong(), s.get("composedEpsilon").asDouble(), s.get("composedDelta").asDouble());
    }

    private static Double num(JsonNode v) {
        return v == null || v.isNull() ? null : v.asDouble();
    }

    /** log10 delta against n: mean at the worst assignment (solid), its interval (dashed), 1/n and T/n (grey/pink dashed). */
    private static void plot(Path png, List<ObjectNode> rows, double[] eps, JsonNode params) {
        List<Plots.Series> series = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            List<double[]> pts = new ArrayList<>();
            for (ObjectNode r : rows) {
                if (r.get("epsilon").asDouble() == eps[e]) {
                    pts.add(new double[] {r.get("n").asDouble(), Math.log10(r.get("meanAtArgmax").asDouble()),
                            Math.log10(r.get("ciLowAtArgmax").asDouble()), Math.log10(r.get("smoothedDelta").asDouble())});
                }
            }
            double[] x = pts.stream().mapToDouble(p -> p[0]).toArray();
            java.awt.Color col = eps.length > 1 ? Plots.sequential(e, eps.length) : Plots.color(0);
            series.add(new Plots.Series("mean delta(x), eps = " + eps[e], x, pts.stream().mapToDouble(p -> p[1]).toArray(), false, col));
            series.add(new Plots.Series("lower limit, eps = " + eps[e], x, pts.stream().mapToDouble(p -> p[2]).toArray(), true, col));
            series.add(new Plots.Series("upper limit (smoothed bound), eps = " + eps[e], x, pts.stream().mapToDouble(p -> p[3]).toArray(), true, col));
        }
        List<double[]> ref = new ArrayList<>();
        for (ObjectNode r : rows) {
            if (r.get("epsilon").asDouble() == eps[0]) {
                ref.add(new double[] {r.get("n").asDouble(), Math.log10(r.get("inverseN").asDouble()), Math.log10(r.get("dpDelta").asDouble())});
            }
        }
        double[] x = ref.stream().mapToDouble(p -> p[0]).toArray();
        series.add(new Plots.Series("1/n", x, ref.stream().mapToDouble(p -> p[1]).toArray(), true, new java.awt.Color(0x555555)));
        series.add(new Plots.Series("DP delta bound T/n", x, ref.stream().mapToDouble(p -> p[2]).toArray(), true, new java.awt.Color(0xe377c2)));
        Plots.figure("Smoothed DP of one SGD step, " + params.get("bits").asInt() + "-bit gradients (" + params.get("distributions").toString()
                .replace("\"", "") + "), " + params.get("confidence").asDouble() * 100 + " % " + params.get("ci").asText())
                .x("n (records)", Plots.Scale.LINEAR).logXIfWide().y("delta (log scale)", Plots.Scale.LOG10).addAll(series).save(png);
    }
}
