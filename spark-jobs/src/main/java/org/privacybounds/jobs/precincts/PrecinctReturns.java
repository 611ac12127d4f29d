package org.privacybounds.jobs.precincts;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.jobs.common.HadoopLocations;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.UserInputException;

/**
 * Precinct returns in long format (one row per precinct, office and candidate), read as published: every file with its own
 * header (found by name, case-insensitive, any order; extra and empty trailing columns ignored), as a Spark
 * {@code Dataset<Row>} of strings {@code file, county, precinct, office, candidate, votes}.
 *
 * <p>Categories: the candidates in the given order, then {@code other} (every remaining candidate of the office) unless
 * dropped; rows named in {@code exclude} are not ballots. Names match after trimming, collapsing blanks and ignoring case;
 * {@code aliases} map a spelling to a candidate ({@code Jorgensen/Cohe} to {@code Jo Jorgensen}).
 */
public final class PrecinctReturns {
    private PrecinctReturns() {
    }

    /** The header names of the five columns (defaults county, precinct, office, candidate, votes). */
    public record Columns(String county, String precinct, String office, String candidate, String votes) implements Serializable {
        private static final long serialVersionUID = 1L;

        public static Columns defaults() {
            return new Columns("county", "precinct", "office", "candidate", "votes");
        }

        List<String[]> named() {
            return List.of(new String[] {"--county-column", county}, new String[] {"--precinct-column", precinct}, new String[] {"--office-column", office},
                    new String[] {"--candidate-column", candidate}, new String[] {"--votes-column", votes});
        }
    }

    /**
     * How candidate names become categories: {@code candidates} in order, then other (when {@code other}), excluded names
     * dropped, aliases applied first.
     */
    public record Categories(List<String> candidates, boolean other, Set<String> exclude, Map<String, String> aliases) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Index for {@code EXCLUDED} rows (not ballots) and for remaining names when there is no other category. */
        public static final int DROPPED = -1;

        public Categories {
            if (candidates.isEmpty()) {
                throw new UserInputException("--candidates", "(none)", "name at least one candidate");
            }
            Map<String, Integer> seen = new LinkedHashMap<>();
            for (String c : candidates) {
                if (seen.put(key(c), seen.size()) != null) {
                    throw new UserInputException("--candidates", c, "is listed twice");
                }
                if (exclude.stream().anyMatch(x -> key(x).equals(key(c)))) {
                    throw new UserInputException("--exclude", c, "is also a candidate");
                }
            }
            for (Map.Entry<String, String> a : aliases.entrySet()) {
                if (!seen.containsKey(key(a.getValue()))) {
                    throw new UserInputException("--alias", a.getKey() + "=" + a.getValue(), "must map a spelling to one of --candidates");
                }
            }
            candidates = List.copyOf(candidates);
            exclude = Set.copyOf(exclude.stream().map(PrecinctReturns::key).toList());
            Map<String, String> keyed = new LinkedHashMap<>();
            aliases.forEach((k, v) -> keyed.put(key(k), key(v)));
            aliases = Map.copyOf(keyed);
        }

        /** The category names in order: the candidates, then "other" if kept. */
        public List<String> names() {
            List<String> n = new ArrayList<>(candidates);
            if (other) {
                n.add("other");
            }
            return n;
        }

        /** The category of a candidate name, or {@link #DROPPED}. */
        public int of(String name) {
            String k = key(name);
            k = aliases.getOrDefault(k, k);
            if (exclude.contains(k)) {
                return DROPPED;
            }
            for (int i = 0; i < candidates.size(); i++) {
                if (key(candidates.get(i)).equals(k)) {
                    return i;
                }
            }
            return other ? candidates.size() : DROPPED;
        }

