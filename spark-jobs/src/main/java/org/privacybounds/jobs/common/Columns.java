package org.privacybounds.jobs.common;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privacybounds.guarantee.Verdict;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The columns of one result record, declared once (name, type, getter) and rendered as a JSON object, a CSV table, a
 * Parquet schema and rows, a {@code Dataset<Row>} and the text table a command prints. A double that is not finite
 * (log10 of 0, an undefined ratio) is null in JSON, Parquet and Datasets and an empty cell in CSV. A column may also be
 * shown in the text table, with its own header and format; a text-only column has no data type.
 *
 * <p>Example:
 * <pre>{@code
 * record Point(long n, double delta) {}
 * Columns<Point> cols = Columns.<Point>of().integer("n", Point::n).shown("n", "%-8d")
 *         .number("delta", Point::delta).shown("delta", "%.4e");
 * String csv = cols.csv(List.of(new Point(10, 0.5)));   // "n,delta\n10,0.5\n"
 * }</pre>
 *
 * @param <T> the result record
 */
public final class Columns<T> {
    /** One column: its name and Spark type (null when shown only in text), its getter, and its text header and format (null when not shown). */
    public record Column<T>(String name, DataType type, Function<? super T, ?> getter, String textHeader, String textFormat) {
    }

    private final List<Column<T>> columns;

    private Columns(List<Column<T>> columns) {
        this.columns = List.copyOf(columns);
    }

    /** No columns yet. */
    public static <T> Columns<T> of() {
        return new Columns<>(List.of());
    }

    private Columns<T> with(Column<T> c) {
        List<Column<T>> l = new ArrayList<>(columns);
        l.add(c);
        return new Columns<>(l);
    }

    /** A text column. */
    public Columns<T> string(String name, Function<? super T, String> getter) {
        return with(new Column<>(name, DataTypes.StringType, getter, null, null));
    }

    /** A double column (not finite: null). */
    public Columns<T> number(String name, ToDoubleFunction<? super T> getter) {
        return with(new Column<>(name, DataTypes.DoubleType, t -> getter.applyAsDouble(t), null, null));
    }

    /** A double column that may be absent (null). */
    public Columns<T> optionalNumber(String name, Function<? super T, Double> getter) {
        return with(new Column<>(name, DataTypes.DoubleType, getter, null, null));
    }

    /** A whole-number column (written as a long). */
    public Columns<T> integer(String name, ToLongFunction<? super T> getter) {
        return with(new Column<>(name, DataTypes.LongType, t -> getter.applyAsLong(t), null, null));
    }

    /** A 32-bit whole-number column (an int in Parquet and Datasets). */
    public Columns<T> int32(String name, ToIntFunction<? super T> getter) {
        return with(new Column<>(name, DataTypes.IntegerType, t -> getter.applyAsInt(t), null, null));
    }

    /** A boolean column. */
    public Columns<T> bool(String name, Predicate<? super T> getter) {
        return with(new Column<>(name, DataTypes.BooleanType, t -> getter.test(t), null, null));
    }

    /** A yes/no verdict as a boolean column: true, false, or null (empty in CSV, "-" in text) when undecided. */
    public Columns<T> verdict(String name, Function<? super T, Verdict> getter) {
        return with(new Column<>(name, DataTypes.BooleanType, t -> getter.apply(t).asBoolean(), null, null));
    }

    /** Shows the last column in the text table under {@code header}, formatted by {@code format} (a printf pattern). */
    public Columns<T> shown(String header, String format) {
        Column<T> last = columns.get(columns.size() - 1);
        List<Column<T>> l = new ArrayList<>(columns.subList(0, columns.size() - 1));
        l.add(new Column<>(last.name(), last.type(), last.getter(), header, format));
        return new Columns<>(l);
    }

    /** A column of the text table only (a derived view, e.g. log10 of another column). */
    public Columns<T> textOnly(String header, String format, Function<? super T, ?> getter) {
        return with(new Column<>(header, null, getter, header, format));
    }

    /** These columns read through {@code f}: the columns of a part of a larger record. */
    public <S> Columns<S> on(Function<? super S, ? extends T> f) {
        List<Column<S>> l = new ArrayList<>();
        for (Column<T> c : columns) {
            Function<? super T, ?> g = c.getter();
            l.add(new Column<S>(c.name(), c.type(), s -> g.apply(f.apply(s)), c.textHeader(), c.textFormat()));
        }
        return new Columns<>(l);
    }

    /** These columns followed by {@code more}. */
    public Columns<T> then(Columns<T> more) {
        List<Column<T>> l = new ArrayList<>(columns);
        l.addAll(more.columns);
        return new Columns<>(l);
    }

    /** Every column, in order. */
    public List<Column<T>> columns() {
        return columns;
    }

    private List<Column<T>> data() {
        return columns.stream().filter(c -> c.type() != null).toList();
    }

    /** The data columns' names. */
    public List<String> names() {
        return data().stream().map(Column::name).toList();
    }

    /** The data columns as a Spark schema (every column nullable). */
    public StructType schema() {
        StructType s = new StructType();
        for (Column<T> c : data()) {
            s = s.add(c.name(), c.type(), true);
        }
        return s;
    }

    /** One record's values, in column order (doubles as they are; writers map non-finite ones). */
    public List<Object> row(T record) {
        List<Object> out = new ArrayList<>();
        for (Column<T> c : data()) {
            out.add(c.getter().apply(record));
        }
        return out;
    }

    /** The records' values. */
    public List<List<Object>> rows(Collection<? extends T> records) {
        List<List<Object>> out = new ArrayList<>();
        for (T r : records) {
            out.add(row(r));
        }
        return out;
    }

    /** A CSV table with a header row. */
    public String csv(Collection<? extends T> records) {
        return Csv.table(names(), rows(records));
    }

