package org.privacybounds.jobs.smoothed;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Installation;
import org.privacybounds.jobs.common.LocalPool;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.RunRecord;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.AdjustedUtility;
import org.privacybounds.smoothed.ElectionPrivacy;
import org.privacybounds.smoothed.SampleSize;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.UtilityForm;
import org.privacybounds.validation.BadInputException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code election-history}: the privacy of every election of a CSV when a fraction of ballots is
 * lost (Smoothed DP paper, Figures 1 and 3). Elections are partitioned across executors; each executor
 * calls core-math; the driver collects, writes and plots.
 */
@Command(name = "election-history", header = "Privacy of every election of a CSV when a fraction of ballots is lost (Figures 1 and 3).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Privacy of publishing each election's two-candidate vote counts when a fraction of ballots is",
                "lost at random (Smoothed DP paper, Appendix A.1, Figures 1 and 3): n, T, delta_eps(x) with eps = ln(t/(1-t)),",
                "the adversary's adjusted utility at threshold t, and 1/n, computed as a Spark job; CSV, JSON,",
                "Parquet and a semilog PNG in the style of Figure 1 under --out."},
        footer = {"", "Examples (Figure 1, and Figure 3 panel (d)):",
                "  scripts/privacy-bounds election-history --data datasets/smoothed_dp_paper_election_history_1900_2020.csv \\",
                "      --years 1920:2020 --lost-fraction 0.002 --threshold 0.51 --out out/figure1",
                "  scripts/privacy-bounds election-history --data datasets/president_national_top2_1920_2020.csv \\",
                "      --votes-columns dem_votes,rep_votes --lost-fraction 0.0001 --threshold 0.6 --json"})
public final class ElectionHistoryCommand extends BoundsCommand implements RunRecord.EffectiveDefaults {
    static final String DEFAULT_DATA = "datasets/smoothed_dp_paper_election_history_1900_2020.csv";

    @Option(names = "--data", paramLabel = "CSV", defaultValue = DEFAULT_DATA,
            description = "CSV with a header: one row per election (default: ${DEFAULT-VALUE}).")
    String data;

    @Option(names = "--year-column", paramLabel = "C", defaultValue = "year", description = "Column of the election year (default: ${DEFAULT-VALUE}).")
    String yearColumn;

    @Option(names = "--votes-columns", paramLabel = "A,B", defaultValue = "votes_a,votes_b",
            description = "The two candidates' vote columns (default: ${DEFAULT-VALUE}).")
    String votesColumns;

    @Option(names = "--years", paramLabel = "FROM:TO", description = "Keep only elections with FROM <= year <= TO (default: all rows).")
    String years;

    /** Exactly one of the two ways to give the loss. */
    static final class Loss {
        @Option(names = "--lost-fraction", paramLabel = "F", description = "Fraction of ballots lost: T = n - floor(F n) (default: 0.002).")
        String lostFraction;

        @Option(names = "--eta", paramLabel = "DEC", description = "Sampling rate: T = ceil(eta n) (or round, see --rounding).")
        String eta;
    }

    @ArgGroup(exclusive = true, heading = "Lost ballots (at most one; default --lost-fraction 0.002):%n")
    Loss loss;

    @Option(names = "--rounding", paramLabel = "ceil|round", defaultValue = "ceil", description = "With --eta: ceil (Algorithm 2) or round (the paper's code) (default: ${DEFAULT-VALUE}).")
    String rounding;

    @Option(names = "--threshold", paramLabel = "t", defaultValue = "0.51",
            description = "Adversary threshold t in [0.5, 1); eps = ln(t/(1-t)) (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--form", paramLabel = "figure1|eq3", defaultValue = "figure1", description = "Utility form (default: ${DEFAULT-VALUE}).")
    String form;

    @Option(names = "--sampling", paramLabel = "without|with", defaultValue = "without", description = "Ballots kept without (Algorithm 2) or with replacement (default: ${DEFAULT-VALUE}).")
    String sampling;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the elections (default: the default parallelism).")
    int partitions;

    /** What the executors need, serialisable. */
    record Params(String lostFraction, String eta, SampleSize.Rounding rounding, double threshold, Sampling sampling,
            UtilityForm form, String yearColumn, String colA, String colB) implements Serializable {
    }

    /** Without --lost-fraction or --eta the run loses 0.2 % of the ballots: that is its parameter. */
    @Override
    public void effectiveDefaults(ObjectNode parameters) {
        if (loss == null || (loss.lostFraction == null && loss.eta == null)) {
            parameters.put("lost-fraction", "0.002");
        }
    }

    private String lostFraction;
    private String eta;
    private long[] yearRange;
    private String sparkData;
    private Integer threads;
    private Params params;

