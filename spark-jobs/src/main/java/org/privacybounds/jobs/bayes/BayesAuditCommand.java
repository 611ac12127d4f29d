package org.privacybounds.jobs.bayes;

import java.awt.Color;
import java.io.PrintWriter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.bayes.BayesAudit;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.Mechanism.SmoothBeta;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.bayes.Statements;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.LocalPool;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.numeric.LogMath;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bayes-audit}: the exact privacy audit of DP Bayesian inference notes's exponential mechanisms over Beta
 * posteriors (global, local and smooth sensitivity), with their utility, on a grid of n and eps.
 */
@Command(name = "bayes-audit", header = "Exact privacy audit of DP Bayesian inference with the exponential mechanism (global, local, smooth sensitivity).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Exact privacy audit of DP Bayesian inference with the exponential mechanism (DP Bayesian inference notes): prior Beta(1,1),",
                "k ones in n records, candidates Beta(j+1, n-j+1), utility -Hellinger, sensitivity global, local or smooth.",
                "For each mechanism, n and eps: the realised privacy loss max |ln P_k(r) - ln P_k'(r)| over every neighbouring",
                "pair and output with its witness, the worst-case and the smoothed delta (Bernoulli data) at eps and at",
                "fractions of eps, and the utility (expected Hellinger distance to the true posterior, P[true posterior]).",
                "Rows of every n are split over executors. Optional: statements I-III for every n up to a bound, and a",
                "search over every n up to a bound for the n where the local-sensitivity mechanism exceeds eps."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds bayes-audit --n 10,100,1000 --epsilon 0.1,1,5 --delta 1e-6",
                "  scripts/privacy-bounds bayes-audit --n 1000:1000:10000 --epsilon 0.5,1,2 --delta 1e-6 --out out/bayes-audit   # about 80 s on 2 cores",
                "  scripts/privacy-bounds bayes-audit --n 50 --epsilon 1 --statements-up-to 1000 --search-up-to 300 --json   # about 10 s"})
public final class BayesAuditCommand extends BoundsCommand {
    /** The largest n: the audit is exact over all (n+1)^2 (database, output) pairs. */
    static final int MAX_N = 100_000;
    /** The largest nominal eps audited. */
    static final double MAX_EPSILON = 1e6;