    /** One record as a JSON object, in column order. */
    public ObjectNode json(T record) {
        ObjectNode o = Json.object();
        for (Column<T> c : data()) {
            Object v = c.getter().apply(record);
            if (v == null) {
                o.putNull(c.name());
            } else if (v instanceof Double d) {
                Json.put(o, c.name(), d);
            } else if (v instanceof Long l) {
                o.put(c.name(), l);
            } else if (v instanceof Integer i) {
                o.put(c.name(), i);
            } else if (v instanceof Boolean b) {
                o.put(c.name(), b);
            } else {
                o.put(c.name(), v.toString());
            }
        }
        return o;
    }

    /** The records as a JSON array of objects. */
    public ArrayNode json(Collection<? extends T> records) {
        ArrayNode a = Json.array();
        records.forEach(r -> a.add(json(r)));
        return a;
    }

    /** The records as a {@code Dataset<Row>} of {@link #schema()} on the caller's session. */
    public Dataset<Row> dataset(SparkSession spark, Collection<? extends T> records) {
        List<Row> out = new ArrayList<>();
        for (List<Object> r : rows(records)) {
            Object[] v = r.toArray();
            for (int i = 0; i < v.length; i++) {
                if (v[i] instanceof Double d && !Double.isFinite(d)) {
                    v[i] = null;
                }
            }
            out.add(RowFactory.create(v));
        }
        return spark.createDataFrame(out, schema());
    }

    /** Writes the records as {@code name.csv} and {@code name.parquet} in the output folder (spark may be null: see {@link OutputDir#writeParquet}). */
    public void write(OutputDir out, SparkSession spark, String name, Collection<? extends T> records) {
        out.writeString(name + ".csv", csv(records));
        out.writeParquet(spark, name + ".parquet", schema(), rows(records));
    }

    /**
     * The text table: a header line of the shown columns, then one line per record. Each column is as wide as its widest cell
     * (at least its format's width), so a long value never pushes the columns after it out of line.
     */
    public void printText(PrintWriter o, Collection<? extends T> records) {
        List<Column<T>> shown = columns.stream().filter(c -> c.textHeader() != null).toList();
        List<String[]> lines = new ArrayList<>();
        String[] header = new String[shown.size()];
        int[] width = new int[shown.size()];
        boolean[] left = new boolean[shown.size()];
        for (int i = 0; i < shown.size(); i++) {
            header[i] = shown.get(i).textHeader();
            Matcher m = WIDTH.matcher(shown.get(i).textFormat());
            String w = m.lookingAt() ? m.group(1) : "";
            left[i] = w.startsWith("-") || w.isEmpty();
            width[i] = Math.max(header[i].length(), w.replace("-", "").isEmpty() ? 0 : Integer.parseInt(w.replace("-", "")));
        }
        for (T r : records) {
            String[] cells = new String[shown.size()];
            for (int i = 0; i < shown.size(); i++) {
                cells[i] = cell(shown.get(i).textFormat(), shown.get(i).getter().apply(r)).strip();
                width[i] = Math.max(width[i], cells[i].length());
            }
            lines.add(cells);
        }
        o.println(join(header, width, left));
        for (String[] cells : lines) {
            o.println(join(cells, width, left));
        }
    }

    /**
     * {@link #printText} of the first {@code limit} records and, when there are more, one line that says how many and where they
     * are: {@code where} (e.g. "rows.csv in out/pabi", or "rerun with --out DIR for rows.csv, or --json").
     */
    public void printText(PrintWriter o, List<? extends T> records, int limit, String where) {
        printText(o, records.subList(0, Math.min(limit, records.size())));
        if (records.size() > limit) {
            o.printf(Locale.ROOT, "... %,d more rows: %s%n", records.size() - limit, where);
        }
    }

    private static String join(String[] cells, int[] width, boolean[] left) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i];
            String pad = " ".repeat(Math.max(0, width[i] - c.length()));
            b.append(i > 0 ? " " : "").append(left[i] ? c + pad : pad + c);
        }
        return b.toString().stripTrailing();
    }

    /**
     * A probability for the text table in the style of {@code %.6e}, from its log10 where the double has underflowed (0 or
     * subnormal: 10^-2141 would print as 0.000000e+00 beside its own log10): "1.084935e-2141".
     */
    public static String scientific(double value, double log10) {
        if (value >= Double.MIN_NORMAL || value < 0 || !Double.isFinite(log10)) {
            return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6e", value) : Double.isNaN(value) ? "-" : value > 0 ? "inf" : "-inf";
        }
        double exponent = Math.floor(log10);
        double mantissa = Math.pow(10, log10 - exponent);
        String digits = String.format(Locale.ROOT, "%.6f", mantissa);
        if (digits.startsWith("10")) {
            exponent += 1;
            digits = String.format(Locale.ROOT, "%.6f", mantissa / 10);
        }
        return String.format(Locale.ROOT, "%se%s%02d", digits, exponent < 0 ? "-" : "+", (long) Math.abs(exponent));
    }

    private static final Pattern WIDTH = Pattern.compile("%(-?\\d*)");

    /** The header's format: the cell's width and alignment as a string ("%-14.4e" -> "%-14s"). */
    static String headerFormat(String format) {
        Matcher m = WIDTH.matcher(format);
        return m.lookingAt() ? "%" + m.group(1) + "s" : "%s";
    }

    private static String cell(String format, Object v) {
        if (v == null || (v instanceof Double d && !Double.isFinite(d))) {
            String shown = v == null || Double.isNaN((Double) v) ? "-" : (Double) v > 0 ? "inf" : "-inf";
            return String.format(Locale.ROOT, headerFormat(format), shown);
        }
        return String.format(Locale.ROOT, format, v);
    }
}