    @Override
    protected void check() {
        data = Installation.defaulted(spec, "--data", data);
        String[] cols = votesColumns.split(",");
        if (cols.length != 2 || cols[0].isBlank() || cols[1].isBlank() || cols[0].trim().equals(cols[1].trim())) {
            throw new UserInputException("--votes-columns", votesColumns, "must name exactly two different columns, e.g. votes_a,votes_b");
        }
        AdjustedUtility.checkThreshold(threshold);
        lostFraction = loss == null || (loss.lostFraction == null && loss.eta == null) ? "0.002" : loss.lostFraction;
        eta = loss == null ? null : loss.eta;
        // parsed and checked once, by core-math; the executors compute T from the checked text
        if (lostFraction != null) {
            SampleSize.parseLostFraction(lostFraction);
        } else {
            SampleSize.parseEta(eta);
        }
        yearRange = parseYears();
        sparkData = checkLocalFile();
        // a local file of driver size on a local master: read and computed on the driver's threads, no Spark
        threads = localFile != null && localRows <= DRIVER_ROWS ? SparkSessions.localThreads(common) : null;
        params = new Params(lostFraction, eta, MechanismOptions.parseRounding(rounding), threshold, MechanismOptions.parseSampling(sampling),
                UtilityCommand.parseForm(form), yearColumn, cols[0].trim(), cols[1].trim());
        if (common.dryRun && threads != null) {
            readLocal(params).forEach(row -> checkRow(row, params)); // every row checked, as the run would
        }
    }

    @Override
    protected boolean readsInputsInCompute() {
        return true;
    }

    @Override
    protected Report compute(OutputDir out) {
        long start = System.nanoTime();
        if (threads != null) {
            OutputDir.inputsRead(spec, common);
        }
        SparkSession spark = threads == null ? SparkSessions.get(common, "election-history") : null;
        long sparkReady = System.nanoTime();
        OutputDir.mark(out, spark == null ? "setup" : "sparkStart");
        // every row computed, those of the --years kept (on the executors before the collect, on the Spark path)
        List<Election> elections = spark == null ? new ArrayList<>(LocalPool.map(threads, readLocal(params), row -> computeRow(row, params)).stream()
                .filter(e -> e.year() >= yearRange[0] && e.year() <= yearRange[1]).toList()) : onSpark(spark);
        elections.sort(Comparator.comparingLong(Election::year));
        for (int i = 1; i < elections.size(); i++) {
            if (elections.get(i).year() == elections.get(i - 1).year()) {
                throw new UserInputException("--data", data, "year " + elections.get(i).year() + " appears in more than one row (one election per year)");
            }
        }
        if (elections.isEmpty()) {
            throw new UserInputException("--years", years, "selects no election of " + data);
        }
        long computed = System.nanoTime();
        OutputDir.mark(out, "compute");
        ObjectNode root = json(elections);
        ObjectNode timing = root.putObject("timingsSeconds");
        timing.put("sparkStart", (sparkReady - start) / 1e9);
        timing.put("compute", (computed - sparkReady) / 1e9);
        String where = spark == null ? String.format("on %d driver threads (no Spark needed)", threads)
                : String.format("after Spark start (%.1f s)", (sparkReady - start) / 1e9);
        return Report.of(root).stage(null).text(o -> {
            o.printf("election-history: %s, %d elections, %s, t = %s (eps = %.10g)%n", data, elections.size(),
                    lostFraction != null ? "lost fraction " + lostFraction : "eta " + eta, threshold, AdjustedUtility.epsilonOfThreshold(threshold));
            COLUMNS.printText(o, elections);
        }).log(e -> e.printf("election-history: %d elections computed in %.3f s %s%n", elections.size(), (computed - sparkReady) / 1e9, where))
                .dataset("rows", COLUMNS, spark, elections).write(dir -> plot(dir.resolve("election-history.png"), elections, lostFraction, eta, threshold))
                .announce("election-history");
    }

    /** Every row read and computed on the executors (a dry run reads and checks every row there, and ends). */
    private List<Election> onSpark(SparkSession spark) {
        Dataset<Row> raw = spark.read().option("header", "true").option("mode", "FAILFAST").csv(sparkData);
        List<String> present = Arrays.asList(raw.columns());
        for (String c : List.of(params.yearColumn(), params.colA(), params.colB())) {
            if (!present.contains(c)) {
                throw new UserInputException(c.equals(params.yearColumn()) ? "--year-column" : "--votes-columns", c,
                        "is not a column of " + data + " (columns: " + String.join(", ", present) + ")");
            }
        }
        JavaRDD<Row> input = raw.select(params.yearColumn(), params.colA(), params.colB()).javaRDD();
        Params p = params;
        if (common.dryRun) {
            input.foreach(row -> checkRow(row, p)); // every row read and checked on the executors
            OutputDir.inputsRead(spec, common);
        }
        int parts = partitions > 0 ? partitions : spark.sparkContext().defaultParallelism();
        long[] range = yearRange;
        return new ArrayList<>(input.repartition(parts).map(row -> computeRow(row, p)).filter(e -> e.year() >= range[0] && e.year() <= range[1]).collect());
    }