    @Option(names = "--n", required = true, paramLabel = "LIST", description = "Numbers of records: n1,n2,... or a:step:b (1 <= n <= " + MAX_N + ").")
    String nList;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "Nominal eps > 0 of the mechanisms: e1,e2,... or a:step:b.")
    String epsilon;

    @Option(names = "--delta", paramLabel = "D", defaultValue = "1e-6",
            description = "delta in (0,1) of the smooth-sensitivity mechanism's beta (default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(names = "--smooth-beta", paramLabel = "FORM", defaultValue = "statement",
            description = "beta of the smooth sensitivity: statement = eps/(2 ln(2/delta)) (Lemma 3.1 as stated), proof = eps/(2 ln(3/delta)) (default: ${DEFAULT-VALUE}).")
    String smoothBeta;

    @Option(names = "--loss-fractions", paramLabel = "LIST", defaultValue = "0.5",
            description = "Also report delta at eps' = fraction x eps, each fraction in (0, 1] (default: ${DEFAULT-VALUE}).")
    String lossFractions;

    @Option(names = "--bernoulli", paramLabel = "P,...", defaultValue = "0.3,0.7",
            description = "The data distributions Pi of the smoothed delta: records are Bernoulli(p), p in this set (its hull is used) (default: ${DEFAULT-VALUE}).")
    String bernoulli;

    @Option(names = "--statements-up-to", paramLabel = "N", defaultValue = "0",
            description = "Verify statements I-III for every n = 1..N (0: skip; default: ${DEFAULT-VALUE}).")
    int statementsUpTo;

    @Option(names = "--search-up-to", paramLabel = "N", defaultValue = "0",
            description = "For every eps, audit the local-sensitivity mechanism at every n = 1..N and report the first n where it exceeds eps (0: skip; cost grows as N^3; default: ${DEFAULT-VALUE}).")
    int searchUpTo;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions (default: 4 x the default parallelism).")
    int partitions;

    /** One unit of work: the rows [from, to) of one n. */
    record Task(int n, int from, int to) implements Serializable {
    }

    /** The audit of one task's range of databases. */
    record AuditedRange(Task task, Part part) implements Serializable {
    }

    private List<Long> ns;
    private double[] eps;
    private SmoothBeta beta;
    private double[] fractions;
    private double[] pi;

    @Override
    protected void check() {
        ns = Ranges.longs("--n", nList);
        for (long v : ns) {
            if (v < 1 || v > MAX_N) {
                throw new UserInputException("--n", v, "every n must be in [1, " + MAX_N + "] (the audit is exact over (n+1)^2 pairs)");
            }
        }
        eps = positives("--epsilon", epsilon, false);
        for (double e : eps) {
            if (e > MAX_EPSILON) {
                // beyond this the mechanisms are the argmax and exp(eps u / 2S) leaves double range: no number would be meaningful
                throw new UserInputException("--epsilon", e, "must be at most " + MAX_EPSILON + " (the mechanism is then the deterministic argmax)");
            }
        }
        if (!(delta > 0 && delta < 1)) {
            throw new UserInputException("--delta", delta, "must be in (0, 1)");
        }
        beta = SmoothBeta.parse(smoothBeta);
        fractions = positives("--loss-fractions", lossFractions, true);
        pi = bernoulliSet();
        if (statementsUpTo < 0 || statementsUpTo > 20_000) {
            throw new UserInputException("--statements-up-to", statementsUpTo, "must be in [0, 20000]");
        }
        if (searchUpTo < 0 || searchUpTo > 5_000) {
            throw new UserInputException("--search-up-to", searchUpTo, "must be in [0, 5000]");
        }
        // (n+1)^2 utilities and, per mechanism and eps (and fraction), (n+1)^2 log-ratios; the smoothed delta is O(n^2) per profile
        double coreSeconds = 1;
        for (long v : ns) {
            double pairs = (double) (v + 1) * (v + 1);
            coreSeconds += pairs * (2e-7 + 3 * eps.length * (1 + fractions.length) * 6e-8);
        }
        coreSeconds += 1e-8 * Math.pow(Math.max(statementsUpTo, searchUpTo), 3);
        WorkLimit.check(spec, common, "--n and --epsilon", coreSeconds, 64.0 * ns.stream().mapToLong(Long::longValue).max().orElse(1) * 3 * eps.length);
    }

    @Override
    protected Report compute(OutputDir out) {
        // driver-sized on a local master: a pool of its cores instead of Spark (the same tasks, merged in the same order)
        Integer threads = SparkSessions.localThreads(common);
        SparkSession spark = threads == null ? SparkSessions.get(common, "bayes-audit") : null;
        OutputDir.mark(out, spark == null ? "setup" : "sparkStart");
        JavaSparkContext jsc = spark == null ? null : JavaSparkContext.fromSparkContext(spark.sparkContext());
        int parallelism = jsc == null ? threads : jsc.defaultParallelism(); // driver threads, or Spark's parallelism
        BayesAudit.Setup setup = new BayesAudit.Setup(eps, delta, beta, fractions);
        PrintWriter err = spec.commandLine().getErr();
        long t0 = System.nanoTime();
        List<BayesAudit.Row> rows = audit(jsc, parallelism, setup);
        double auditSeconds = (System.nanoTime() - t0) / 1e9;
        OutputDir.mark(out, "audit");
        ObjectNode root = json(rows);
        // statements I-III and the search, distributed over n
        List<Statements.Result> st = statements(jsc, parallelism);
        if (!st.isEmpty()) {
            root.set("statements", statementsJson(BayesAudit.StatementSummary.of(st)));
            err.printf("bayes-audit: statements I-III checked for n = 1..%d%n", statementsUpTo);
        }
        if (searchUpTo > 0) {
            root.set("search", search(jsc, setup, searchUpTo, parallelism, err));
        }
        OutputDir.mark(out, "statementsAndSearch");
        root.put("method", "exact: every neighbouring pair (k, k+1) and every output j, ln-probabilities in double precision "
                + "(Hellinger distances to ~1e-14 relative); hockey-stick deltas are exact sums over all outputs in log space; "
                + "smoothed delta exact over all n+1 assignments of records to the ends of the Bernoulli set; every delta carries a "
                + "relative error bound (first-order rounding analysis, utilities taken to 1e-13 relative; null when the computed delta is 0)");
        root.put("units", "epsilon and maxLogRatio in nats; delta and probabilities are probabilities; expectedHellinger is the mean over "
                + "k = 0..n (uniform: the prior predictive of Beta(1,1)) of E[H(released, true posterior)]");
        root.put("seconds", auditSeconds);
        return Report.of(root).stage(null).text(o -> {
            ROWS.printText(o, rows);
            if (root.has("statements")) {
                o.println("statements I-III: " + Json.write(root.get("statements")));
            }
            if (root.has("search")) {
                o.println("search: " + Json.write(root.get("search")));
            }
        }).dataset("rows", ROWS, spark, rows).csv("fractions.csv", FRACTIONS, fractionRows(rows)).write(dir -> {
            if (!st.isEmpty()) {
                dir.writeString("statements.csv", STATEMENTS.csv(st));
            }
        }).write(dir -> plots(dir, rows, eps)).announce("bayes-audit");
    }

    /** The audit: the rows of every n in ranges of about equal work, merged in order, then smoothed delta and the summary rows per n. */
    private List<BayesAudit.Row> audit(JavaSparkContext jsc, int parallelism, BayesAudit.Setup setup) {
        PrintWriter err = spec.commandLine().getErr();
        long t0 = System.nanoTime();
        List<Task> tasks = tasks(ns, partitions > 0 ? partitions : 4 * parallelism);
        List<AuditedRange> parts = LocalPool.distribute(jsc, parallelism, tasks, tasks.size(), t -> {
            PosteriorFamily f = new PosteriorFamily(t.n());
            return new AuditedRange(t, ChainAudit.run(f, setup.configs(f), t.from(), t.to()));
        });
        TreeMap<Integer, Part> byN = new TreeMap<>();
        parts.stream().sorted(Comparator.comparingInt(a -> a.task().from())).forEach(a -> byN.merge(a.task().n(), a.part(), Part::merge));
        err.printf("bayes-audit: audited %d n x %d eps x 3 mechanisms in %d tasks, %.1f s%n", ns.size(), eps.length, tasks.size(), (System.nanoTime() - t0) / 1e9);
        List<BayesAudit.Row> rows = new ArrayList<>();
        int done = 0;
        for (var entry : byN.entrySet()) {
            rows.addAll(BayesAudit.rows(entry.getKey(), entry.getValue(), setup, pi[0], pi[1]));
            done++;
            err.printf("bayes-audit: %d/%d n = %d summarised (smoothed delta over Bernoulli [%s, %s])%n", done, byN.size(), entry.getKey(), pi[0], pi[1]);
        }
        return rows;
    }

    /** Statements I-III for n = 1..--statements-up-to (none when it is 0), in order of n. */
    private List<Statements.Result> statements(JavaSparkContext jsc, int parallelism) {
        List<Statements.Result> st = new ArrayList<>();
        if (statementsUpTo > 0) {
            List<Integer> all = IntStream.rangeClosed(1, statementsUpTo).boxed().toList();
            st.addAll(LocalPool.distribute(jsc, parallelism, all, Math.min(all.size(), 4 * parallelism), Statements::check));
            st.sort(Comparator.comparingInt(Statements.Result::n));
        }
        return st;
    }

    private ObjectNode json(List<BayesAudit.Row> rows) {
        ObjectNode root = resultObject();
        ObjectNode params = root.putObject("parameters");
        params.put("n", nList);
        params.set("epsilon", Json.MAPPER.valueToTree(eps));
        params.put("delta", delta);
        params.put("smoothBeta", beta.name().toLowerCase(Locale.ROOT));
        params.set("lossFractions", Json.MAPPER.valueToTree(fractions));
        params.set("bernoulli", Json.MAPPER.valueToTree(pi));
        params.put("prior", "Beta(1,1)");
        params.put("statementsUpTo", statementsUpTo);
        params.put("searchUpTo", searchUpTo);
        ArrayNode arr = root.putArray("rows");
        rows.forEach(r -> arr.add(json(r)));
        return root;
    }

    /** Splits the rows of every n into tasks of about equal work (a row of n costs about n). */
    static List<Task> tasks(List<Long> ns, int target) {
        double total = 0;
        for (long n : ns) {
            total += (double) (n + 1) * (n + 1);
        }
        double perTask = Math.max(total / Math.max(1, target), 1);
        List<Task> out = new ArrayList<>();
        for (long nl : ns) {
            int n = (int) nl;
            int rowsPerTask = (int) Math.max(1, Math.min(n + 1, Math.ceil(perTask / (n + 1))));
            for (int from = 0; from <= n; from += rowsPerTask) {
                out.add(new Task(n, from, Math.min(n + 1, from + rowsPerTask)));
            }
        }
        return out;
    }

    private static JsonNode statementsJson(BayesAudit.StatementSummary sum) {
        ObjectNode s = Json.MAPPER.valueToTree(sum);
        s.put("note", "statement I as printed fails at k = x0 - 1 and x0 for every even n and near the centre for odd n; "
                + "the corrected form is D decreasing on 0..floor((n-1)/2), increasing on ceil((n-1)/2)..n-1");
        return s;
    }

    /** The local-sensitivity mechanism at every n = 1..upTo for every eps: first n with loss > eps. */
    private static ArrayNode search(JavaSparkContext jsc, BayesAudit.Setup setup, int upTo, int parallelism, PrintWriter err) {
        List<Integer> all = new ArrayList<>();
        for (int n = upTo; n >= 1; n--) {
            all.add(n); // large n first: better balance
        }
        double[] eps = setup.eps();
        List<BayesAudit.LocalLoss> res = LocalPool.distribute(jsc, parallelism, all, Math.min(all.size(), 8 * parallelism), n -> BayesAudit.localLoss(n, eps));
        ArrayNode out = Json.array();
        for (BayesAudit.Violation v : BayesAudit.firstViolations(eps, res)) {
            ObjectNode o = Json.MAPPER.valueToTree(v);
            out.add(o);
        }
        err.printf("bayes-audit: local-sensitivity mechanism searched at every n = 1..%d%n", upTo);
        return out;
    }

    /** A row as the JSON of the contract: the flat columns with the witness and the fractions nested. */
    private static ObjectNode json(BayesAudit.Row r) {
        ObjectNode o = Json.object();
        o.put("mechanism", r.mechanism());
        o.put("n", r.n());
        o.put("epsilon", r.epsilon());
        o.put("maxLogRatio", r.maxLogRatio());
        o.put("realisedOverNominal", r.realisedOverNominal());
        ObjectNode w = o.putObject("witness");
        w.put("k", r.witness().k());
        w.put("kNeighbor", r.witness().kNeighbor());
        w.put("outputJ", r.witness().output());
        Json.putLogPair(o, "worstCaseDelta", "log10WorstCaseDelta", r.logWorstCaseDelta());
        Json.put(o, "worstCaseDeltaRelativeErrorBound", r.worstCaseDeltaRelativeErrorBound());
        o.put("isPureDP", r.pureDp().asBoolean());
        Json.putLogPair(o, "smoothedDelta", "log10SmoothedDelta", r.logSmoothedDelta());
        Json.put(o, "smoothedDeltaRelativeErrorBound", r.smoothedDeltaRelativeErrorBound());
        o.put("expectedHellinger", r.expectedHellinger());
        o.put("worstExpectedHellinger", r.worstExpectedHellinger());
        o.put("worstExpectedHellingerK", (long) r.worstExpectedHellingerK());
        o.put("probabilityTrue", r.probabilityTrue());
        o.put("sensitivityMin", r.sensitivityMin());
        o.put("sensitivityMax", r.sensitivityMax());
        ArrayNode fr = o.putArray("atFractions");
        for (BayesAudit.AtFraction a : r.atFractions()) {
            ObjectNode f = fr.addObject();
            f.put("fraction", a.fraction());
            f.put("epsilon", a.epsilon());
            Json.putLogPair(f, "worstCaseDelta", "log10WorstCaseDelta", a.logWorstCaseDelta());
            Json.put(f, "worstCaseDeltaRelativeErrorBound", a.worstCaseDeltaRelativeErrorBound());
            f.putArray("worstPair").add(a.worstPair().k()).add(a.worstPair().kNeighbor());
            Json.putLogPair(f, "smoothedDelta", "log10SmoothedDelta", a.logSmoothedDelta());
            Json.put(f, "smoothedDeltaRelativeErrorBound", a.smoothedDeltaRelativeErrorBound());
            f.put("smoothedArgmaxRecordsAtPHigh", a.smoothedArgmaxRecordsAtPHigh());
        }
        return o;
    }

    /** The columns of rows.csv, rows.parquet and the text table. */
    static final Columns<BayesAudit.Row> ROWS = Columns.<BayesAudit.Row>of().string("mechanism", BayesAudit.Row::mechanism).shown("mech", "%-8s")
            .integer("n", BayesAudit.Row::n).shown("n", "%-7d").number("epsilon", BayesAudit.Row::epsilon).shown("epsilon", "%-8.4g")
            .number("maxLogRatio", BayesAudit.Row::maxLogRatio).shown("maxLogRatio", "%-12.6g")
            .number("realisedOverNominal", BayesAudit.Row::realisedOverNominal).shown("ratio/eps", "%-9.4f")
            .textOnly("witness k>k' j", "%-16s", r -> r.witness().k() + ">" + r.witness().kNeighbor() + " " + r.witness().output())
            .integer("witnessK", r -> r.witness().k()).integer("witnessKNeighbor", r -> r.witness().kNeighbor())
            .integer("witnessOutputJ", r -> r.witness().output()).number("worstCaseDelta", r -> Math.exp(r.logWorstCaseDelta()))
            .number("log10WorstCaseDelta", r -> LogMath.toLog10(r.logWorstCaseDelta())).shown("log10 wcDelta", "%-14.4f")
            .verdict("isPureDP", BayesAudit.Row::pureDp).shown("pureDP", "%-6s").number("smoothedDelta", r -> Math.exp(r.logSmoothedDelta()))
            .number("log10SmoothedDelta", r -> LogMath.toLog10(r.logSmoothedDelta())).shown("log10 smoothed", "%-14.4f")
            .number("expectedHellinger", BayesAudit.Row::expectedHellinger).shown("E[Hellinger]", "%-12.6g")
            .number("worstExpectedHellinger", BayesAudit.Row::worstExpectedHellinger)
            .integer("worstExpectedHellingerK", BayesAudit.Row::worstExpectedHellingerK)
            .number("probabilityTrue", BayesAudit.Row::probabilityTrue).shown("P[true]", "%.6g")
            .number("worstCaseDeltaRelativeErrorBound", BayesAudit.Row::worstCaseDeltaRelativeErrorBound)
            .number("smoothedDeltaRelativeErrorBound", BayesAudit.Row::smoothedDeltaRelativeErrorBound);

    /** A fraction's values with the row they belong to. */
    record FractionRow(BayesAudit.Row row, BayesAudit.AtFraction at) {
    }

    static List<FractionRow> fractionRows(List<BayesAudit.Row> rows) {
        List<FractionRow> out = new ArrayList<>();
        rows.forEach(r -> r.atFractions().forEach(a -> out.add(new FractionRow(r, a))));
        return out;
    }

    /** The columns of fractions.csv. */
    static final Columns<FractionRow> FRACTIONS = Columns.<FractionRow>of().string("mechanism", f -> f.row().mechanism()).integer("n", f -> f.row().n())
            .number("epsilon", f -> f.row().epsilon()).number("fraction", f -> f.at().fraction()).number("epsilonPrime", f -> f.at().epsilon())
            .number("worstCaseDelta", f -> Math.exp(f.at().logWorstCaseDelta())).number("log10WorstCaseDelta", f -> LogMath.toLog10(f.at().logWorstCaseDelta()))
            .integer("worstPairK", f -> f.at().worstPair().k()).integer("worstPairKNeighbor", f -> f.at().worstPair().kNeighbor())
            .number("smoothedDelta", f -> Math.exp(f.at().logSmoothedDelta())).number("log10SmoothedDelta", f -> LogMath.toLog10(f.at().logSmoothedDelta()))
            .integer("smoothedArgmaxRecordsAtPHigh", f -> f.at().smoothedArgmaxRecordsAtPHigh())
            .number("worstCaseDeltaRelativeErrorBound", f -> f.at().worstCaseDeltaRelativeErrorBound())
            .number("smoothedDeltaRelativeErrorBound", f -> f.at().smoothedDeltaRelativeErrorBound());

    /** The columns of statements.csv. */
    static final Columns<Statements.Result> STATEMENTS = Columns.<Statements.Result>of().integer("n", Statements.Result::n)
            .bool("statementI", Statements.Result::statementI).bool("statementIAsPrinted", Statements.Result::statementIAsPrinted)
            .string("printedFailures", r -> r.printedFailures().toString().replace(",", " ")).bool("statementII", Statements.Result::statementII)
            .bool("statementIII", Statements.Result::statementIII).number("smallestRelativeGap", Statements.Result::smallestRelativeGap)
            .bool("certified", Statements.Result::certified).bool("enumerated", Statements.Result::enumerated);

    /**
     * privacy-loss.png: realised loss over nominal eps against n (one reference line at 1, whatever the eps grid);
     * utility.png: expected Hellinger distance on a log axis. One colour per (mechanism, eps).
     */
    static List<Plots.Figure> plots(OutputDir out, List<BayesAudit.Row> rows, double[] eps) {
        List<Plots.Series> loss = new ArrayList<>();
        List<Plots.Series> util = new ArrayList<>();
        double[] nsAll = rows.stream().mapToDouble(BayesAudit.Row::n).distinct().sorted().toArray();
        int color = 0;
        for (Mechanism m : Mechanism.values()) {
            for (double e : eps) {
                List<BayesAudit.Row> sel = rows.stream().filter(r -> r.mechanism().equals(m.label()) && r.epsilon() == e).toList();
                if (sel.isEmpty()) {
                    continue;
                }
                double[] x = sel.stream().mapToDouble(BayesAudit.Row::n).toArray();
                String name = m.label() + ", eps = " + Plots.num(e);
                // the ratio barely moves with eps for one mechanism: each eps its own marker and dash, so lines on top of one another show
                loss.add(new Plots.Series(name, x, sel.stream().mapToDouble(BayesAudit.Row::realisedOverNominal).toArray(), false, Plots.color(color))
                        .variant(color));
                util.add(new Plots.Series(name, x, sel.stream().mapToDouble(r -> Math.log10(r.expectedHellinger())).toArray(), false,
                        Plots.color(color)).variant(color));
                color++;
            }
        }
        double[] one = new double[nsAll.length];
        Arrays.fill(one, 1.0);
        loss.add(new Plots.Series("nominal eps (ratio 1)", nsAll, one, true, new Color(0x555555)));
        Plots.Figure lossFigure = Plots.figure("Realised privacy loss of the exponential mechanisms over their nominal eps (prior Beta(1,1))")
                .x("n (records)", Plots.Scale.LINEAR).y("max |ln P_k(j) - ln P_k'(j)| / eps", Plots.Scale.LINEAR).yIncludes(0).addAll(loss)
                .save(out.resolve("privacy-loss.png"));
        Plots.Figure utilFigure = Plots.figure("Utility: expected Hellinger distance to the true posterior (mean over k)")
                .x("n (records)", Plots.Scale.LINEAR).y("E[H(released, true)] (log scale; smaller is better)", Plots.Scale.LOG10).addAll(util)
                .save(out.resolve("utility.png"));
        return List.of(lossFigure, utilFigure);
    }

    private double[] bernoulliSet() {
        List<Double> ps = Ranges.doubles("--bernoulli", bernoulli);
        double lo = 1;
        double hi = 0;
        for (double p : ps) {
            if (!(p >= 0 && p <= 1)) {
                throw new UserInputException("--bernoulli", p, "every p must be in [0, 1]");
            }
            lo = Math.min(lo, p);
            hi = Math.max(hi, p);
        }
        return new double[] {lo, hi};
    }

    private static double[] positives(String option, String spec, boolean atMostOne) {
        List<Double> list = Ranges.doubles(option, spec);
        double[] v = new double[list.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = list.get(i);
            if (!(v[i] > 0) || Double.isInfinite(v[i]) || (atMostOne && v[i] > 1)) {
                throw new UserInputException(option, v[i], atMostOne ? "every value must be in (0, 1]" : "every value must be a finite number > 0");
            }
        }
        return v;
    }
}
