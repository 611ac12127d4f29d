package org.privacybounds.jobs.ensemble;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;

import org.apache.spark.api.java.JavaSparkContext;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.guarantee.Verdict;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.WorkLimit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code darrm-verify}: is DaRRM with a given gamma (m eps, delta)-DP? The maximum privacy cost over all of P. */
@Command(name = "darrm-verify", header = "Certify that a noise function gamma makes DaRRM (m eps, delta)-DP.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Certify any symmetric noise function gamma: the largest privacy cost f (Lemma 3.4) over every multiset of the",
                "corners of the (eps, Delta)-DP polygon, against the bound e^{m eps} - 1 + 2 delta, with the worst multiset. DaRRM_gamma",
                "is (m eps, delta)-DP exactly when maxCost <= bound. The verdict cannot be flipped by rounding: costs and bound are",
                "intervals (60-digit decimals with directed rounding, or the double scan with its a-priori error bound); a cost",
                "equal to the bound is found by exact polynomial arithmetic (dp: true); the rest get up to 960 digits; dp is null",
                "(verdict 'undecided') only if nothing separates them. eps, Delta, m and delta are taken as the decimals typed.",
                "The scan is distributed over executors for large K."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds darrm-verify --k 11 --m 3 --epsilon 0.1 --family sub",
                "  scripts/privacy-bounds darrm-verify --k 3 --m 1 --epsilon 0.1 --gamma 0.2,0.1,0.1,0.2 --json",
                "  scripts/privacy-bounds darrm-verify --k 11 --m 3 --epsilon 0.1 --delta-mech 1e-5 --gamma-file datasets/examples/gamma_k11_m3.json --verify high",
                "  scripts/privacy-bounds darrm-verify --k 21 --m 5 --epsilon 0.1 --family dsub --json   # an exact tie: dp true"})
public final class DarrmVerifyCommand extends BoundsCommand {
    @Mixin
    DarrmOptions setting;

    @Mixin
    GammaSource source;

    @Option(names = "--verify", paramLabel = "MODE", defaultValue = "auto",
            description = "double (the full scan), high (also 60-digit decimals), auto (high when |P| <= 1,000,000) (default: ${DEFAULT-VALUE}).")
    String verify;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the scan (default: 8 x the default parallelism).")
    int partitions;

    private ConstraintSet set;
    private ExactTarget target;
    private boolean high;

    @Override
    protected void check() {
        set = setting.set();
        target = setting.exact();
        high = DarrmOptions.highPrecision(verify, set.size());
        WorkLimit.check(spec, common, "--k, --delta-mech and --verify", DarrmOptions.estimate(set, false, high), 1e6);
        source.given(setting); // --gamma / --gamma-file read and checked before any work (and in a dry run)
    }

    @Override
    protected Report compute(OutputDir out) {
        double em = Math.exp(setting.resolved().m() * setting.resolved().epsilon());
        JavaSparkContext jsc = set.size() > SparkSeparation.LOCAL_LIMIT
                ? JavaSparkContext.fromSparkContext(SparkSessions.get(common, "darrm-verify").sparkContext()) : null;
        SparkSeparation sep = new SparkSeparation(jsc, set, em, partitions);
        PrintWriter err = spec.commandLine().getErr();
        double[] gamma = source.gamma(setting, set, sep, line -> err.println("darrm-verify: " + line));
        long t0 = System.nanoTime();
        ConstraintSet.ScanResult scan = sep.scan(DarrmOptimizer.free(gamma), HighPrecisionVerifier.doubleThreshold(set, target, em),
                HighPrecisionVerifier.MAX_NEAR_TIES);
        sep.close();
        HighPrecisionVerifier.Certificate c = high ? HighPrecisionVerifier.verify(set, target, gamma)
                : HighPrecisionVerifier.verifyScan(set, target, gamma, em, scan);
        double seconds = (System.nanoTime() - t0) / 1e9;
        Verdict dp = c.verdict();
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        setting.echo(p);
        p.put("gammaSource", source.describe());
        p.put("verify", verify.trim().toLowerCase(Locale.ROOT));
        root.set("gamma", Json.MAPPER.valueToTree(gamma));
        root.put("dp", dp.asBoolean());
        root.put("verdict", dp.word());
        root.put("guarantee", String.format(Locale.ROOT, "(%s eps, %s) = (%s, %s)-DP: %s", setting.resolved().m(), setting.resolved().delta(),
                setting.resolved().m() * setting.resolved().epsilon(), setting.resolved().delta(), dp.word()));
        CertificateJson.put(root.putObject("certificate"), c, scan.max(), set.corners());
        root.put("constraints", set.size());
        root.put("seconds", seconds);
        return Report.of(root).stage(null).text(o -> {
            o.printf(Locale.ROOT, "darrm-verify: K = %d, |P| = %,d; %s: %s%n", set.k(), set.size(), CertificateJson.line(c), switch (dp) {
                case HOLDS -> "(m eps, delta)-DP";
                case FAILS -> "NOT (m eps, delta)-DP";
                case UNDECIDED -> "UNDECIDED (no precision up to " + HighPrecisionVerifier.MAX_DIGITS + " digits separates the cost from the bound)";
            });
            o.println("worst multiset (counts of the corners " + Json.write(Json.MAPPER.valueToTree(set.corners())) + "): " + Arrays.toString(c.worstMultiset()));
            o.println("decided by: " + c.arithmetic());
        });
    }
}
