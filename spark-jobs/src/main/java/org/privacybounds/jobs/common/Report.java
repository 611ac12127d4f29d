package org.privacybounds.jobs.common;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.spark.sql.SparkSession;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Model.CommandSpec;

/**
 * The last step every command shares: its result object printed as one JSON object ({@code --json}) or as text (heading
 * lines, then tables), and under {@code --out} written as {@code result.json} beside the tables (CSV, or Spark part files
 * and Parquet), plots and other files, then committed.
 *
 * <pre>{@code
 * Report.of(root).text(o -> o.printf("profile: n = %d%n", n)).table("results.csv", COLUMNS, rows).finish(spec, common, out);
 * }</pre>
 */
public final class Report {
    private final ObjectNode root;
    private final List<Consumer<PrintWriter>> text = new ArrayList<>();
    private final List<Consumer<PrintWriter>> log = new ArrayList<>();
    private final List<Consumer<OutputDir>> files = new ArrayList<>();
    private Consumer<PrintWriter> json;
    private String stage = "compute";
    private String announce;
    private final List<Runnable> afterCommit = new ArrayList<>();

    private Report(ObjectNode root) {
        this.root = root;
        this.json = o -> o.println(Json.write(root));
    }

    /** A report of the command's result object. */
    public static Report of(ObjectNode root) {
        return new Report(root);
    }

    /** Lines of the text output (not printed with --json), in the order added among the tables. */
    public Report text(Consumer<PrintWriter> lines) {
        text.add(lines);
        return this;
    }

    /** A table: printed in the text output, and written as {@code csvFile} under --out. */
    public <R> Report table(String csvFile, Columns<R> columns, List<R> rows) {
        text.add(o -> columns.printText(o, rows));
        files.add(out -> out.writeString(csvFile, columns.csv(rows)));
        return this;
    }

    /** A table written under --out as Spark part files and Parquet ({@link Columns#write}); not printed. */
    public <R> Report dataset(String name, Columns<R> columns, SparkSession spark, List<R> rows) {
        files.add(out -> columns.write(out, spark, name, rows));
        return this;
    }

    /** A CSV file written under --out; not printed. */
    public <R> Report csv(String csvFile, Columns<R> columns, List<R> rows) {
        files.add(out -> out.writeString(csvFile, columns.csv(rows)));
        return this;
    }

    /** Anything else written under --out (plots, extra files), in the order added, after result.json. */
    public Report write(Consumer<OutputDir> writer) {
        files.add(writer);
        return this;
    }

    /** How --json prints (default: the result object on one line); for results streamed row by row. */
    public Report json(Consumer<PrintWriter> printer) {
        json = printer;
        return this;
    }

    /** Lines on stderr after the result is printed and before the files are written (timings, notes). */
    public Report log(Consumer<PrintWriter> lines) {
        log.add(lines);
        return this;
    }

    /** The manifest's name for the time since the last mark (default "compute"), or null to record none. */
    public Report stage(String name) {
        stage = name;
        return this;
    }

    /** After the commit, print "{@code command}: wrote PATH" on stderr. */
    public Report announce(String command) {
        announce = command;
        return this;
    }

    /** Work to do once the folder is committed (removing a work folder of finished stages). */
    public Report afterCommit(Runnable step) {
        afterCommit.add(step);
        return this;
    }

    /** Prints the result, then, when {@code out} is not null, writes result.json and the files and commits the folder. */
    public void finish(CommandSpec spec, CommonOptions common, OutputDir out) {
        PrintWriter o = spec.commandLine().getOut();
        if (common.json) {
            json.accept(o);
        } else {
            text.forEach(t -> t.accept(o));
        }
        o.flush();
        PrintWriter err = spec.commandLine().getErr();
        log.forEach(l -> l.accept(err));
        if (out != null) {
            if (stage != null) {
                OutputDir.mark(out, stage);
            }
            out.writeString("result.json", Json.pretty(root) + "\n");
            files.forEach(f -> f.accept(out));
            String where = out.commit();
            if (announce != null) {
                err.println(announce + ": wrote " + where);
            }
            afterCommit.forEach(Runnable::run);
        }
    }
}
