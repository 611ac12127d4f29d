package org.privacybounds.jobs.precincts;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.explode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Progress;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.smoothed.PrecinctPrivacy;
import org.privacybounds.smoothed.SampleSize;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import scala.Tuple2;

/** {@code precincts}: the privacy of every precinct's published counts when ballots are lost, or a sample is published. */
@Command(name = "precincts", header = "Privacy of every precinct's published vote counts when ballots are lost or a sample is published.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The privacy of every precinct's published vote counts, over any number of candidates, when a fraction of the",
                "ballots is lost at random (--lost-fraction) or a random sample of ballots is published (--sample-fraction): the",
                "sampling-histogram mechanism without replacement (Smoothed DP paper, Algorithm 2) with the categories --candidates,",
                "then 'other'. Per precinct and eps the exact delta_eps(x) with its worst neighbour, the adjusted utility and T/n;",
                "per county and overall the distribution of log10 delta. Reads long-format returns (one row per precinct, office and",
                "candidate) as published: every file its own header, columns by name."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds precincts --data datasets/pa_2020_general_precincts --office President \\",
                "      --candidates 'Joseph R. Biden,Donald J. Trump,Jo Jorgensen' --alias 'Jorgensen/Cohe=Jo Jorgensen' \\",
                "      --exclude 'Under Votes,Over Votes,Overvote,Not Assigned' --lost-fraction 0.002 --epsilon 0.5,2 --out out/pa   # about 20 s",
                "  scripts/privacy-bounds precincts --data datasets/pa_2020_general_precincts/20201103__pa__general__fulton__precinct.csv \\",
                "      --candidates 'Joseph R. Biden,Donald J. Trump' --exclude 'Under Votes,Over Votes' --sample-fraction 0.5 --epsilon 1 --json"})
public final class PrecinctsCommand extends BoundsCommand {
    @Option(names = "--data", required = true, paramLabel = "DIR|CSV", description = "A long-format CSV file, or a folder: every *.csv in it.")
    String data;

    @Mixin
    PrecinctSelection selection;

    /** Exactly one draw. */
    static final class Draw {
        @Option(names = "--lost-fraction", paramLabel = "F", description = "Fraction of ballots lost at random: T = n - floor(F n).")
        String lostFraction;

        @Option(names = "--sample-fraction", paramLabel = "S", description = "Fraction of ballots published as a random sample (an audit): T = ceil(S n).")
        String sampleFraction;
    }

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Which ballots are published (exactly one):%n")
    Draw draw;

    @Option(names = "--epsilon", paramLabel = "LIST", defaultValue = "1", description = "eps values of the profile: e1,e2,... or a:step:b (default: ${DEFAULT-VALUE}).")
    String epsilon;

    @Option(names = "--threshold", paramLabel = "t", defaultValue = "0.51", description = "Threshold t of the adjusted utility, in [0.5, 1) (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the precincts (default: 4 x the default parallelism).")
    int partitions;

    /** Quantiles reported of log10 delta. */
    static final double[] QUANTILES = {0, 0.1, 0.5, 0.9, 1};
    static final String[] QUANTILE_NAMES = {"min", "p10", "median", "p90", "max"};

    private double[] eps;
    private PrecinctPrivacy.Setting setting;
    private PrecinctReturns.Categories categories;
    private PrecinctReturns.Columns columns;
    private String office;
    private List<PrecinctReturns.Checked> files;
    private long rows;

    @Override
    protected void check() throws IOException {
        eps = Ranges.epsilons("--epsilon", epsilon);
        setting = setting(eps);
        if (!selection.given()) {
            throw new UserInputException("--candidates", "(none)", "name the candidate categories, e.g. --candidates 'A,B'");
        }
        categories = selection.categories();
        columns = selection.columns();
        office = selection.office();
        files = PrecinctReturns.check(PrecinctReturns.files(data), columns);
        rows = files.stream().mapToLong(PrecinctReturns.Checked::rows).sum();
        // every row is read once (about 1e-5 core-s); a precinct (at most a fifth of the rows: a few candidates and offices each) costs
        // about 3e-6 core-s per eps and category pair when few ballots are lost, 2.2e-4 when half are drawn (measured on the
        // Pennsylvania files: 0.8 s and 57 s for 7,962 precincts, two eps, four categories, one core); the driver keeps summaries
        double pair = eps.length * Math.pow(categories.names().size(), 2);
        double perPrecinct = pair * (setting.draw() == PrecinctPrivacy.Draw.LOST_FRACTION ? 3e-6 : 2.2e-4);
        WorkLimit.check(spec, common, "--data (" + rows + " rows) and --epsilon", 2 + rows * (1e-5 + perPrecinct / 5), 64e6);
    }

