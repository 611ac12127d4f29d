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
    private record Spec(String name, String file, String value, String secret, String query, Double domainWidth, String paperDelta, double paperWInf,
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

    static int run(PufferfishSensitivityCommand c) {
        try (OutputDir out = OutputDir.beginBeforeInputs(c.spec, c.common)) {
            SparkSession spark = SparkSessions.get(c.common, "pufferfish-table1");
            if (c.common.dryRun) {
                for (Spec s : ROWS) {
                    Progress.phase("reading " + s.file());
                    ConditionalLaws.read(spark, c.datasets.resolve(s.file()), s.value(), s.secret(), s.query(), null, false);
                }
                OutputDir.inputsRead(c.spec, c.common);
            }
            ObjectNode root = Json.object();
            root.put("command", "pufferfish-sensitivity");
            ObjectNode p = root.putObject("parameters");
            p.put("table1", true);
            p.put("datasets", c.datasets.toString());
            ArrayNode table = root.putArray("table1");
            List<List<Object>> rows = new ArrayList<>();
            for (Spec s : ROWS) {
                Path file = c.datasets.resolve(s.file());
                Progress.phase("reading and computing " + s.name());
                ConditionalLaws.Result laws = ConditionalLaws.read(spark, file, s.value(), s.secret(), s.query(), null, false);
                Sensitivities.Result r = Sensitivities.of(laws.laws(), 2, Double.NaN);
                double delta = s.domainWidth() == null ? r.range() : s.domainWidth();
                ObjectNode row = table.addObject();
                row.put("dataset", s.name());
                row.put("file", s.file());
                row.put("value", s.value());
                row.put("secret", s.secret());
                row.put("query", s.query());
                row.put("rows", laws.rows());
                row.put("secretValues", laws.laws().size());
                row.put("range", delta);
                row.put("rangeSource", s.domainWidth() == null ? "observed min..max (the paper gives only a lower bound, >= 100)" : "width of the value domain");
                row.put("wInf", r.wInfinity());
                row.set("wInfPair", Json.MAPPER.valueToTree(List.of(r.wInfinityPair().s(), r.wInfinityPair().t())));
                row.put("w2", r.wP());
                row.set("w2Pair", Json.MAPPER.valueToTree(List.of(r.wPPair().s(), r.wPPair().t())));
                ObjectNode paper = row.putObject("paper");
                paper.put("delta", s.paperDelta());
                paper.put("wInf", s.paperWInf());
                paper.put("w2", s.paperW2());
                String wInfStatus = s.noteWInf() != null ? s.noteWInf() : r.wInfinity() == s.paperWInf() ? "matches" : "differs";
                String w2Status = s.noteW2() != null ? s.noteW2()
                        : String.format(Locale.ROOT, "%.2f", r.wP()).equals(String.format(Locale.ROOT, "%.2f", s.paperW2())) ? "matches" : "differs";
                row.put("wInfStatus", wInfStatus);
                row.put("w2Status", w2Status);
                rows.add(Arrays.asList(s.name(), laws.rows(), laws.laws().size(), delta, s.paperDelta(), r.wInfinity(), s.paperWInf(), r.wP(),
                        s.paperW2(), r.wInfinityPair().s() + " vs " + r.wInfinityPair().t(), r.wPPair().s() + " vs " + r.wPPair().t(), wInfStatus, w2Status));
            }
            root.put("method", "exact couplings of the integer counts per secret value (groupBy in Spark), every pair of secret values");
            root.put("units", "sensitivities in the units of the released value (grade points, years, 0/1 income indicator)");
            PrintWriter o = c.spec.commandLine().getOut();
            if (c.common.json) {
                o.println(Json.write(root));
            } else {
                o.println("Table 1 (Renyi Pufferfish paper): sensitivities for DP (Delta), GWM (Delta_G) and the Cauchy mechanism (Delta_G,2)");
                o.printf("%-15s %6s %7s %6s %7s %9s %9s %7s  %s%n", "dataset", "rows", "Delta", "paper", "Delta_G", "paper", "Delta_G,2", "paper",
                        "worst pairs (W_inf; W_2)");
                for (List<Object> r : rows) {
                    o.printf(Locale.ROOT, "%-15s %6d %7.4g %6s %7.4g %9.4g %9.6f %7.2f  %s; %s%n", r.get(0), r.get(1), r.get(3), r.get(4), r.get(5), r.get(6),
                            r.get(7), r.get(8), r.get(9), r.get(10));
                }
                for (List<Object> r : rows) {
                    for (int k = 11; k <= 12; k++) {
                        if (!"matches".equals(r.get(k))) {
                            o.println("  " + r.get(0) + ": " + r.get(k));
                        }
                    }
                }
            }
            o.flush();
            if (out != null) {
                out.writeString("result.json", Json.pretty(root) + "\n");
                out.writeString("table1.csv", Csv.table(List.of("dataset", "rows", "secret_values", "delta", "paper_delta", "delta_g", "paper_delta_g",
                        "delta_g2", "paper_delta_g2", "w_inf_pair", "w_2_pair", "delta_g_status", "delta_g2_status"), rows));
                plot(out.resolve("table1.png"), rows);
                out.commit();
            }
            return 0;
        }
    }

    /**
     * table1.png: per dataset, the Pufferfish sensitivities as fractions of DP's (Delta_G / Delta, Delta_G,2 / Delta), ours
     * at the category and the paper's just right of it.
     */
    static Plots.Figure plot(Path png, List<List<Object>> rows) {
        List<String> names = new ArrayList<>();
        double[][] v = new double[4][rows.size()];
        double[][] x = new double[2][rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            List<Object> r = rows.get(i);
            names.add((String) r.get(0));
            double delta = ((Number) r.get(3)).doubleValue();
            v[0][i] = ((Number) r.get(5)).doubleValue() / delta;
            v[1][i] = ((Number) r.get(7)).doubleValue() / delta;
            v[2][i] = r.get(6) == null ? Double.NaN : ((Number) r.get(6)).doubleValue() / delta;
            v[3][i] = r.get(8) == null ? Double.NaN : ((Number) r.get(8)).doubleValue() / delta;
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
