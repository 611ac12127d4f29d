package org.privacybounds.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.HighPrecisionVerifier;

/**
 * Benchmark of gamma_opt: constraint generation with the incremental scan (ours) against the paper's
 * way, the full LP over every multiset of P built row by row and solved at once (the paper used
 * Gurobi; the baseline here uses the same LP solver as ours, ojAlgo, so the ratio measures the method),
 * in the same JVM, each timed after one warm-up run. Where the full LP is too large for memory the
 * baseline is not run. Also the 60-digit certification time.
 *
 * <p>Usage: {@code DarrmBench OUT_DIR}; writes {@code darrm-bench.csv}.
 */
public final class DarrmBench {
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "bench/results");
        Files.createDirectories(out);
        List<String> lines = new ArrayList<>();
        lines.add("K,Delta,m,constraints,ours_seconds,rounds,active_set,baseline_full_lp_seconds,ratio,objective_ours,objective_full_lp,hp_verify_seconds");
        Object[][] cases = {{11, 0.0, 3.0}, {11, 1e-5, 3.0}, {11, 1e-5, 5.0}, {13, 1e-5, 3.0}, {101, 0.0, 40.0}};
        for (Object[] c : cases) {
            int k = (Integer) c[0];
            double d = (Double) c[1];
            double m = (Double) c[2];
            ConstraintSet set = ConstraintSet.of(k, 0.1, d);
            double delta = -Math.expm1(m * Math.log1p(-d));
            double em = Math.exp(m * 0.1);
            double[] obj = DarrmOptimizer.objective(k, 0.75);
            DarrmOptimizer.Separation local = (x, th, keep) -> set.scanAll(x, em, th, keep);
            DarrmOptimizer.optimize(set, m, delta, obj, local, null);
            long t0 = System.nanoTime();
            DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, m, delta, obj, local, null);
            double ours = (System.nanoTime() - t0) / 1e9;
            double base = Double.NaN;
            double baseObj = Double.NaN;
            if (set.size() <= 200_000 && k <= 13) {
                for (int rep = 0; rep < 2; rep++) {
                    long t1 = System.nanoTime();
                    ConstraintSet.ScanResult all = set.scanAll(new double[set.free()], em, Double.NEGATIVE_INFINITY, Integer.MAX_VALUE);
                    double[] x = DarrmOptimizer.solve(obj, all.above(), ConstraintSet.bound(m, 0.1, delta));
                    base = (System.nanoTime() - t1) / 1e9;
                    baseObj = 0;
                    for (int i = 0; i < x.length; i++) {
                        baseObj += obj[i] * x[i];
                    }
                }
            }
            long t2 = System.nanoTime();
            HighPrecisionVerifier.Certificate hp = HighPrecisionVerifier.verify(set, r.gamma(), m, delta);
            double hpSec = (System.nanoTime() - t2) / 1e9;
            if (!hp.certified()) {
                throw new IllegalStateException("not certified: K = " + k);
            }
            String line = String.format(Locale.ROOT, "%d,%g,%g,%d,%.3f,%d,%d,%s,%s,%.9f,%s,%.2f", k, d, m, set.size(), ours, r.rounds(), r.activeSet(),
                    Double.isNaN(base) ? "" : String.format(Locale.ROOT, "%.3f", base), Double.isNaN(base) ? "" : String.format(Locale.ROOT, "%.1f", base / ours),
                    r.objective(), Double.isNaN(baseObj) ? "" : String.format(Locale.ROOT, "%.9f", baseObj), hpSec);
            System.out.println(line);
            lines.add(line);
        }
        Files.write(out.resolve("darrm-bench.csv"), lines);
    }
}