    @Override
    protected boolean readsInputsInCompute() {
        return true;
    }

    @Override
    protected Report compute(OutputDir out) {
        SparkSession spark = SparkSessions.get(common, "precincts");
        Progress.phase("reading --data");
        OutputDir.mark(out, "sparkStart");
        int parts = partitions > 0 ? partitions : 4 * spark.sparkContext().defaultParallelism();
        JavaRDD<PrecinctJob.Cell> cells = cells(JavaSparkContext.fromSparkContext(spark.sparkContext()));
        OutputDir.inputsRead(spec, common); // a dry run ends here: every row of every file read and checked
        Progress.phase("computing");
        long blank = cells.filter(c -> c.category() >= 0 && c.votesText().isBlank()).count();
        List<OtherName> others = otherNames(cells);
        JavaPairRDD<String, long[]> histograms = PrecinctJob.histograms(cells, categories.names().size(), parts);
        Dataset<Row> results = PrecinctJob.evaluate(spark, histograms, setting, categories.names(), parts).cache();
        long precincts = results.count();
        cells.unpersist();
        if (precincts == 0) {
            throw new UserInputException("--office", office, "has no rows in " + data + " (office names are matched without regard to case)");
        }
        spec.commandLine().getErr().printf(Locale.ROOT, "precincts: %d files, %d rows, %d precincts of %s computed%n", files.size(), rows, precincts, office);
        OutputDir.mark(out, "compute");
        ObjectNode root = resultObject();
        root.set("parameters", parameters(eps));
        root.set("categories", Json.MAPPER.valueToTree(categories.names()));
        root.put("files", files.size());
        root.put("rows", rows);
        root.put("precinctCount", precincts);
        Summary summary = summarize(results, parts);
        root.put("precinctsWithoutBallots", summary.empty);
        root.put("precinctsWithAOneBallotCategory", summary.oneBallot);
        root.put("blankVoteCountsReadAsZero", blank);
        ArrayNode on = root.putArray("otherNames");
        for (OtherName o : others) {
            on.addObject().put("candidate", o.candidate()).put("category", o.category() < 0 ? "dropped" : "other").put("rows", o.rows()).put("votes", o.votes());
        }
        root.set("summary", summary.json);
        root.put("method", "exact: per precinct and eps, delta_eps(x) of the sampling-histogram mechanism without replacement over every "
                + "replace-one neighbour and both directions, each a two-dimensional sum over the (from, to, rest) hypergeometric law in "
                + "log space with a certified truncation (relativeErrorBound)");
        root.put("units", "delta, dpDelta and utility are probabilities (log10 fields are their base-10 logarithms); eps in nats; counts are ballots");
        return Report.of(root).stage(null).json(o -> streamJson(o, root, results)).text(o -> printText(o, root, summary))
                .write(dir -> write(dir, root, results, summary, eps)).announce("precincts");
    }

    /** The cells of the office's rows (cached), every vote count checked to be a whole number. */
    private JavaRDD<PrecinctJob.Cell> cells(JavaSparkContext jsc) {
        JavaRDD<PrecinctJob.Cell> cells = PrecinctJob.cells(jsc, files, columns, office, categories).cache();
        JavaRDD<PrecinctJob.Cell> bad = cells.filter(c -> c.category() >= 0 && c.votes() < 0);
        List<PrecinctJob.Cell> badRows = bad.take(1);
        if (!badRows.isEmpty()) {
            PrecinctJob.Cell b = badRows.get(0);
            throw new UserInputException("--data", b.file(), bad.count() + " vote count(s) of " + office + " are not whole numbers, e.g. precinct '"
                    + b.precinct() + "', candidate '" + b.candidate() + "': '" + b.votesText() + "'");
        }
        if (cells.isEmpty()) {
            throw new UserInputException("--office", office, "has no rows in " + data + " (office names are matched without regard to case)");
        }
        return cells;
    }

