package org.privacybounds.jobs.quantized;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.quantized.SmoothedSgd.StepBound;
import org.privacybounds.quantized.SmoothedSgd;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
                "  scripts/privacy-bounds quantized-sgd --preset fig2-right --n 100:100:1000 --epsilon 1 --trials 200 --out out/fig2-right   # about 16 minutes on 2 cores",
                "  scripts/privacy-bounds quantized-sgd --distributions gauss:0:0.12,laplace:0:0.12 --n 400 --epsilon 0.5,1,2 \\",
                "      --assignments grid:4 --steps 100 --json   # about 45 s on 2 cores"})
public final class QuantizedSgdCommand extends BoundsCommand {
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
    MonteCarloMean.Interval ci;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions per n (default: 4 x the default parallelism).")
    int partitions;

    private List<Long> ns;
    private double[] eps;
    private QuantizedDistribution[] pi;
    private QuantizedSgdJob.Request request;

    @Override
    protected void check() {
        ns = Ranges.longs("--n", nList);
        for (long v : ns) {
            if (v < 1 || v > 100_000) {
                throw new UserInputException("--n", v, "every n must be in [1, 100000]");
            }
        }
        eps = Ranges.epsilons("--epsilon", epsilon);
        mechanism.check();
        pi = QuantizedOptions.distributions(distributions, preset, mechanism.bits);
        if (partitions < 0) {
            throw new UserInputException("--partitions", partitions, "must be >= 0");
        }
        request = new QuantizedSgdJob.Request(pi, mechanism.grid(), mechanism.rounding(), mechanism.neighborSet(), eps, trials, assignmentSet(), confidence, ci,
                steps, common.seed);
        double coreSeconds = 0;
        double memory = 0;
        for (long v : ns) {
            int t = mechanism.sampleSize(v);
            SamplingAverageMechanism.checkSizes(request.grid(), t, v); // size limits, before any work
            int a = request.assignments().of((int) v, pi.length).size(); // feasibility
            // one database costs about 2e-5 n^1.5 core-seconds with every neighbour, 15 times less with the heuristic two
            coreSeconds += (double) a * trials * 2e-5 * Math.pow(v, 1.5) / (request.neighbors() == SamplingAverageMechanism.Neighbors.ALL ? 1 : 15);
            memory = Math.max(memory, (double) a * trials * (8.0 * (3 * eps.length + 1) + 48));
        }
        WorkLimit.check(spec, common, "--n, --trials and --assignments", coreSeconds, memory);
    }

    @Override
    protected Report compute(OutputDir out) throws IOException {
        // driver-sized on a local master: a pool of its cores instead of Spark (the same databases and digits)
        Integer threads = SparkSessions.localThreads(common);
        SparkSession spark = threads == null ? SparkSessions.get(common, "quantized-sgd") : null;
        int parts = spark == null ? threads : partitions > 0 ? partitions : 4 * spark.sparkContext().defaultParallelism();
        OutputDir.mark(out, spark == null ? "setup" : "sparkStart");
        ObjectNode params = parameters();
        Path work = out == null ? null : out.workDir(params, spec.commandLine().getErr(), "quantized-sgd");
        List<Timed> bounds = sweep(work, n -> spark == null ? QuantizedSgdJob.runLocal(n, mechanism.sampleSize(n), request, threads)
                : QuantizedSgdJob.run(spark, n, mechanism.sampleSize(n), request, parts));
        List<StepBound> rows = bounds.stream().map(Timed::bound).toList();
        ObjectNode root = resultObject();
        root.set("parameters", params);
        ArrayNode arr = root.putArray("rows");
        for (Timed b : bounds) {
            ObjectNode r = QuantizedSgdJob.SUMMARY.json(b.bound());
            r.set("assignments", QuantizedSgdJob.ESTIMATE.json(b.bound().assignments()));
            r.put("seconds", b.seconds());
            arr.add(r);
        }
        root.put("method", "outer Monte Carlo over databases (" + trials + " per n and assignment, one seed per trial split from --seed); "
                + "inner delta_eps(x) exact over " + (request.neighbors() == SamplingAverageMechanism.Neighbors.ALL ? "every neighbour" : "the two heuristic neighbours")
                + ", certified (maxRelativeError); smoothedDelta = largest " + ci + " upper limit at confidence " + confidence + " over the assignments");
        root.put("units", "delta is a probability; epsilon in nats; codes are integers c = ceil(g * 2^bits); assignment counts records per distribution, in the order of parameters.distributions");
        return Report.of(root).text(o -> {
            o.printf("quantized-sgd: %s, %d bits, output %s, neighbours %s, %d trials per assignment, %s %.0f %% interval%n",
                    String.join(" + ", Arrays.stream(pi).map(QuantizedDistribution::label).toList()), request.grid().bits(), request.rounding().label(),
                    request.neighbors().name().toLowerCase(Locale.ROOT), trials, ci, 100 * confidence);
            QuantizedSgdJob.SUMMARY.printText(o, rows);
        }).csv("summary.csv", QuantizedSgdJob.SUMMARY, rows).dataset("rows", QuantizedSgdJob.ASSIGNMENT, spark, QuantizedSgdJob.assignmentRows(rows))
                .write(dir -> plot(dir.resolve("quantized-sgd.png"), rows, eps, params)).afterCommit(() -> OutputDir.deleteTree(work));
    }

