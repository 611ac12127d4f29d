package org.privacybounds.jobs.pufferfish;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Progress;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.pufferfish.Sensitivities;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Table 1 of the Renyi Pufferfish paper from the three UCI files, beside the printed values, with
 * the two printed numbers that do not reproduce marked (docs/commands/pufferfish-sensitivity.md).
 */
final class Table1 {
    /** One row: file, columns, query, declared domain (DP sensitivity), the paper's three printed numbers. */
    record Spec(String name, String file, String value, String secret, String query, Double domainWidth, String paperDelta, double paperWInf,
            double paperW2, String noteWInf, String noteW2) {
    }

    private static final List<Spec> ROWS = List.of(
            new Spec("Student Scores", "uci_student_mat.csv", "G3", "paid", "identity", 20.0, "20", 8, 2.76, null,
                    "misprint: the exact W_2 is 2.2760 (sqrt(200643/38734)); 2.76 drops a digit of 2.276 (no column or subset gives 2.76)"),
            new Spec("Heart Disease", "uci_heart_cleveland_processed.csv", "age", "num", "identity", null, ">=100", 8, 7.80,
                    "misprint: the exact max W_inf is 13 (pairs num 0-2 and 0-4); 8 is only the 1-2 pair, probably copied from the Student row", null),
            new Spec("Adult", "uci_adult_data.csv", "income", "race", "indicator:>50K", 1.0, "1", 1, 0.42, null, null));

    private Table1() {
    }

    /** The table: read and computed on Spark, one file at a time (a dry run reads all three first and ends there). */
    static Report report(PufferfishSensitivityCommand c) {
        SparkSession spark = SparkSessions.get(c.common(), "pufferfish-table1");
        if (c.common().dryRun) {
            for (Spec s : ROWS) {
                Progress.phase("reading " + s.file());
                ConditionalLaws.read(spark, c.datasets.resolve(s.file()), s.value(), s.secret(), s.query(), null, false);
            }
            OutputDir.inputsRead(c.spec(), c.common());
        }
        ObjectNode root = c.resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("table1", true);
        p.put("datasets", c.datasets.toString());
        ArrayNode table = root.putArray("table1");
        List<Line> lines = new ArrayList<>();
        for (Spec s : ROWS) {
            Progress.phase("reading and computing " + s.name());
            ConditionalLaws.Result laws = ConditionalLaws.read(spark, c.datasets.resolve(s.file()), s.value(), s.secret(), s.query(), null, false);
            Line line = Line.of(s, laws.rows(), laws.laws().size(), Sensitivities.of(laws.laws(), 2, Double.NaN));
            table.add(line.json());
            lines.add(line);
        }
        root.put("method", "exact couplings of the integer counts per secret value (groupBy in Spark), every pair of secret values");
        root.put("units", "sensitivities in the units of the released value (grade points, years, 0/1 income indicator)");
        return Report.of(root).stage(null).text(o -> printText(o, lines))
                .write(out -> out.writeString("table1.csv", Csv.table(Line.CSV_HEADER, lines.stream().map(Line::cells).toList())))
                .write(out -> plot(out.resolve("table1.png"), lines));
    }

    /** One dataset's row: what was read, the sensitivities computed, and whether the paper's printed values match. */
    record Line(Spec spec, long rows, int secretValues, double delta, Sensitivities.Result r, String wInfStatus, String w2Status) {
        static final List<String> CSV_HEADER = List.of("dataset", "rows", "secret_values", "delta", "paper_delta", "delta_g", "paper_delta_g", "delta_g2",
                "paper_delta_g2", "w_inf_pair", "w_2_pair", "delta_g_status", "delta_g2_status");

        static Line of(Spec s, long rows, int secretValues, Sensitivities.Result r) {
            String wInfStatus = s.noteWInf() != null ? s.noteWInf() : r.wInfinity() == s.paperWInf() ? "matches" : "differs";
            String w2Status = s.noteW2() != null ? s.noteW2()
                    : String.format(Locale.ROOT, "%.2f", r.wP()).equals(String.format(Locale.ROOT, "%.2f", s.paperW2())) ? "matches" : "differs";
            return new Line(s, rows, secretValues, s.domainWidth() == null ? r.range() : s.domainWidth(), r, wInfStatus, w2Status);
        }

        String wInfPair() {
            return r.wInfinityPair().s() + " vs " + r.wInfinityPair().t();
        }

