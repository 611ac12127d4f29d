package org.privacybounds.jobs.common;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Model.CommandSpec;

/**
 * The last step every command shares: its result object printed as one JSON object ({@code --json}) or as text (heading
 * lines, then tables), and under {@code --out} written as {@code result.json} beside the tables' CSV files, then committed.
 *
 * <pre>{@code
 * Report.of(root).heading(o -> o.printf("profile: n = %d%n", n)).table("results.csv", COLUMNS, rows).finish(spec, common, out);
 * }</pre>
 */
public final class Report {
    private final ObjectNode root;
    private final List<Consumer<PrintWriter>> text = new ArrayList<>();
    private final Map<String, String> files = new LinkedHashMap<>();

    private Report(ObjectNode root) {
        this.root = root;
    }

    /** A report of the command's result object. */
    public static Report of(ObjectNode root) {
        return new Report(root);
    }

    /** Lines the text output starts with (not printed with --json). */
    public Report heading(Consumer<PrintWriter> lines) {
        text.add(lines);
        return this;
    }

    /** A table: printed in the text output, and written as {@code csvFile} under --out. */
    public <R> Report table(String csvFile, Columns<R> columns, List<R> rows) {
        text.add(o -> columns.printText(o, rows));
        files.put(csvFile, columns.csv(rows));
        return this;
    }

    /** Prints the result, then, when {@code out} is not null, writes result.json and the tables and commits the folder. */
    public void finish(CommandSpec spec, CommonOptions common, OutputDir out) {
        PrintWriter o = spec.commandLine().getOut();
        if (common.json) {
            o.println(Json.write(root));
        } else {
            text.forEach(t -> t.accept(o));
        }
        o.flush();
        if (out != null) {
            OutputDir.mark(out, "compute");
            out.writeString("result.json", Json.pretty(root) + "\n");
            files.forEach(out::writeString);
            out.commit();
        }
    }
}