    /** The 20 names outside the candidates with the most votes: counted as other, or dropped (--exclude). */
    private List<OtherName> otherNames(JavaRDD<PrecinctJob.Cell> cells) {
        int otherIndex = categories.candidates().size();
        PrecinctReturns.Categories cats = categories;
        return cells.filter(c -> (c.category() == otherIndex || c.category() < 0) && !cats.excluded(c.candidate()))
                .mapToPair(c -> new Tuple2<>(c.candidate(), new OtherName(c.candidate(), 1, Math.max(0, c.votes()), c.category())))
                .reduceByKey((x, y) -> new OtherName(x.candidate(), x.rows() + y.rows(), x.votes() + y.votes(), x.category())).values()
                .takeOrdered(20, OtherNameOrder.INSTANCE);
    }

    /** A name outside the candidates: its rows, votes and category (the other category's index, or negative when dropped). */
    record OtherName(String candidate, long rows, long votes, int category) implements Serializable {
    }

    /** The draw of --lost-fraction or --sample-fraction: parsed and checked by core-math, where the fraction is born. */
    PrecinctPrivacy.Setting setting(double[] eps) {
        return draw.lostFraction != null ? PrecinctPrivacy.Setting.lostFraction(SampleSize.parseLostFraction(draw.lostFraction), eps, threshold)
                : PrecinctPrivacy.Setting.sampleFraction(SampleSize.parseSampleFraction(draw.sampleFraction), eps, threshold);
    }

    ObjectNode parameters(double[] eps) {
        ObjectNode p = Json.object();
        p.put("data", data);
        selection.echo(p);
        if (draw.lostFraction != null) {
            p.put("lostFraction", draw.lostFraction);
        } else {
            p.put("sampleFraction", draw.sampleFraction);
        }
        p.set("epsilon", Json.MAPPER.valueToTree(eps));
        p.put("threshold", threshold);
        p.put("sampling", "without replacement");
        return p;
    }

    /** Per county and overall, per eps: quantiles of log10 delta, the count above 1/n, exact zeros; and the plot's histogram. */
    record Summary(ObjectNode json, List<PrecinctJob.Group> groups, long empty, long oneBallot, Map<Double, TreeMap<Double, Long>> histogram) {
    }

    /** The columns of summary.csv: a county ("(all)" for every precinct), eps, the quantiles of log10 delta, the counts. */
    static final Columns<PrecinctJob.Group> SUMMARY = summaryColumns();

    private static Columns<PrecinctJob.Group> summaryColumns() {
        Columns<PrecinctJob.Group> c = Columns.<PrecinctJob.Group>of().string("county", g -> g.county() == null ? "(all)" : g.county())
                .number("epsilon", PrecinctJob.Group::epsilon).integer("precincts", PrecinctJob.Group::precincts);
        for (int i = 0; i < QUANTILE_NAMES.length; i++) {
            int q = i;
            c = c.number("log10Delta_" + QUANTILE_NAMES[i], g -> g.quantiles()[q]);
        }
        return c.integer("aboveInverseN", PrecinctJob.Group::aboveInverseN).integer("atWorstCase", PrecinctJob.Group::atWorstCase)
                .integer("exactlyZero", PrecinctJob.Group::exactlyZero);
    }

    private static Summary summarize(Dataset<Row> results, int partitions) {
        List<PrecinctJob.Group> groups = PrecinctJob.summarize(results, QUANTILES, partitions);
        long empty = results.javaRDD().filter(r -> r.<Long>getAs("n") == 0).count();
        long oneBallot = results.javaRDD().filter(r -> r.<Long>getAs("n") > 0 && r.<Long>getList(r.fieldIndex("counts")).contains(1L)).count();
        ObjectNode json = Json.object();
        ArrayNode overall = json.putArray("overall");
        ArrayNode counties = json.putArray("counties");
        Map<Double, TreeMap<Double, Long>> hist = new LinkedHashMap<>();
        for (PrecinctJob.Group g : groups) {
            ObjectNode o = g.county() == null ? overall.addObject() : counties.addObject();
            if (g.county() != null) {
                o.put("county", g.county());
            } else {
                hist.put(g.epsilon(), g.bins());
            }
            o.put("epsilon", g.epsilon());
            o.put("precincts", g.precincts());
            ObjectNode qs = o.putObject("log10DeltaQuantiles");
            for (int i = 0; i < QUANTILES.length; i++) {
                Json.put(qs, QUANTILE_NAMES[i], g.quantiles()[i]);
            }
            o.put("aboveInverseN", g.aboveInverseN());
            o.put("atWorstCase", g.atWorstCase());
            o.put("exactlyZero", g.exactlyZero());
        }
        return new Summary(json, groups, empty, oneBallot, hist);
    }

