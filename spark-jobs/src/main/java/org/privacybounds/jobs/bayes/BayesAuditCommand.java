package org.privacybounds.jobs.bayes;

import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.ChainAudit.Config;
import org.privacybounds.bayes.ChainAudit.Part;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.Mechanism.SmoothBeta;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.bayes.SmoothedBernoulli;
import org.privacybounds.bayes.Statements;
import org.privacybounds.jobs.common.CommonOptions;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.numeric.LogMath;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
                "  privacy-bounds bayes-audit --n 10,100,1000 --epsilon 0.1,1,5 --delta 1e-6",
                "  privacy-bounds bayes-audit --n 1000:1000:10000 --epsilon 0.5,1,2 --delta 1e-6 --out out/bayes-audit",
                "  privacy-bounds bayes-audit --n 50 --epsilon 1 --statements-up-to 1000 --search-up-to 300 --json"})
public final class BayesAuditCommand implements Callable<Integer> {
    /** The largest n: the audit is exact over all (n+1)^2 (database, output) pairs. */
    static final int MAX_N = 100_000;
    static final double DP_TOLERANCE = 1e-12;
    /** The largest nominal eps audited. */
    static final double MAX_EPSILON = 1e6;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

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

    /** What a task needs besides its range. */
    record Setup(double[] eps, double delta, SmoothBeta beta, double[] fractions) implements Serializable {
        List<Config> configs(PosteriorFamily f) {
            List<Config> out = new ArrayList<>();
            for (Mechanism m : Mechanism.values()) {
                for (double e : eps) {
                    double[] loss = new double[fractions.length + 1];
                    loss[0] = e;
                    for (int i = 0; i < fractions.length; i++) {
                        loss[i + 1] = fractions[i] * e;
                    }
                    out.add(new Config(m.label(), e, m.sensitivity(f, e, delta, beta), loss));
                }
            }
            return out;
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Long> ns = Ranges.longs("--n", nList);
        for (long v : ns) {
            if (v < 1 || v > MAX_N) {
                throw new UserInputException("--n", v, "every n must be in [1, " + MAX_N + "] (the audit is exact over (n+1)^2 pairs)");
            }
        }
        double[] eps = positives("--epsilon", epsilon, false);
        for (double e : eps) {
            if (e > MAX_EPSILON) {
                // beyond this the mechanisms are the argmax and exp(eps u / 2S) leaves double range: no number would be meaningful
                throw new UserInputException("--epsilon", e, "must be at most " + MAX_EPSILON + " (the mechanism is then the deterministic argmax)");
            }
        }
        if (!(delta > 0 && delta < 1)) {
            throw new UserInputException("--delta", delta, "must be in (0, 1)");
        }
        SmoothBeta beta = switch (smoothBeta.trim().toLowerCase(Locale.ROOT)) {
            case "statement" -> SmoothBeta.STATEMENT;
            case "proof" -> SmoothBeta.PROOF;
            default -> throw new UserInputException("--smooth-beta", smoothBeta, "must be statement or proof");
        };
        double[] fractions = positives("--loss-fractions", lossFractions, true);
        double[] pi = bernoulliSet();
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
        try (OutputDir out = OutputDir.begin(spec, common)) {
            SparkSession spark = SparkSessions.get(common, "bayes-audit");
            OutputDir.mark(out, "sparkStart");
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int parallelism = jsc.defaultParallelism();
            Setup setup = new Setup(eps, delta, beta, fractions);
            PrintWriter err = spec.commandLine().getErr();
            // the audit: rows of every n in ranges of about equal work
            long t0 = System.nanoTime();
            List<Task> tasks = tasks(ns, partitions > 0 ? partitions : 4 * parallelism);
            List<Object[]> parts = jsc.parallelize(tasks, tasks.size()).map(t -> {
                PosteriorFamily f = new PosteriorFamily(t.n());
                return new Object[] {t, ChainAudit.run(f, setup.configs(f), t.from(), t.to())};
            }).collect();
            TreeMap<Integer, Part> byN = new TreeMap<>();
            parts.stream().sorted((a, b) -> Integer.compare(((Task) a[0]).from(), ((Task) b[0]).from()))
                    .forEach(o -> byN.merge(((Task) o[0]).n(), (Part) o[1], Part::merge));
            double auditSeconds = (System.nanoTime() - t0) / 1e9;
            err.printf("bayes-audit: audited %d n x %d eps x 3 mechanisms in %d tasks, %.1f s%n", ns.size(), eps.length, tasks.size(), auditSeconds);
            // smoothed delta, per n, all profiles in one pass
            List<ObjectNode> rows = new ArrayList<>();
            List<List<Object>> csv = new ArrayList<>();
            List<List<Object>> fracCsv = new ArrayList<>();
            int done = 0;
            for (var entry : byN.entrySet()) {
                int n = entry.getKey();
                Part p = entry.getValue();
                List<Config> cfgs = setup.configs(new PosteriorFamily(n));
                int losses = fractions.length + 1;
                double[][] profiles = new double[cfgs.size() * losses][];
                double[][] errors = new double[cfgs.size() * losses][];
                for (int c = 0; c < cfgs.size(); c++) {
                    for (int e = 0; e < losses; e++) {
                        profiles[c * losses + e] = p.profileLogDelta(c, e);
                        errors[c * losses + e] = p.profileLogError(c, e);
                    }
                }
                SmoothedBernoulli.Result[] sm = SmoothedBernoulli.maximise(profiles, errors, pi[0], pi[1]);
                for (int c = 0; c < cfgs.size(); c++) {
                    Config cfg = cfgs.get(c);
                    ObjectNode r = Json.object();
                    r.put("mechanism", cfg.label());
                    r.put("n", n);
                    r.put("epsilon", cfg.epsilon());
                    r.put("maxLogRatio", p.maxLogRatio[c]);
                    r.put("realisedOverNominal", p.maxLogRatio[c] / cfg.epsilon());
                    ObjectNode w = r.putObject("witness");
                    w.put("k", p.witness[c].k());
                    w.put("kNeighbor", p.witness[c].kNeighbor());
                    w.put("outputJ", p.witness[c].output());
                    Json.putLogPair(r, "worstCaseDelta", "log10WorstCaseDelta", p.worstLogDelta[c][0]);
                    Json.put(r, "worstCaseDeltaRelativeErrorBound", p.worstRelativeError(c, 0));
                    boolean pure = p.maxLogRatio[c] <= cfg.epsilon() * (1 + DP_TOLERANCE);
                    r.put("isPureDP", pure);
                    Json.putLogPair(r, "smoothedDelta", "log10SmoothedDelta", sm[c * losses].logDelta());
                    Json.put(r, "smoothedDeltaRelativeErrorBound", sm[c * losses].relativeErrorBound());
                    double[] worstLoss = p.maxExpectedLoss(c);
                    r.put("expectedHellinger", p.meanExpectedLoss(c));
                    r.put("worstExpectedHellinger", worstLoss[0]);
                    r.put("worstExpectedHellingerK", (long) worstLoss[1]);
                    r.put("probabilityTrue", p.meanProbabilityBest(c));
                    double[] sens = cfg.sensitivity();
                    r.put("sensitivityMin", Arrays.stream(sens).min().getAsDouble());
                    r.put("sensitivityMax", Arrays.stream(sens).max().getAsDouble());
                    ArrayNode fr = r.putArray("atFractions");
                    for (int e = 1; e < losses; e++) {
                        ObjectNode f = fr.addObject();
                        f.put("fraction", fractions[e - 1]);
                        f.put("epsilon", cfg.lossEpsilons()[e]);
                        Json.putLogPair(f, "worstCaseDelta", "log10WorstCaseDelta", p.worstLogDelta[c][e]);
                        Json.put(f, "worstCaseDeltaRelativeErrorBound", p.worstRelativeError(c, e));
                        ArrayNode wp = f.putArray("worstPair");
                        wp.add(p.worstPair[c][e].k()).add(p.worstPair[c][e].kNeighbor());
                        Json.putLogPair(f, "smoothedDelta", "log10SmoothedDelta", sm[c * losses + e].logDelta());
                        Json.put(f, "smoothedDeltaRelativeErrorBound", sm[c * losses + e].relativeErrorBound());
                        f.put("smoothedArgmaxRecordsAtPHigh", sm[c * losses + e].argmaxHigh());
                        fracCsv.add(Arrays.asList(cfg.label(), (long) n, cfg.epsilon(), fractions[e - 1], cfg.lossEpsilons()[e],
                                Math.exp(p.worstLogDelta[c][e]), log10(p.worstLogDelta[c][e]), (long) p.worstPair[c][e].k(), (long) p.worstPair[c][e].kNeighbor(),
                                Math.exp(sm[c * losses + e].logDelta()), log10(sm[c * losses + e].logDelta()), (long) sm[c * losses + e].argmaxHigh(),
                                p.worstRelativeError(c, e), sm[c * losses + e].relativeErrorBound()));
                    }
                    rows.add(r);
                    csv.add(Arrays.asList(cfg.label(), (long) n, cfg.epsilon(), p.maxLogRatio[c], p.maxLogRatio[c] / cfg.epsilon(),
                            (long) p.witness[c].k(), (long) p.witness[c].kNeighbor(), (long) p.witness[c].output(), Math.exp(p.worstLogDelta[c][0]),
                            log10(p.worstLogDelta[c][0]), pure, Math.exp(sm[c * losses].logDelta()), log10(sm[c * losses].logDelta()),
                            p.meanExpectedLoss(c), worstLoss[0], (long) worstLoss[1], p.meanProbabilityBest(c), p.worstRelativeError(c, 0),
                            sm[c * losses].relativeErrorBound()));
                }
                done++;
                err.printf("bayes-audit: %d/%d n = %d summarised (smoothed delta over Bernoulli [%s, %s])%n", done, byN.size(), n, pi[0], pi[1]);
            }
            OutputDir.mark(out, "audit");
            ObjectNode root = Json.object();
            root.put("command", "bayes-audit");
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
            rows.forEach(arr::add);
            // statements I-III and the search, distributed over n
            List<List<Object>> stCsv = new ArrayList<>();
            if (statementsUpTo > 0) {
                List<Integer> all = new ArrayList<>();
                for (int n = 1; n <= statementsUpTo; n++) {
                    all.add(n);
                }
                List<Statements.Result> st = new ArrayList<>(jsc.parallelize(all, Math.min(all.size(), 4 * parallelism)).map(Statements::check).collect());
                st.sort((a, b) -> Integer.compare(a.n(), b.n()));
                root.set("statements", statementsJson(st));
                for (Statements.Result s : st) {
                    stCsv.add(Arrays.asList((long) s.n(), s.statementI(), s.statementIAsPrinted(), s.printedFailures().toString().replace(",", " "),
                            s.statementII(), s.statementIII(), s.smallestRelativeGap(), s.certified(), s.enumerated()));
                }
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
            PrintWriter o = spec.commandLine().getOut();
            if (common.json) {
                o.println(Json.write(root));
            } else {
                printTable(o, rows);
                if (root.has("statements")) {
                    o.println("statements I-III: " + Json.write(root.get("statements")));
                }
                if (root.has("search")) {
                    o.println("search: " + Json.write(root.get("search")));
                }
            }
            o.flush();
            if (out != null) {
                out.writeString("result.json", Json.pretty(root) + "\n");
                List<String> header = List.of("mechanism", "n", "epsilon", "maxLogRatio", "realisedOverNominal", "witnessK", "witnessKNeighbor",
                        "witnessOutputJ", "worstCaseDelta", "log10WorstCaseDelta", "isPureDP", "smoothedDelta", "log10SmoothedDelta",
                        "expectedHellinger", "worstExpectedHellinger", "worstExpectedHellingerK", "probabilityTrue", "worstCaseDeltaRelativeErrorBound",
                        "smoothedDeltaRelativeErrorBound");
                out.writeString("rows.csv", Csv.table(header, csv));
                out.writeString("fractions.csv", Csv.table(List.of("mechanism", "n", "epsilon", "fraction", "epsilonPrime", "worstCaseDelta",
                        "log10WorstCaseDelta", "worstPairK", "worstPairKNeighbor", "smoothedDelta", "log10SmoothedDelta", "smoothedArgmaxRecordsAtPHigh",
                        "worstCaseDeltaRelativeErrorBound", "smoothedDeltaRelativeErrorBound"), fracCsv));
                if (!stCsv.isEmpty()) {
                    out.writeString("statements.csv", Csv.table(List.of("n", "statementI", "statementIAsPrinted", "printedFailures", "statementII",
                            "statementIII", "smallestRelativeGap", "certified", "enumerated"), stCsv));
                }
                out.writeParquet(spark, "rows.parquet", PARQUET_SCHEMA, csv);
                plots(out, rows, eps);
                String p = out.commit();
                err.println("bayes-audit: wrote " + p);
            }
            return 0;
        }
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

    private static com.fasterxml.jackson.databind.JsonNode statementsJson(List<Statements.Result> st) {
        ObjectNode s = Json.object();
        s.put("upToN", st.size());
        s.put("statementIHoldsFromN2", st.stream().filter(r -> r.n() >= 2).allMatch(Statements.Result::statementI));
        s.put("statementIIHolds", st.stream().allMatch(Statements.Result::statementII));
        s.put("statementIIIHoldsFromN4", st.stream().filter(r -> r.n() >= 4).allMatch(Statements.Result::statementIII));
        s.set("statementIIIFailsAtN", Json.MAPPER.valueToTree(st.stream().filter(r -> !r.statementIII()).map(Statements.Result::n).toList()));
        s.put("statementIAsPrintedFailsForNs", st.stream().filter(r -> !r.statementIAsPrinted()).count());
        s.put("allCertified", st.stream().filter(r -> r.n() >= 4).allMatch(Statements.Result::certified));
        s.put("smallestRelativeGap", st.stream().filter(r -> r.n() >= 4).mapToDouble(Statements.Result::smallestRelativeGap).min().orElse(Double.NaN));
        s.put("localSensitivityEnumeratedUpToN", Math.min(st.size(), Statements.ENUMERATION_MAX_N));
        s.put("note", "statement I as printed fails at k = x0 - 1 and x0 for every even n and near the centre for odd n; "
                + "the corrected form is D decreasing on 0..floor((n-1)/2), increasing on ceil((n-1)/2)..n-1");
        return s;
    }

    /** The local-sensitivity mechanism at every n = 1..upTo for every eps: first n with loss > eps. */
    private static ArrayNode search(JavaSparkContext jsc, Setup setup, int upTo, int parallelism, PrintWriter err) {
        List<Integer> all = new ArrayList<>();
        for (int n = upTo; n >= 1; n--) {
            all.add(n); // large n first: better balance
        }
        double[] eps = setup.eps();
        List<double[]> res = jsc.parallelize(all, Math.min(all.size(), 8 * parallelism)).map(n -> {
            PosteriorFamily f = new PosteriorFamily(n);
            List<Config> cs = new ArrayList<>();
            for (double e : eps) {
                cs.add(new Config("local", e, f.localSensitivity(), new double[] {e}));
            }
            Part p = ChainAudit.run(f, cs, 0, n + 1);
            double[] r = new double[eps.length + 1];
            r[0] = n;
            for (int i = 0; i < eps.length; i++) {
                r[i + 1] = p.maxLogRatio[i];
            }
            return r;
        }).collect();
        ArrayNode out = Json.array();
        for (int i = 0; i < eps.length; i++) {
            Integer first = null;
            double worst = 0;
            int at = 0;
            for (double[] r : res.stream().sorted((a, b) -> Double.compare(a[0], b[0])).toList()) {
                double ratio = r[i + 1] / eps[i];
                if (first == null && r[i + 1] > eps[i] * (1 + DP_TOLERANCE)) {
                    first = (int) r[0];
                }
                if (ratio > worst) {
                    worst = ratio;
                    at = (int) r[0];
                }
            }
            ObjectNode o = out.addObject();
            o.put("mechanism", "local");
            o.put("epsilon", eps[i]);
            o.put("upToN", upTo);
            if (first == null) {
                o.putNull("firstViolationN");
            } else {
                o.put("firstViolationN", first);
            }
            o.put("maxRealisedOverNominal", worst);
            o.put("atN", at);
        }
        err.printf("bayes-audit: local-sensitivity mechanism searched at every n = 1..%d%n", upTo);
        return out;
    }

    private static void printTable(PrintWriter o, List<ObjectNode> rows) {
        o.printf("%-8s %-7s %-8s %-12s %-9s %-16s %-14s %-6s %-14s %-12s %s%n", "mech", "n", "epsilon", "maxLogRatio", "ratio/eps",
                "witness k>k' j", "log10 wcDelta", "pureDP", "log10 smoothed", "E[Hellinger]", "P[true]");
        for (ObjectNode r : rows) {
            var w = r.get("witness");
            o.printf("%-8s %-7d %-8.4g %-12.6g %-9.4f %-16s %-14s %-6s %-14s %-12.6g %.6g%n", r.get("mechanism").asText(), r.get("n").asInt(),
                    r.get("epsilon").asDouble(), r.get("maxLogRatio").asDouble(), r.get("realisedOverNominal").asDouble(),
                    w.get("k").asInt() + ">" + w.get("kNeighbor").asInt() + " " + w.get("outputJ").asInt(), fmt(r.get("log10WorstCaseDelta")),
                    r.get("isPureDP").asBoolean(), fmt(r.get("log10SmoothedDelta")), r.get("expectedHellinger").asDouble(), r.get("probabilityTrue").asDouble());
        }
    }

    private static String fmt(com.fasterxml.jackson.databind.JsonNode v) {
        return v == null || v.isNull() ? "-inf" : String.format(Locale.ROOT, "%.4f", v.asDouble());
    }

    private static Double log10(double ln) {
        return ln == Double.NEGATIVE_INFINITY ? null : LogMath.toLog10(ln);
    }

    /** The columns of rows.csv as a Parquet schema. */
    static final StructType PARQUET_SCHEMA = new StructType().add("mechanism", DataTypes.StringType).add("n", DataTypes.LongType).add("epsilon", DataTypes.DoubleType)
                .add("maxLogRatio", DataTypes.DoubleType).add("realisedOverNominal", DataTypes.DoubleType).add("witnessK", DataTypes.LongType)
                .add("witnessKNeighbor", DataTypes.LongType).add("witnessOutputJ", DataTypes.LongType).add("worstCaseDelta", DataTypes.DoubleType)
                .add("log10WorstCaseDelta", DataTypes.DoubleType).add("isPureDP", DataTypes.BooleanType).add("smoothedDelta", DataTypes.DoubleType)
                .add("log10SmoothedDelta", DataTypes.DoubleType).add("expectedHellinger", DataTypes.DoubleType)
                .add("worstExpectedHellinger", DataTypes.DoubleType).add("worstExpectedHellingerK", DataTypes.LongType)
                .add("probabilityTrue", DataTypes.DoubleType).add("worstCaseDeltaRelativeErrorBound", DataTypes.DoubleType)
                .add("smoothedDeltaRelativeErrorBound", DataTypes.DoubleType);

    /**
     * privacy-loss.png: realised loss over nominal eps against n (one reference line at 1, whatever the eps grid);
     * utility.png: expected Hellinger distance on a log axis. One colour per (mechanism, eps).
     */
    static List<Plots.Figure> plots(OutputDir out, List<ObjectNode> rows, double[] eps) {
        List<Plots.Series> loss = new ArrayList<>();
        List<Plots.Series> util = new ArrayList<>();
        double[] nsAll = rows.stream().mapToDouble(r -> r.get("n").asDouble()).distinct().sorted().toArray();
        int color = 0;
        for (Mechanism m : Mechanism.values()) {
            for (double e : eps) {
                List<ObjectNode> sel = rows.stream().filter(r -> r.get("mechanism").asText().equals(m.label()) && r.get("epsilon").asDouble() == e).toList();
                if (sel.isEmpty()) {
                    continue;
                }
                double[] x = sel.stream().mapToDouble(r -> r.get("n").asDouble()).toArray();
                String name = m.label() + ", eps = " + e;
                loss.add(new Plots.Series(name, x, sel.stream().mapToDouble(r -> r.get("maxLogRatio").asDouble() / e).toArray(), false, Plots.color(color)));
                util.add(new Plots.Series(name, x, sel.stream().mapToDouble(r -> Math.log10(r.get("expectedHellinger").asDouble())).toArray(), false,
                        Plots.color(color)));
                color++;
            }
        }
        double[] one = new double[nsAll.length];
        Arrays.fill(one, 1.0);
        loss.add(new Plots.Series("nominal eps (ratio 1)", nsAll, one, true, new java.awt.Color(0x555555)));
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
