package org.privacybounds.jobs.pufferfish;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.trim;
import static org.apache.spark.sql.functions.when;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.pufferfish.DiscreteLaw;

/**
 * The per-secret conditional laws of a query on a CSV file: {@code groupBy(secret, value).count()} in
 * Spark, collected as one {@link DiscreteLaw} per secret value (the empirical prior of the file).
 */
final class ConditionalLaws {
    /** The laws in secret order, and what was read. */
    record Result(Map<String, DiscreteLaw> laws, long rows, long rowsWithoutSecret, long droppedValues, List<Row> counts) {
    }

    private ConditionalLaws() {
    }

    /**
     * @param query   {@code identity} (the value must be numeric), {@code indicator:LEVEL} (1 if the value is LEVEL, else 0)
     *                or {@code map:a=0,b=1} (every value must be listed)
     * @param secrets the secret values to keep, or null for every value present
     */
    static Result read(SparkSession spark, Path file, String valueColumn, String secretColumn, String query, List<String> secrets,
            boolean dropNonNumeric) {
        Path input = InputFiles.file("--data", file);
        Dataset<Row> df = spark.read().option("header", true).option("inferSchema", false).csv(InputFiles.sparkPath(input));
        List<String> columns = Arrays.asList(df.columns());
        for (String[] c : new String[][] {{"--value-column", valueColumn}, {"--secret-column", secretColumn}}) {
            if (!columns.contains(c[1])) {
                throw new UserInputException(c[0], c[1], "must be a column of " + InputFiles.shown(file) + " (" + String.join(", ", columns) + ")");
            }
        }
        // the value is derived from the trimmed column "raw" of this projection (try_cast needs a name: Spark 4's ANSI mode makes
        // a plain cast of "at_home" an error, where the null is what tells a non-numeric value)
        Dataset<Row> trimmed = df.select(trim(col(secretColumn)).as("secret"), trim(col(valueColumn)).as("raw"));
        Dataset<Row> d = trimmed.select(col("secret"), col("raw"), queryColumn(col("raw"), query).as("value")).cache();
        try {
            long rows = d.count();
            long noSecret = d.filter(col("secret").isNull().or(col("secret").equalTo(""))).count();
            Dataset<Row> withSecret = d.filter(col("secret").isNotNull().and(col("secret").notEqual("")));
            Dataset<Row> bad = withSecret.filter(col("value").isNull());
            long badCount = bad.count();
            if (badCount > 0 && !dropNonNumeric) {
                Row first = bad.first();
                throw new UserInputException("--value-column", valueColumn + " value '" + (first.isNullAt(first.fieldIndex("raw")) ? "" : first.<String>getAs("raw")) + "'",
                        (query.equals("identity") ? "must be numeric" : "is not covered by --query " + query) + " (" + badCount
                                + " such rows; --drop-non-numeric skips them)");
            }
            Dataset<Row> good = withSecret.filter(col("value").isNotNull());
            if (secrets != null) {
                good = good.filter(col("secret").isin(secrets.toArray()));
            }
            List<Row> counts = good.groupBy("secret", "value").count().collectAsList();
            Map<String, TreeMap<Double, Long>> by = new TreeMap<>(secretOrder());
            for (Row r : counts) {
                by.computeIfAbsent(r.<String>getAs("secret"), k -> new TreeMap<>()).put(r.<Double>getAs("value"), r.<Long>getAs("count"));
            }
            if (secrets != null) {
                for (String s : secrets) {
                    if (!by.containsKey(s)) {
                        throw new UserInputException("--secrets", s, "the secret group " + secretColumn + " = '" + s + "' is empty (no rows with a value)");
                    }
                }
            }
            if (by.size() < 2) {
                throw new UserInputException("--secret-column", secretColumn, "needs at least two secret values with data (found " + by.keySet() + ")");
            }
            Map<String, DiscreteLaw> laws = new LinkedHashMap<>();
            by.forEach((k, v) -> laws.put(k, DiscreteLaw.of(v)));
            List<Row> sorted = new ArrayList<>(counts);
            sorted.sort(Comparator.<Row, String>comparing(r -> r.getAs("secret"), secretOrder()).thenComparingDouble(r -> r.<Double>getAs("value")));
            return new Result(laws, rows, noSecret, badCount, sorted);
        } finally {
            d.unpersist();
        }
    }

    /** Numbers in numeric order, then text. */
    static Comparator<String> secretOrder() {
        return (a, b) -> {
            Double x = number(a);
            Double y = number(b);
            if (x != null && y != null) {
                int c = Double.compare(x, y);
                return c != 0 ? c : a.compareTo(b);
            }
            if (x != null || y != null) {
                return x != null ? -1 : 1;
            }
            return a.compareTo(b);
        };
    }

    private static Double number(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The value of {@code raw} (the projection's column named "raw") under the query; null where the query does not cover it. */
    private static Column queryColumn(Column raw, String query) {
        String q = query.trim();
        String lower = q.toLowerCase(Locale.ROOT);
        if (lower.equals("identity")) {
            return expr("try_cast(raw AS DOUBLE)");
        }
        if (lower.startsWith("indicator:") && q.length() > 10) {
            return when(raw.isNull(), lit(null).cast("double")).when(raw.equalTo(q.substring(10)), lit(1.0)).otherwise(lit(0.0));
        }
        if (lower.startsWith("map:") && q.length() > 4) {
            Column c = null;
            for (String part : q.substring(4).split(",")) {
                int eq = part.lastIndexOf('=');
                if (eq <= 0) {
                    throw new UserInputException("--query", query, "map: needs LEVEL=NUMBER pairs, e.g. map:<=50K=0,>50K=1");
                }
                double v;
                try {
                    v = Double.parseDouble(part.substring(eq + 1).trim());
                } catch (NumberFormatException e) {
                    throw new UserInputException("--query", query, "map: needs LEVEL=NUMBER pairs, e.g. map:<=50K=0,>50K=1");
                }
                Column cond = raw.equalTo(part.substring(0, eq).trim());
                c = c == null ? when(cond, lit(v)) : c.when(cond, lit(v));
            }
            return c.otherwise(lit(null).cast("double"));
        }
        throw new UserInputException("--query", query, "allowed: identity, indicator:LEVEL, map:LEVEL=NUMBER,...");
    }
}