    /** Names outside the candidates by votes, largest first, then by name. */
    enum OtherNameOrder implements Comparator<OtherName>, Serializable {
        INSTANCE;

        @Override
        public int compare(OtherName a, OtherName b) {
            int c = Long.compare(b.votes(), a.votes());
            return c != 0 ? c : a.candidate().compareTo(b.candidate());
        }
    }

    /** The JSON object on stdout, its precincts streamed one partition at a time (driver memory does not grow with them). */
    private static void streamJson(PrintWriter o, ObjectNode root, Dataset<Row> results) {
        String head = Json.write(root);
        o.print(head.substring(0, head.length() - 1));
        o.print(",\"precincts\":[");
        Iterator<Row> it = results.toLocalIterator();
        boolean first = true;
        while (it.hasNext()) {
            if (!first) {
                o.print(',');
            }
            first = false;
            o.print(Json.write(precinctJson(it.next())));
        }
        o.println("]}");
    }

    static ObjectNode precinctJson(Row r) {
        ObjectNode p = Json.object();
        p.put("county", r.<String>getAs("county"));
        p.put("precinct", r.<String>getAs("precinct"));
        p.set("counts", Json.MAPPER.valueToTree(r.getList(r.fieldIndex("counts"))));
        p.put("n", r.<Long>getAs("n"));
        p.put("sampleSize", r.<Long>getAs("sampleSize"));
        if (!r.isNullAt(r.fieldIndex("dpDelta"))) {
            p.put("dpDelta", r.<Double>getAs("dpDelta"));
            p.put("utility", r.<Double>getAs("utility"));
            Json.put(p, "log10Utility", r.isNullAt(r.fieldIndex("log10Utility")) ? Double.NaN : r.<Double>getAs("log10Utility"));
            p.put("utilityRelativeErrorBound", r.<Double>getAs("utilityRelativeErrorBound"));
        }
        ArrayNode res = p.putArray("results");
        for (Row e : r.<Row>getList(r.fieldIndex("results"))) {
            ObjectNode x = res.addObject();
            x.put("epsilon", e.<Double>getAs("epsilon"));
            x.put("delta", e.<Double>getAs("delta"));
            Json.put(x, "log10Delta", e.isNullAt(e.fieldIndex("log10Delta")) ? Double.NaN : e.<Double>getAs("log10Delta"));
            x.put("relativeErrorBound", e.<Double>getAs("relativeErrorBound"));
            if (!e.isNullAt(e.fieldIndex("worstFrom"))) {
                x.putObject("worstNeighbour").put("from", e.<String>getAs("worstFrom")).put("to", e.<String>getAs("worstTo"))
                        .put("direction", e.<String>getAs("worstDirection"));
            } else {
                x.putNull("worstNeighbour");
            }
        }
        return p;
    }

    private static void printText(PrintWriter o, ObjectNode root, Summary s) {
        ObjectNode p = (ObjectNode) root.get("parameters");
        o.printf(Locale.ROOT, "precincts: %s, office %s, %d files, %d precincts (%d without ballots, %d with a one-ballot category)%n", p.get("data").asText(),
                p.get("office").asText(), root.get("files").asInt(), root.get("precinctCount").asLong(), s.empty(), s.oneBallot());
        o.printf(Locale.ROOT, "categories %s; %s%n", root.get("categories"), p.has("lostFraction") ? "lost fraction " + p.get("lostFraction").asText()
                : "sample fraction " + p.get("sampleFraction").asText());
        if (root.get("otherNames").size() > 0) {
            StringBuilder b = new StringBuilder();
            int shown = 0;
            for (var x : root.get("otherNames")) {
                if (shown++ == 6) {
                    break;
                }
                b.append(shown > 1 ? "; " : "").append(x.get("candidate").asText()).append(" (").append(x.get("votes").asLong()).append(')');
            }
            o.println("not a listed candidate (counted as 'other' or dropped): " + b + (root.get("otherNames").size() > 6 ? "; ..." : ""));
        }
        TEXT.printText(o, s.groups());
        o.println("(quantiles of log10 delta over the precincts with ballots; -inf: delta exactly 0; delta = T/n is the worst case of any neighbour)");
    }

