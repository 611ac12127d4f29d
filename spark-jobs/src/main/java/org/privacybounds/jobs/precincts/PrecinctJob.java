package org.privacybounds.jobs.precincts;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.smoothed.Direction;
import org.privacybounds.smoothed.PrecinctPrivacy;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

import scala.Tuple2;

/**
 * The distributed precinct job (Java API: the caller's session in, {@code Dataset<Row>} out). The executors read the
 * long-format files (one task per file, every file with its own header), keep the office's rows, put each candidate in its
 * category and sum one histogram per (county, precinct) with an explicit number of partitions; then every precinct's exact
 * {@code delta_eps(x)} ({@link PrecinctPrivacy}) on the executors. Every precinct is computed alone, so the result does
 * not depend on the partitioning; rows come out sorted by county and precinct. The driver only holds summaries.
 *
 * <p>Example (a DataFrame of (county, precinct, counts array&lt;long&gt;) you built; half the ballots published, eps = 1):
 * <pre>{@code
 * PrecinctPrivacy.Setting half = new PrecinctPrivacy.Setting(PrecinctPrivacy.Draw.SAMPLE_FRACTION, new BigDecimal("0.5"),
 *         new double[] {1.0}, 0.5);
 * Dataset<Row> privacy = PrecinctJob.evaluate(spark, counts, half, List.of("A", "B"), 2);   // one row per precinct
 * privacy.show();
 * }</pre>
 */
public final class PrecinctJob {
    private PrecinctJob() {
    }

    /** One row of the office: its precinct, candidate, category ({@link PrecinctReturns.Categories#DROPPED} or an index) and votes (-1: not a number). */
    public record Cell(String county, String precinct, String candidate, int category, long votes, String votesText, String file) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private static final StructType RESULT_ENTRY = new StructType().add("epsilon", DataTypes.DoubleType, false).add("delta", DataTypes.DoubleType, false)
            .add("log10Delta", DataTypes.DoubleType, true).add("relativeErrorBound", DataTypes.DoubleType, false)
            .add("worstFrom", DataTypes.StringType, true).add("worstTo", DataTypes.StringType, true).add("worstDirection", DataTypes.StringType, true);

    /** Columns of the per-precinct results: one entry of {@code results} per eps, in the order given. */
    public static final StructType RESULT = new StructType().add("county", DataTypes.StringType, false).add("precinct", DataTypes.StringType, false)
            .add("counts", DataTypes.createArrayType(DataTypes.LongType, false), false).add("n", DataTypes.LongType, false)
            .add("sampleSize", DataTypes.LongType, false).add("dpDelta", DataTypes.DoubleType, true).add("utility", DataTypes.DoubleType, true)
            .add("log10Utility", DataTypes.DoubleType, true).add("utilityRelativeErrorBound", DataTypes.DoubleType, true)
            .add("results", new ArrayType(RESULT_ENTRY, false), false);

    /** Every row of the office in the checked files, read and categorized on the executors (one task per file). */
    public static JavaRDD<Cell> cells(JavaSparkContext jsc, List<PrecinctReturns.Checked> files, PrecinctReturns.Columns columns, String office,
            PrecinctReturns.Categories categories) {
        // each file with its name as the user gave it (messages about a row name it so)
        List<String[]> paths = files.stream().map(f -> new String[] {f.file().toAbsolutePath().toString(), InputFiles.shown(f.file())}).toList();
        String officeKey = PrecinctReturns.key(office);
        return jsc.parallelize(paths, Math.max(1, paths.size())).flatMap(p -> read(Path.of(p[0]), p[1], columns, officeKey, categories).iterator());
    }

