package org.privacybounds.jobs.ensemble;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.apache.spark.api.java.JavaSparkContext;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.jobs.common.CommonOptions;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.WorkLimit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code darrm-verify}: is DaRRM with a given gamma (m eps, delta)-DP? The maximum privacy cost over all of P. */
@Command(name = "darrm-verify", header = "Certify that a noise function gamma makes DaRRM (m eps, delta)-DP.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Certify any symmetric noise function gamma: the largest privacy cost f (Lemma 3.4) over every multiset of the",
                "corners of the (eps, Delta)-DP polygon, against the bound e^{m eps} - 1 + 2 delta, with the worst multiset. DaRRM_gamma",
                "is (m eps, delta)-DP exactly when maxCost <= bound. The scan is distributed over executors for large K;",
                "--verify high repeats it in 60-digit decimals (exact pure DP)."},
        footer = {"", "Examples:",
                "  privacy-bounds darrm-verify --k 11 --m 3 --epsilon 0.1 --family sub",
                "  privacy-bounds darrm-verify --k 3 --m 1 --epsilon 0.1 --gamma 0.2,0.1,0.1,0.2 --json",
                "  privacy-bounds darrm-verify --k 101 --m 40 --epsilon 0.1 --gamma-file out/darrm/result.json --verify high"})
public final class DarrmVerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DarrmOptions setting;

    @Mixin
    GammaSource source;

    @Option(names = "--verify", paramLabel = "MODE", defaultValue = "auto",
            description = "double (the full scan), high (also 60-digit decimals), auto (high when |P| <= 1,000,000) (default: ${DEFAULT-VALUE}).")
    String verify;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the scan (default: 8 x the default parallelism).")
    int partitions;

    @Override
    public Integer call() {
        ConstraintSet set = setting.set();
        boolean high = DarrmOptions.highPrecision(verify, set.size());
        WorkLimit.check(spec, common, "--k, --delta-mech and --verify", DarrmOptions.estimate(set, false, high), 1e6);
        String mode = verify.trim().toLowerCase(Locale.ROOT);
        double em = Math.exp(setting.resolved().m() * setting.resolved().epsilon());
        try (OutputDir out = OutputDir.begin(spec, common)) {
            JavaSparkContext jsc = set.size() > SparkSeparation.LOCAL_LIMIT
                    ? JavaSparkContext.fromSparkContext(SparkSessions.get(common, "darrm-verify").sparkContext()) : null;
            SparkSeparation sep = new SparkSeparation(jsc, set, em, partitions);
            PrintWriter err = spec.commandLine().getErr();
            double[] gamma = source.gamma(setting, set, sep, line -> err.println("darrm-verify: " + line));
            long t0 = System.nanoTime();
            ConstraintSet.ScanResult scan = sep.scan(DarrmOptimizer.free(gamma), Double.POSITIVE_INFINITY, 0);
            sep.close();
            double bound = ConstraintSet.bound(setting.resolved().m(), setting.resolved().epsilon(), setting.resolved().delta());
            HighPrecisionVerifier.Certificate hp = high ? HighPrecisionVerifier.verify(set, gamma, setting.resolved().m(), setting.resolved().delta()) : null;
            double seconds = (System.nanoTime() - t0) / 1e9;
            boolean dp = hp != null ? hp.certified() : scan.max() <= bound;
            ObjectNode root = Json.object();
            root.put("command", "darrm-verify");
            ObjectNode p = root.putObject("parameters");
            setting.echo(p);
            p.put("gammaSource", source.describe());
            p.put("verify", mode);
            root.set("gamma", Json.MAPPER.valueToTree(gamma));
            root.put("dp", dp);
            root.put("guarantee", String.format(Locale.ROOT, "(%s eps, %s) = (%s, %s)-DP: %s", setting.resolved().m(), setting.resolved().delta(), setting.resolved().m() * setting.resolved().epsilon(),
                    setting.resolved().delta(), dp ? "yes" : "no"));
            ObjectNode cert = root.putObject("certificate");
            cert.put("maxCost", hp != null ? hp.maxCost().doubleValue() : scan.max());
            cert.put("bound", hp != null ? hp.bound().doubleValue() : bound);
            cert.set("worstMultiset", Json.MAPPER.valueToTree(hp != null ? hp.worstMultiset() : scan.argmax().counts()));
            cert.put("arithmetic", hp != null ? "decimal, 60 significant digits, every multiset of P" : "double, every multiset of P (about 1e-12 absolute)");
            if (hp != null) {
                cert.put("maxCostDecimal", hp.maxCost().toString());
                cert.put("boundDecimal", hp.bound().toString());
            }
            cert.put("doubleMaxCost", scan.max());
            cert.set("corners", Json.MAPPER.valueToTree(set.corners()));
            root.put("constraints", set.size());
            root.put("seconds", seconds);
            PrintWriter o = spec.commandLine().getOut();
            if (common.json) {
                o.println(Json.write(root));
            } else {
                o.printf(Locale.ROOT, "darrm-verify: K = %d, |P| = %,d; max cost %.15g vs bound %.15g (%s): %s%n", set.k(), set.size(),
                        cert.get("maxCost").asDouble(), cert.get("bound").asDouble(), hp != null ? "60-digit" : "double",
                        dp ? "(m eps, delta)-DP" : "NOT (m eps, delta)-DP");
                o.println("worst multiset (counts of the corners " + Json.write(cert.get("corners")) + "): " + cert.get("worstMultiset"));
            }
            o.flush();
            if (out != null) {
                out.writeString("result.json", Json.pretty(root) + "\n");
                out.commit();
            }
            return 0;
        }
    }
}