    private ObjectNode json(List<Election> elections) {
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("data", data);
        p.put("yearColumn", yearColumn);
        p.put("votesColumns", votesColumns);
        if (years != null) {
            p.put("years", years);
        }
        if (lostFraction != null) {
            p.put("lostFraction", lostFraction);
        } else {
            p.put("eta", eta);
            p.put("rounding", rounding);
        }
        p.put("threshold", threshold);
        p.put("epsilon", AdjustedUtility.epsilonOfThreshold(threshold));
        p.put("form", form);
        p.put("sampling", sampling);
        root.set("rows", COLUMNS.json(elections));
        root.put("method", "exact sums in log space with certified truncation (relativeErrorBound per row)");
        root.put("units", "delta and utility are probabilities; inverseN = 1/n; epsilon in nats");
        return root;
    }

    /** One election's result: n voters, T ballots kept, ln delta and ln utility (exact, log space), the certified relative error. */
    record Election(long year, long n, long T, double logDelta, double logUtility, double relativeErrorBound) implements Serializable {
    }

    /** One row of the input: its year and the two vote counts, checked. */
    record Votes(long year, long a, long b) {
    }

    /** The columns of the JSON rows, rows.csv, rows.parquet and the text table (the plot reads the same rows in this order). */
    static final Columns<Election> COLUMNS = Columns.<Election>of().integer("year", Election::year).shown("year", "%-6d")
            .integer("n", Election::n).shown("n", "%-11d").integer("T", Election::T).shown("T", "%-11d")
            .integer("lost", e -> e.n() - e.T()).shown("lost", "%-8d").number("delta", e -> Math.exp(e.logDelta()))
            .number("log10Delta", e -> LogMath.toLog10(e.logDelta())).shown("log10 delta", "%-13.4f").number("utility", e -> Math.exp(e.logUtility()))
            .number("log10Utility", e -> LogMath.toLog10(e.logUtility())).shown("log10 util", "%-13.4f").number("inverseN", e -> 1.0 / e.n())
            .textOnly("log10 1/n", "%-11.4f", e -> Math.log10(1.0 / e.n())).number("relativeErrorBound", Election::relativeErrorBound)
            .shown("relErr", "%.1e");

    /** One election: (year, n, T, ln delta, ln utility, relative error). Runs on an executor. */
    static Election computeRow(Row row, Params p) {
        Votes v = checkRow(row, p);
        long a = v.a();
        long b = v.b();
        long n = a + b;
        int t = (int) (p.lostFraction() != null ? SampleSize.fromLostFraction(new BigDecimal(p.lostFraction()), n)
                : SampleSize.fromEta(new BigDecimal(p.eta()), n, p.rounding())); // T <= n <= 2^31 - 1
        ElectionPrivacy.Result r = ElectionPrivacy.compute(a, b, t, p.threshold(), p.sampling(), p.form());
        return new Election(v.year(), n, t, r.logDelta(), r.logUtility(), r.relativeErrorBound());
    }