    /** The office's rows of one file (its header found by name, as {@link PrecinctReturns#check} did), {@code name} as given. */
    static List<Cell> read(Path file, String name, PrecinctReturns.Columns c, String officeKey, PrecinctReturns.Categories categories) {
        CsvParserSettings settings = new CsvParserSettings();
        settings.setLineSeparatorDetectionEnabled(true);
        settings.setMaxColumns(100_000);
        settings.setMaxCharsPerColumn(1 << 20);
        settings.setReadInputOnSeparateThread(false);
        CsvParser parser = new CsvParser(settings);
        List<Cell> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            parser.beginParsing(r);
            String[] header = parser.parseNext();
            int county = index(header, c.county());
            int precinct = index(header, c.precinct());
            int office = index(header, c.office());
            int candidate = index(header, c.candidate());
            int votes = index(header, c.votes());
            for (String[] row; (row = parser.parseNext()) != null;) {
                if (!PrecinctReturns.key(cell(row, office)).equals(officeKey)) {
                    continue;
                }
                String cand = cell(row, candidate);
                String v = cell(row, votes);
                out.add(new Cell(cell(row, county), cell(row, precinct), cand, categories.of(cand), PrecinctReturns.votes(v), v, name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        } finally {
            parser.stopParsing();
        }
        return out;
    }

    private static int index(String[] header, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i] != null && header[i].trim().equalsIgnoreCase(name.trim())) {
                return i;
            }
        }
        throw new IllegalStateException("column " + name + " vanished after the check");
    }

    private static String cell(String[] row, int i) {
        return i < row.length && row[i] != null ? row[i].trim() : "";
    }

    /** The key of a precinct: county, NUL, precinct (NUL sorts first, so keys sort by county, then precinct). */
    static String key(String county, String precinct) {
        return county + '\u0000' + precinct;
    }

    /**
     * One histogram per precinct: the votes of each category summed over the rows of one (county, precinct, candidate) and
     * over the candidates of a category, in {@code partitions} hash partitions. A precinct whose rows are all excluded has
     * all counts 0. Rows with a vote count that is not a number must have been refused before.
     */
    public static JavaPairRDD<String, long[]> histograms(JavaRDD<Cell> cells, int categories, int partitions) {
        return cells.mapToPair(c -> {
            long[] h = new long[categories];
            if (c.category() >= 0 && c.votes() > 0) {
                h[c.category()] = c.votes();
            }
            return new Tuple2<>(key(c.county(), c.precinct()), h);
        }).reduceByKey((a, b) -> {
            long[] s = a.clone();
            for (int i = 0; i < s.length; i++) {
                s[i] += b[i];
            }
            return s;
        }, partitions);
    }

    /** Every precinct's figures as rows of {@link #RESULT}, computed on the executors, sorted by county and precinct. */
    public static Dataset<Row> evaluate(SparkSession spark, JavaPairRDD<String, long[]> histograms, PrecinctPrivacy.Setting setting, List<String> categoryNames,
            int partitions) {
        List<String> names = List.copyOf(categoryNames);
        JavaRDD<Row> rows = histograms.sortByKey(true, partitions).map(t -> evaluate(t._1(), t._2(), setting, names));
        return spark.createDataFrame(rows, RESULT);
    }

    /**
     * The same for histograms given as a {@code Dataset<Row>} with columns {@code county} (string), {@code precinct} (string)
     * and {@code counts} (array&lt;long&gt;), read by name.
     */
    public static Dataset<Row> evaluate(SparkSession spark, Dataset<Row> histograms, PrecinctPrivacy.Setting setting, List<String> categoryNames,
            int partitions) {
        List<String> columns = List.of(histograms.columns());
        for (String c : List.of("county", "precinct", "counts")) {
            if (!columns.contains(c)) {
                throw new BadInputException(Parameter.HISTOGRAMS, columns, "needs the columns county, precinct and counts (array<long>)");
            }
        }
        JavaPairRDD<String, long[]> h = histograms.select("county", "precinct", "counts").javaRDD().mapToPair(r -> {
            List<Long> c = r.getList(2);
            long[] counts = new long[c.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = c.get(i);
            }
            return new Tuple2<>(key(r.getString(0), r.getString(1)), counts);
        });
        return evaluate(spark, h, setting, categoryNames, partitions > 0 ? partitions : h.getNumPartitions());
    }

    static Row evaluate(String key, long[] counts, PrecinctPrivacy.Setting setting, List<String> names) {
        int cut = key.indexOf('\u0000');
        String county = key.substring(0, cut);
        String precinct = key.substring(cut + 1);
        int[] c = new int[counts.length];
        long total = 0;
        Long[] boxed = new Long[counts.length];
        for (int i = 0; i < c.length; i++) {
            total += counts[i];
            if (total > Integer.MAX_VALUE) {
                throw new BadInputException("--data", county + " / " + precinct, "a precinct of more than " + Integer.MAX_VALUE
                        + " ballots");
            }
            c[i] = (int) counts[i];
            boxed[i] = counts[i];
        }
        PrecinctPrivacy.Result r = PrecinctPrivacy.evaluate(c, setting);
        double[] eps = setting.epsilons();
        Row[] results = new Row[r.values().size()];
        for (int e = 0; e < results.length; e++) {
            ProfileValue v = r.values().get(e);
            String from = v.worst() == null ? null : names.get(v.worst().from());
            String to = v.worst() == null ? null : names.get(v.worst().to());
            String dir = v.worst() == null ? null : v.worst().direction() == Direction.X_TO_NEIGHBOR ? "x->x'" : "x'->x";
            results[e] = RowFactory.create(eps[e], v.delta(), finite(v.log10Delta()), v.relativeErrorBound(), from, to, dir);
        }
        Double utility = r.utility() == null ? null : r.utility().utility();
        Double log10Utility = r.utility() == null ? null : finite(r.utility().log10Utility());
        Double utilityErr = r.utility() == null ? null : r.utility().relativeErrorBound();
        Double dp = r.n() == 0 ? null : Math.exp(r.logDpDelta());
        return RowFactory.create(county, precinct, boxed, r.n(), (long) r.sampleSize(), dp, utility, log10Utility, utilityErr, results);
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /**
     * The distribution of log10 delta over precincts with ballots, per group (county, or "(all)") and eps: quantiles (linear
     * interpolation between order statistics, as Spark's percentile), the number above 1/n and of exact zeros, and a histogram
     * in bins of 0.25, each keyed by its upper end (delta > 0 only), and the number at the worst case delta = T/n. Computed on the executors; the driver receives one small record per group.
     */
    public record Group(String county, double epsilon, long precincts, double[] quantiles, long aboveInverseN, long atWorstCase, long exactlyZero,
            TreeMap<Double, Long> bins)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    public static List<Group> summarize(Dataset<Row> results, double[] quantiles, int partitions) {
        JavaPairRDD<Tuple2<String, Double>, double[]> values = results.javaRDD().filter(r -> r.<Long>getAs("n") > 0).flatMapToPair(r -> {
            List<Tuple2<Tuple2<String, Double>, double[]>> out = new ArrayList<>();
            double n = r.<Long>getAs("n");
            double dp = r.<Long>getAs("sampleSize") / n;
            for (Row e : r.<Row>getList(r.fieldIndex("results"))) {
                double epsilon = e.getAs("epsilon");
                double delta = e.getAs("delta");
                double log10 = e.isNullAt(e.fieldIndex("log10Delta")) ? Double.NEGATIVE_INFINITY : e.<Double>getAs("log10Delta");
                // delta = T/n: the worst case of any neighbour (a category with no or one ballot reaches it)
                double[] v = {log10, delta > 1 / n ? 1 : 0, Math.abs(delta - dp) <= 1e-9 * dp ? 1 : 0};
                out.add(new Tuple2<>(new Tuple2<>(r.<String>getAs("county"), epsilon), v));
                out.add(new Tuple2<>(new Tuple2<>("", epsilon), v));
            }
            return out.iterator();
        });
        List<Group> groups = new ArrayList<>(values.groupByKey(partitions).map(g -> {
            List<double[]> list = new ArrayList<>();
            g._2().forEach(list::add);
            double[] sorted = list.stream().mapToDouble(v -> v[0]).sorted().toArray();
            double[] q = new double[quantiles.length];
            for (int i = 0; i < q.length; i++) {
                double pos = quantiles[i] * (sorted.length - 1);
                int lo = (int) Math.floor(pos);
                int hi = Math.min(sorted.length - 1, lo + 1);
                // an exact zero (-inf) below the position is the quantile itself: no interpolation with it
                q[i] = pos == lo || Double.isInfinite(sorted[lo]) ? sorted[lo] : sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
            }
            long above = list.stream().filter(v -> v[1] > 0).count();
            long worst = list.stream().filter(v -> v[2] > 0).count();
            long zero = Arrays.stream(sorted).filter(x -> x == Double.NEGATIVE_INFINITY).count();
            TreeMap<Double, Long> bins = new TreeMap<>();
            if (g._1()._1().isEmpty()) {
                for (double x : sorted) {
                    if (Double.isFinite(x)) {
                        bins.merge(Math.ceil(x * 4) / 4 + 0.0, 1L, Long::sum); // the bin (key - 1/4, key] (+ 0.0: no -0.0 key): delta = 1 falls in (-1/4, 0]
                    }
                }
            }
            return new Group(g._1()._1().isEmpty() ? null : g._1()._1(), g._1()._2(), sorted.length, q, above, worst, zero, bins);
        }).collect());
        groups.sort(Comparator.comparing((Group g) -> g.county() == null ? "" : "\u0001" + g.county()).thenComparingDouble(Group::epsilon));
        return groups;
    }
}