    private ObjectNode parameters() {
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
        params.put("ci", ci.label());
        return params;
    }

    /** A bound and the seconds its n took. */
    record Timed(StepBound bound, double seconds) {
    }

    /**
     * Every n in turn, each kept as a finished stage under the work folder (a rerun resumes from them), with progress and an
     * ETA weighted by the cost of one database, about n^1.5 (bench/results/quantized-scaling.csv).
     */
    private List<Timed> sweep(Path work, IntFunction<List<StepBound>> run) throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        List<Timed> bounds = new ArrayList<>();
        long start = System.nanoTime();
        int resumed = 0;
        double[] weight = new double[ns.size()];
        for (int i = 0; i < ns.size(); i++) {
            weight[i] = Math.pow(ns.get(i), 1.5) * request.assignments().of((int) (long) ns.get(i), pi.length).size();
        }
        double remaining = Arrays.stream(weight).sum();
        double doneWeight = 0;
        for (int i = 0; i < ns.size(); i++) {
            int n = (int) (long) ns.get(i);
            ArrayNode stage = OutputDir.finishedStage(work, "n=" + n, err);
            List<StepBound> forN = stage == null ? null : fromStage(stage);
            boolean computedNow = forN == null; // a stage of another layout (an earlier version's) is computed again
            double secs;
            if (!computedNow) {
                resumed++;
                secs = stage.get(0).get("seconds").asDouble();
            } else {
                long t0 = System.nanoTime();
                forN = run.apply(n);
                secs = (System.nanoTime() - t0) / 1e9;
                ArrayNode keep = Json.array();
                keep.addObject().put("seconds", secs).set("bounds", Json.MAPPER.valueToTree(forN));
                OutputDir.keepStage(work, "n=" + n, keep);
                doneWeight += weight[i];
            }
            for (StepBound b : forN) {
                bounds.add(new Timed(b, secs));
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            remaining -= weight[i];
            double eta = doneWeight == 0 ? 0 : elapsed / doneWeight * remaining;
            err.printf(Locale.ROOT, "quantized-sgd: %d/%d n = %d done (%d resumed), %d databases, elapsed %.0f s, ETA %.0f s%n", i + 1, ns.size(), n, resumed,
                    trials * forN.get(0).assignments().size(), elapsed, eta);
            err.flush();
        }
        return bounds;
    }