    /** One row's year and votes, checked (what a dry run checks of every row). */
    static Votes checkRow(Row row, Params p) {
        long year = parseCount(row, 0, p.yearColumn(), true);
        long a = parseCount(row, 1, p.colA(), false);
        long b = parseCount(row, 2, p.colB(), false);
        long n = a + b;
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new BadInputException("--data", "year " + year + ": n = " + n, "the two vote counts must add up to a total in [1, " + Integer.MAX_VALUE + "]");
        }
        return new Votes(year, a, b);
    }

    private static long parseCount(Row row, int i, String column, boolean isYear) {
        String v = row.isNullAt(i) ? "" : row.getString(i).trim();
        try {
            long x = Long.parseLong(v);
            if (x < 0) {
                throw new NumberFormatException();
            }
            return x;
        } catch (NumberFormatException e) {
            throw new BadInputException("--data", "column " + column + " value '" + v + "'",
                    isYear ? "years must be integers" : "vote counts must be non-negative integers");
        }
    }

    private long[] parseYears() {
        if (years == null) {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        }
        String[] p = years.split(":");
        try {
            if (p.length == 2) {
                long a = Long.parseLong(p[0].trim());
                long b = Long.parseLong(p[1].trim());
                if (a <= b) {
                    return new long[] {a, b};
                }
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new UserInputException("--years", years, "must be FROM:TO with integer years, FROM <= TO");
    }

    /** The path Spark reads: a local file exactly as named (checked, glob characters escaped); a URI with a scheme as given. */
    /** Up to this many rows a local --data file is read on the driver (a Spark job would cost more than the reading). */
    static final long DRIVER_ROWS = 1_000_000;

    /** The local --data file and its data rows (set by {@link #checkLocalFile}; null for a remote file). */
    private Path localFile;
    private long localRows;

    /**
     * The (year, A, B) cells of every data row of the local file, as Spark's CSV reader gives them (strings; an empty cell is
     * null). {@link #checkLocalFile} has already checked every row's width ({@link InputFiles#checkCsv}); blank lines are
     * skipped, as that check and Spark's reader do.
     */
    private List<Row> readLocal(Params params) {
        List<String[]> all;
        try {
            all = Csv.parse(localFile);
        } catch (IOException e) {
            throw new UserInputException("--data", data, "cannot be read: " + e.getMessage());
        }
        List<String> header = Arrays.asList(all.get(0));
        int[] idx = {header.indexOf(params.yearColumn()), header.indexOf(params.colA()), header.indexOf(params.colB())};
        List<Row> out = new ArrayList<>();
        for (String[] r : all.subList(1, all.size())) {
            if (r.length == 1 && (r[0] == null || r[0].isBlank())) {
                continue;
            }
            out.add(RowFactory.create(cell(r, idx[0]), cell(r, idx[1]), cell(r, idx[2])));
        }
        return out;
    }

    private static String cell(String[] row, int i) {
        return i < row.length ? row[i] : null;
    }

    private String checkLocalFile() {
        URI u;
        try {
            u = URI.create(data);
        } catch (IllegalArgumentException e) {
            u = null;
        }
        boolean local = u == null || u.getScheme() == null || u.getScheme().equals("file") || u.getScheme().length() == 1;
        if (!local) {
            return data;
        }
        Path p = u != null && "file".equals(u.getScheme()) ? Path.of(u) : Path.of(data);
        InputFiles.CsvShape shape = InputFiles.checkCsv("--data", p);
        String[] cols = votesColumns.split(",");
        for (String c : new String[] {yearColumn, cols[0].trim(), cols[1].trim()}) {
            if (!shape.header().contains(c)) {
                throw new UserInputException(c.equals(yearColumn) ? "--year-column" : "--votes-columns", c,
                        "is not a column of " + data + " (columns: " + String.join(", ", shape.header()) + ")");
            }
        }
        // every election's result row is kept on the driver (about 13 KB each, measured at 300,000 rows)
        WorkLimit.check(spec, common, "--data (" + shape.rows() + " rows)", 1e-3 * shape.rows() + 2, 13e3 * shape.rows());
        localFile = p;
        localRows = shape.rows();
        return InputFiles.sparkPath(p);
    }

    /**
     * Figure 1 / 3: log10 delta and log10 utility per year (both from the exact log-space values, so years whose delta
     * underflows a double are drawn too) and 1/n. Utility is a wide pale band under delta: the two nearly coincide, and
     * both stay visible.
     */
    static Plots.Figure plot(Path png, List<Election> elections, String lostFraction, String eta, double threshold) {
        int k = elections.size();
        double[] x = new double[k];
        double[] d = new double[k];
        double[] u = new double[k];
        double[] inv = new double[k];
        for (int i = 0; i < k; i++) {
            Election e = elections.get(i);
            x[i] = e.year();
            d[i] = LogMath.toLog10(e.logDelta());
            u[i] = LogMath.toLog10(e.logUtility());
            inv[i] = Math.log10(1.0 / e.n());
        }
        String loss = lostFraction != null ? new BigDecimal(lostFraction).movePointRight(2).stripTrailingZeros().toPlainString() + " % of ballots lost"
                : "eta = " + eta;
        double span = k == 0 ? 0 : x[k - 1] - x[0];
        Plots.Builder b = Plots.figure("Privacy of US presidential elections (" + loss + ", t = " + threshold + ")")
                .x("year", Plots.Scale.LINEAR).y("probability (log scale; smaller is more private)", Plots.Scale.LOG10)
                .add(new Plots.Series("adversary's adjusted utility", x, u, null, Plots.Style.BAND, new Color(0xf4a582)))
                .add(new Plots.Series("delta_eps(x), eps = ln(t/(1-t))", x, d, null, Plots.Style.LINE, new Color(0x1f77b4)))
                .add(new Plots.Series("1/n", x, inv, null, Plots.Style.DASHED, new Color(0x555555)));
        if (span >= 40) {
            b.xStep(20); // years: 1920, 1940, ..., 2020
        } else if (span >= 8) {
            b.xStep(4); // every election year
        }
        return b.save(png);
    }
}