    private static String q(double d) {
        return d == Double.NEGATIVE_INFINITY ? "-inf" : String.format(Locale.ROOT, "%.3f", d);
    }

    /** The text table of the summary. */
    static final Columns<PrecinctJob.Group> TEXT = Columns.<PrecinctJob.Group>of()
            .textOnly("county", "%-22s", g -> g.county() == null ? "(all)" : g.county()).textOnly("eps", "%-7s", g -> Double.toString(g.epsilon()))
            .textOnly("precincts", "%-9d", PrecinctJob.Group::precincts).textOnly("min", "%-9s", g -> q(g.quantiles()[0]))
            .textOnly("p10", "%-9s", g -> q(g.quantiles()[1])).textOnly("median", "%-9s", g -> q(g.quantiles()[2]))
            .textOnly("p90", "%-9s", g -> q(g.quantiles()[3])).textOnly("max", "%-9s", g -> q(g.quantiles()[4]))
            .textOnly("delta > 1/n", "%-11d", PrecinctJob.Group::aboveInverseN).textOnly("delta = T/n", "%d", PrecinctJob.Group::atWorstCase);

    private void write(OutputDir out, ObjectNode root, Dataset<Row> results, Summary s, double[] eps) {
        out.writeString("summary.csv", SUMMARY.csv(s.groups()));
        results.write().parquet(out.resolve("precincts.parquet").toUri().toString());
        results.select(col("county"), col("precinct"), concat_ws(";", col("counts").cast("array<string>")).as("counts"), col("n"), col("sampleSize"),
                col("dpDelta"), col("utility"), col("log10Utility"), explode(col("results")).as("r")).select(col("county"), col("precinct"), col("counts"), col("n"),
                        col("sampleSize"), col("dpDelta"), col("utility"), col("log10Utility"), col("r.epsilon").as("epsilon"), col("r.delta").as("delta"),
                        col("r.log10Delta").as("log10Delta"), col("r.relativeErrorBound").as("relativeErrorBound"), col("r.worstFrom").as("worstFrom"),
                        col("r.worstTo").as("worstTo"), col("r.worstDirection").as("worstDirection"))
                .coalesce(1).write().option("header", true).csv(out.resolve("precincts.csv").toUri().toString());
        results.coalesce(1).write().json(out.resolve("precincts.json").toUri().toString());
        // per eps the bars of a quarter decade of delta, (k/4 - 1/4, k/4] in log10 delta, drawn where they are (at most delta = 1)
        List<Plots.Series> series = new ArrayList<>();
        int i = 0;
        long withBallots = root.get("precinctCount").asLong() - s.empty();
        for (double e : eps) {
            TreeMap<Double, Long> h = s.histogram().getOrDefault(e, new TreeMap<>());
            long zero = s.groups().stream().filter(g -> g.county() == null && g.epsilon() == e).mapToLong(PrecinctJob.Group::exactlyZero).sum();
            if (h.isEmpty()) {
                continue;
            }
            double top = h.lastKey();
            int bins = (int) Math.round((top - h.firstKey()) * 4) + 1;
            double[] edges = new double[bins + 1];
            double[] counts = new double[bins];
            for (int b = 0; b <= bins; b++) {
                edges[b] = top - (bins - b) * 0.25;
            }
            for (Map.Entry<Double, Long> b : h.entrySet()) {
                counts[bins - 1 - (int) Math.round((top - b.getKey()) * 4)] += b.getValue();
            }
            String name = String.format(Locale.ROOT, "eps = %s (%,d precincts%s)", Plots.num(e), withBallots - zero,
                    zero > 0 ? String.format(Locale.ROOT, "; %,d with delta exactly 0 not drawn", zero) : "");
            series.add(Plots.histogram(name, edges, counts, Plots.color(i), i));
            i++;
        }
        String drawn = draw.sampleFraction != null ? "a sample of " + draw.sampleFraction + " of the ballots published"
                : draw.lostFraction + " of the ballots lost";
        Plots.figure(String.format(Locale.ROOT, "Precincts by delta: %,d precincts with ballots for %s, %s (bars of a quarter decade)", withBallots,
                selection.office(), drawn))
                .x("delta (log scale)", Plots.Scale.LOG10).y("precincts", Plots.Scale.LINEAR).yIncludes(0).addAll(series)
                .save(out.resolve("precincts.png"));
    }
}