        /** True when the name is excluded (not a ballot). */
        public boolean excluded(String name) {
            String k = key(name);
            return exclude.contains(aliases.getOrDefault(k, k));
        }
    }

    /** A name as matched: trimmed, blanks collapsed, lower case. */
    static String key(String name) {
        return name == null ? "" : name.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** The CSV files of {@code --data}: the file itself, or every *.csv directly in the folder (sorted). */
    public static List<Path> files(String data) {
        return files("--data", data);
    }

    /** {@link #files(String)} given as option {@code option} (its errors name it). */
    public static List<Path> files(String option, String data) {
        if (data == null || data.isBlank()) {
            throw new UserInputException(option, "\"\"", "name a CSV file or a folder of CSV files");
        }
        Path p = HadoopLocations.isRemote(data) ? HadoopLocations.download(option, data, true) : HadoopLocations.local(option, data);
        if (Files.isDirectory(p)) {
            try (Stream<Path> s = Files.list(p)) {
                List<Path> csv = s.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv") && Files.isRegularFile(f)).sorted().toList();
                if (csv.isEmpty()) {
                    throw new UserInputException(option, data, "is a folder without *.csv files");
                }
                return csv;
            } catch (IOException e) {
                throw new UserInputException(option, data, "cannot be listed (" + e.getMessage() + ")");
            }
        }
        return List.of(InputFiles.file(option, p));
    }

    /** What the streaming check found in one file: its path, header names, full header width and data rows. */
    public record Checked(Path file, List<String> header, int width, long rows) {
    }

    /** Checks every file before Spark reads it (one streaming pass each) and finds the five columns in each header. */
    public static List<Checked> check(List<Path> files, Columns c) {
        return check("--data", files, c);
    }

    /** {@link #check(List, Columns)} for files given as option {@code option} (its errors name it). */
    public static List<Checked> check(String option, List<Path> files, Columns c) {
        List<Checked> out = new ArrayList<>();
        for (Path f : files) {
            InputFiles.CsvShape shape = InputFiles.checkCsv(option, f);
            for (String[] want : c.named()) {
                if (find(shape.header(), want[1]) == null) {
                    throw new UserInputException(want[0], want[1], "is not a column of " + InputFiles.shown(f) + " (columns: " + String.join(", ", shape.header())
                            + "; names match without regard to case)");
                }
            }
            out.add(new Checked(f, shape.header(), shape.width(), shape.rows()));
        }
        return out;
    }

    private static String find(List<String> header, String name) {
        for (String h : header) {
            if (h.trim().equalsIgnoreCase(name.trim())) {
                return h;
            }
        }
        return null;
    }

    /**
     * Every file's rows as strings {@code file, county, precinct, office, candidate, votes}. Each file is read with the schema
     * its check found (every column a string), so Spark starts no job per file to look at headers; the check has already
     * refused ragged rows.
     */
    public static Dataset<Row> read(SparkSession spark, List<Checked> files, Columns c) {
        Dataset<Row> all = null;
        for (Checked f : files) {
            StructType schema = new StructType();
            for (int i = 0; i < f.width(); i++) {
                String name = i < f.header().size() ? f.header().get(i) : "_blank" + i;
                schema = schema.add(name.isEmpty() ? "_blank" + i : name, DataTypes.StringType, true);
            }
            Dataset<Row> raw = spark.read().schema(schema).option("header", true).option("enforceSchema", true).option("mode", "PERMISSIVE")
                    .csv(InputFiles.sparkPath(f.file()));
            Dataset<Row> one = raw.select(lit(f.file().getFileName().toString()).as("file"), column(raw, c.county()).as("county"),
                    column(raw, c.precinct()).as("precinct"), column(raw, c.office()).as("office"), column(raw, c.candidate()).as("candidate"),
                    column(raw, c.votes()).as("votes"));
            all = all == null ? one : all.unionAll(one);
        }
        return all;
    }

    private static Column column(Dataset<Row> raw, String name) {
        for (String h : raw.columns()) {
            if (h.trim().equalsIgnoreCase(name.trim())) {
                return col("`" + h.replace("`", "``") + "`");
            }
        }
        throw new UserInputException("--data", name, "column vanished between the check and the read");
    }

    /**
     * A vote count as published: digits, optionally with thousands separators ({@code "1,089"}); blank counts as 0. Returns
     * -1 for anything else.
     */
    public static long votes(String text) {
        if (text == null) {
            return 0;
        }
        String t = text.trim();
        if (t.isEmpty()) {
            return 0;
        }
        if (t.matches("\\d{1,3}(,\\d{3})+")) {
            t = t.replace(",", "");
        }
        if (!t.matches("\\d{1,12}")) {
            return -1;
        }
        return Long.parseLong(t);
    }
}
