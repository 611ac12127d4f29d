package org.privacybounds.bench;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.cli.Main;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.precincts.PrecinctsCommandTestSupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * scripts/bench-precincts: the precincts command on the 54 Pennsylvania county files at F = 0.002 and S = 0.5, and on a
 * synthetic national input of 170,000 precincts drawn (seeded) from the Pennsylvania sizes and candidate shares, each on
 * local[2] and local[1] in the same run. Wall time is measured after Spark has started. Writes precincts.csv.
 */
public final class PrecinctBench {
    static final String CANDIDATES = "Joseph R. Biden,Donald J. Trump,Jo Jorgensen";
    static final String EXCLUDE = "Under Votes,Over Votes,Overvote,Not Assigned";

    private PrecinctBench() {
    }

    public static void main(String[] args) throws Exception {
        Path results = Path.of(args[0]);
        Path pa = Path.of("datasets/pa_2020_general_precincts");
        Path national = Files.createTempDirectory("pb-national-");
        int precincts = args.length > 1 ? Integer.parseInt(args[1]) : 170_000;
        long rows = synthesize(pa, national, precincts, 20261123L);
        System.err.printf(Locale.ROOT, "bench-precincts: synthetic national input: %d precincts, %d rows (seed 20261123)%n", precincts, rows);
        List<String> lines = new ArrayList<>();
        lines.add("input,draw,master,precincts,seconds_after_spark_start,cores_ratio_local1_over_local2,machine_load_1min");
        String[][] cases = {{"pa-54-counties", pa.toString(), "--lost-fraction", "0.002"}, {"pa-54-counties", pa.toString(), "--sample-fraction", "0.5"},
            {"national-synthetic", national.toString(), "--lost-fraction", "0.002"}};
        // warm-up (JIT, class loading) on one county, not measured
        SparkSessions.quiet();
        SparkSession warm = SparkSession.builder().master("local[2]").appName("bench-precincts-warm-up").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        run("precincts", "--data", pa.resolve("20201103__pa__general__adams__precinct.csv").toString(), "--candidates", CANDIDATES, "--sample-fraction", "0.5",
                "--json");
        warm.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
        for (String[] c : cases) {
            double[] seconds = new double[2];
            long n = 0;
            for (int cores = 2; cores >= 1; cores--) {
                SparkSessions.quiet();
                SparkSession spark = SparkSession.builder().master("local[" + cores + "]").appName("bench-precincts").config("spark.ui.enabled", "false")
                        .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
                long t0 = System.nanoTime();
                JsonNode r = run("precincts", "--data", c[1], "--candidates", CANDIDATES, "--exclude", EXCLUDE, "--alias", "Jorgensen/Cohe=Jo Jorgensen", c[2], c[3],
                        "--epsilon", "0.5,2", "--json");
                seconds[2 - cores] = (System.nanoTime() - t0) / 1e9;
                n = r.get("precinctCount").asLong();
                spark.stop();
                SparkSession.clearActiveSession();
                SparkSession.clearDefaultSession();
                System.err.printf(Locale.ROOT, "bench-precincts: %s %s %s local[%d]: %d precincts in %.1f s%n", c[0], c[2], c[3], cores, n, seconds[2 - cores]);
            }
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            lines.add(String.format(Locale.ROOT, "%s,%s %s,local[2],%d,%.2f,%.2f,%.2f", c[0], c[2], c[3], n, seconds[0], seconds[1] / seconds[0], load));
            lines.add(String.format(Locale.ROOT, "%s,%s %s,local[1],%d,%.2f,,%.2f", c[0], c[2], c[3], n, seconds[1], load));
        }
        Files.createDirectories(results);
        Files.write(results.resolve("precincts.csv"), lines);
        System.err.println("bench-precincts: wrote " + results.resolve("precincts.csv"));
        try (var s = Files.walk(national)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static JsonNode run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        if (code != 0) {
            throw new IllegalStateException("exit " + code + ": " + err.toString(StandardCharsets.UTF_8));
        }
        return new ObjectMapper().readTree(out.toByteArray());
    }

    /**
     * A national input in long format, one file per state (50): each precinct takes its size from one Pennsylvania precinct
     * and its candidate shares from another (both drawn uniformly, seeded), its counts multinomial; 3,000 counties. Returns the
     * number of rows.
     */
    static long synthesize(Path pa, Path dir, int precincts, long seed) throws Exception {
        List<long[]> hist = new ArrayList<>(PrecinctsCommandTestSupport.histograms(pa));
        hist.removeIf(h -> h[0] + h[1] + h[2] + h[3] == 0);
        SplittableRandom rnd = new SplittableRandom(seed);
        String[] names = {"Joseph R. Biden", "Donald J. Trump", "Jo Jorgensen", "Write-ins"};
        long rows = 0;
        BufferedWriter[] states = new BufferedWriter[50];
        for (int s = 0; s < states.length; s++) {
            states[s] = Files.newBufferedWriter(dir.resolve(String.format(Locale.ROOT, "state-%02d.csv", s)));
            states[s].write("county,precinct,office,candidate,votes\n");
        }
        try {
            for (int p = 0; p < precincts; p++) {
                BufferedWriter w = states[(p % 3000) % 50];
                long[] size = hist.get(rnd.nextInt(hist.size()));
                long[] share = hist.get(rnd.nextInt(hist.size()));
                long n = size[0] + size[1] + size[2] + size[3];
                double total = share[0] + share[1] + share[2] + share[3];
                long[] c = new long[4];
                for (long b = 0; b < n; b++) {
                    double u = rnd.nextDouble() * total;
                    int k = 0;
                    while (k < 3 && u >= share[k]) {
                        u -= share[k];
                        k++;
                    }
                    c[k]++;
                }
                String county = String.format(Locale.ROOT, "County-%04d", p % 3000);
                for (int k = 0; k < 4; k++) {
                    w.write(county + ",P" + p + ",President," + names[k] + "," + c[k] + "\n");
                    rows++;
                }
            }
        } finally {
            for (BufferedWriter w : states) {
                w.close();
            }
        }
        return rows;
    }
}