        String w2Pair() {
            return r.wPPair().s() + " vs " + r.wPPair().t();
        }

        /** The cells of table1.csv, in the order of {@link #CSV_HEADER}. */
        List<Object> cells() {
            return Arrays.asList(spec.name(), rows, secretValues, delta, spec.paperDelta(), r.wInfinity(), spec.paperWInf(), r.wP(), spec.paperW2(), wInfPair(),
                    w2Pair(), wInfStatus, w2Status);
        }

        ObjectNode json() {
            ObjectNode row = Json.object();
            row.put("dataset", spec.name());
            row.put("file", spec.file());
            row.put("value", spec.value());
            row.put("secret", spec.secret());
            row.put("query", spec.query());
            row.put("rows", rows);
            row.put("secretValues", secretValues);
            row.put("range", delta);
            row.put("rangeSource", spec.domainWidth() == null ? "observed min..max (the paper gives only a lower bound, >= 100)" : "width of the value domain");
            row.put("wInf", r.wInfinity());
            row.set("wInfPair", Json.MAPPER.valueToTree(List.of(r.wInfinityPair().s(), r.wInfinityPair().t())));
            row.put("w2", r.wP());
            row.set("w2Pair", Json.MAPPER.valueToTree(List.of(r.wPPair().s(), r.wPPair().t())));
            ObjectNode paper = row.putObject("paper");
            paper.put("delta", spec.paperDelta());
            paper.put("wInf", spec.paperWInf());
            paper.put("w2", spec.paperW2());
            row.put("wInfStatus", wInfStatus);
            row.put("w2Status", w2Status);
            return row;
        }
    }

    private static void printText(PrintWriter o, List<Line> lines) {
        o.println("Table 1 (Renyi Pufferfish paper): sensitivities for DP (Delta), GWM (Delta_G) and the Cauchy mechanism (Delta_G,2)");
        o.printf("%-15s %6s %7s %6s %7s %9s %9s %7s  %s%n", "dataset", "rows", "Delta", "paper", "Delta_G", "paper", "Delta_G,2", "paper",
                "worst pairs (W_inf; W_2)");
        for (Line l : lines) {
            o.printf(Locale.ROOT, "%-15s %6d %7.4g %6s %7.4g %9.4g %9.6f %7.2f  %s; %s%n", l.spec().name(), l.rows(), l.delta(), l.spec().paperDelta(),
                    l.r().wInfinity(), l.spec().paperWInf(), l.r().wP(), l.spec().paperW2(), l.wInfPair(), l.w2Pair());
        }
        for (Line l : lines) {
            for (String status : List.of(l.wInfStatus(), l.w2Status())) {
                if (!"matches".equals(status)) {
                    o.println("  " + l.spec().name() + ": " + status);
                }
            }
        }
    }

    /**
     * table1.png: per dataset, the Pufferfish sensitivities as fractions of DP's (Delta_G / Delta, Delta_G,2 / Delta), ours
     * at the category and the paper's just right of it.
     */
    static Plots.Figure plot(Path png, List<Line> lines) {
        List<String> names = new ArrayList<>();
        double[][] v = new double[4][lines.size()];
        double[][] x = new double[2][lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            names.add(l.spec().name());
            v[0][i] = l.r().wInfinity() / l.delta();
            v[1][i] = l.r().wP() / l.delta();
            v[2][i] = l.spec().paperWInf() / l.delta();
            v[3][i] = l.spec().paperW2() / l.delta();
            x[0][i] = i - 0.06;
            x[1][i] = i + 0.06;
        }
        return Plots.figure("Table 1: Pufferfish sensitivities as fractions of the DP sensitivity Delta (ours, and the paper's)")
                .categories("dataset", names).y("sensitivity / Delta", Plots.Scale.LINEAR).yIncludes(0).yIncludes(1)
                .add(new Plots.Series("Delta_G / Delta (GWM, W_inf)", x[0], v[0], null, Plots.Style.POINTS, Plots.color(0)))
                .add(new Plots.Series("Delta_G,2 / Delta (Cauchy, W_2)", x[0], v[1], null, Plots.Style.POINTS, Plots.color(1)))
                .add(new Plots.Series("paper: Delta_G / Delta", x[1], v[2], null, Plots.Style.POINTS, Plots.color(0).darker().darker()))
                .add(new Plots.Series("paper: Delta_G,2 / Delta", x[1], v[3], null, Plots.Style.POINTS, Plots.color(1).darker().darker()))
                .save(png);
    }
}