    /** The bounds of a finished stage, or null when it is not in this version's layout. */
    private static List<StepBound> fromStage(ArrayNode stage) {
        if (stage.size() != 1 || !stage.get(0).has("bounds") || !stage.get(0).has("seconds")) {
            return null;
        }
        try {
            return Json.MAPPER.convertValue(stage.get(0).get("bounds"), new TypeReference<List<StepBound>>() { });
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The assignments --assignments names: endpoints, grid:K or all. */
    SmoothedSgd.Assignments assignmentSet() {
        String a = assignments.trim().toLowerCase(Locale.ROOT);
        if (a.equals("endpoints")) {
            return new SmoothedSgd.Endpoints();
        }
        if (a.equals("all")) {
            return new SmoothedSgd.All();
        }
        if (a.startsWith("grid:")) {
            int kk;
            try {
                kk = Integer.parseInt(a.substring(5));
            } catch (NumberFormatException e) {
                throw new UserInputException("--assignments", assignments, "write grid:K with an integer K >= 1");
            }
            if (kk < 1 || kk > SmoothedSgd.MAX_GRID) {
                throw new UserInputException("--assignments", assignments, "K must be in 1.." + SmoothedSgd.MAX_GRID);
            }
            return new SmoothedSgd.Grid(kk);
        }
        throw new UserInputException("--assignments", assignments, "must be endpoints, grid:K or all");
    }

    /** log10 delta against n: mean at the worst assignment (solid), its interval (dashed), 1/n and T/n (grey/pink dashed). */
    private static void plot(Path png, List<StepBound> rows, double[] eps, JsonNode params) {
        List<Plots.Series> series = new ArrayList<>();
        for (int e = 0; e < eps.length; e++) {
            double ep = eps[e];
            List<StepBound> sel = rows.stream().filter(r -> r.epsilon() == ep).toList();
            double[] x = sel.stream().mapToDouble(StepBound::n).toArray();
            Color col = Plots.ordered(e, eps.length);
            series.add(new Plots.Series("mean delta(x), eps = " + Plots.num(ep), x, sel.stream().mapToDouble(r -> Math.log10(r.meanAtArgmax())).toArray(),
                    false, col).variant(e));
            // a lower limit of 0 has no place on a log axis: the legend says where it is not drawn
            long zeros = sel.stream().filter(r -> !(r.ciLowAtArgmax() > 0)).count();
            if (zeros < sel.size()) {
                series.add(new Plots.Series("lower limit, eps = " + Plots.num(ep) + (zeros > 0 ? " (0, not drawn, at " + zeros + " of " + sel.size() + " n)" : ""),
                        x, sel.stream().mapToDouble(r -> Math.log10(r.ciLowAtArgmax())).toArray(), true, col).variant(e));
            }
            series.add(new Plots.Series("upper limit (smoothed bound), eps = " + Plots.num(ep), x,
                    sel.stream().mapToDouble(r -> Math.log10(r.smoothedDelta())).toArray(), true, col).variant(e + 1));
        }
        List<StepBound> ref = rows.stream().filter(r -> r.epsilon() == eps[0]).toList();
        double[] x = ref.stream().mapToDouble(StepBound::n).toArray();
        series.add(new Plots.Series("1/n", x, ref.stream().mapToDouble(r -> Math.log10(r.inverseN())).toArray(), true, new Color(0x555555)));
        series.add(new Plots.Series("DP delta bound T/n", x, ref.stream().mapToDouble(r -> Math.log10(r.dpDelta())).toArray(), true, new Color(0xe377c2)));
        List<String> dists = new ArrayList<>();
        params.get("distributions").forEach(d -> dists.add(QuantizedOptions.describe(d.asText())));
        Plots.figure(String.format(Locale.ROOT, "Smoothed DP of one SGD step: %d-bit gradients of %s, batch %s; %s %% %s interval",
                params.get("bits").asInt(), String.join(" and ", dists), params.get("batchSize").asText(),
                Plots.num(params.get("confidence").asDouble() * 100), params.get("ci").asText().equals("empirical-bernstein") ? "empirical Bernstein" : "Student t (approximate)"))
                .x("n (records)", Plots.Scale.LINEAR).logXIfWide().y("delta (log scale)", Plots.Scale.LOG10).addAll(series).save(png);
    }
}
