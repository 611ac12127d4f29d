package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

/**
 * Writes small result tables as RFC 4180 CSV (values are numbers and simple labels); reads small CSV
 * files on the driver with univocity (the parser Spark's own CSV source uses), keeping every row's
 * exact width.
 */
public final class Csv {
    private Csv() {
    }

    /** Every row of a small CSV file (header included) as its cells; a row keeps its own width. */
    public static List<String[]> parse(Path file) throws IOException {
        CsvParserSettings settings = new CsvParserSettings();
        settings.setLineSeparatorDetectionEnabled(true);
        settings.setMaxColumns(100_000);
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return new CsvParser(settings).parseAll(r);
        }
    }

    public static String table(List<String> header, List<List<Object>> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.join(",", header)).append('\n');
        for (List<Object> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(cell(r.get(i)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return Double.isFinite(d) ? repr(d) : "";
        }
        String s = v.toString();
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    /** Shortest repr that round-trips. */
    static String repr(double d) {
        return Double.toString(d).toLowerCase(Locale.ROOT);
    }
}
