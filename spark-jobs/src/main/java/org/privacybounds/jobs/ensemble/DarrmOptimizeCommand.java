package org.privacybounds.jobs.ensemble;

import java.awt.Color;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaSparkContext;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.ErrorMetric;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code darrm-optimize}: the optimal DaRRM noise function by constraint generation, with its certificate. */
@Command(name = "darrm-optimize", header = "The optimal noise function gamma of DaRRM by linear programming, with a certificate.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The most accurate private majority of K (eps, Delta)-DP mechanisms that is (m eps, delta)-DP (DaRRM, DaRRM paper):",
                "gamma_opt minimises the exact linearised error under the prior (Appendix C.2, computed exactly) subject to every privacy",
                "constraint of Lemma 3.4 (all multisets of the 8 or 4 corners of the DP polygon: 31,824 at K = 11, 2.7e7 at K = 35",
                "with Delta > 0). Constraint generation: a small master LP (ojAlgo), a separation scan over all of P distributed over",
                "executors, the most violated rows added, until none exceeds the bound. The result is certified so that rounding cannot",
                "flip it: 60-digit decimal intervals over all of P (--verify high), or the double scan with its a-priori error bound",
                "and intervals for the rows near the bound (--verify double); gamma is scaled down until it provably passes.",
                "Compares gamma_opt with gamma_Sub, gamma_DSub (pure DP) and randomized response with a constant (Figure 2)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds darrm-optimize --k 11 --m 3 --epsilon 0.1 --delta-mech 1e-5",
                "  scripts/privacy-bounds darrm-optimize --k 101 --m 40 --epsilon 0.1 --verify high --json   # about 15 s",
                "  scripts/privacy-bounds darrm-optimize --k 35 --m 1 --subsample 10 --delta-prime 0.1 --epsilon 0.1 --delta-mech 1e-5 --out out/darrm-k35",
                "  scripts/privacy-bounds darrm-optimize --k 11 --m 3 --epsilon 0.1 --prior nonuniform --actual uniform:0:1,uniform:0:0.1,const:0.5"})
public final class DarrmOptimizeCommand extends BoundsCommand {
    @Mixin
    DarrmOptions setting;

    @Option(names = "--verify", paramLabel = "MODE", defaultValue = "auto",
            description = "Certificate arithmetic: double (the full scan), high (also 60-digit decimals over all of P), auto (high when |P| <= 1,000,000) (default: ${DEFAULT-VALUE}).")
    String verify;

    @Option(names = "--error-samples", paramLabel = "N", defaultValue = "10000",
            description = "Monte Carlo draws of p_i ~ U[0,1] for the reported error of each gamma (default: ${DEFAULT-VALUE}).")
    int errorSamples;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the separation scan (default: 8 x the default parallelism).")
    int partitions;

    @Option(names = "--actual", paramLabel = "LIST", defaultValue = "uniform:0:1", split = ",",
            description = "Actual laws of the p_i for the reported errors: uniform:A:B or const:P; the first is the JSON 'error' (default: ${DEFAULT-VALUE}).")
    List<String> actual;

    /** {lo, hi} of each --actual law. */
    private List<double[]> actualLaws() {
        List<double[]> laws = new ArrayList<>();
        for (String a : actual) {
            String[] p = a.trim().toLowerCase(Locale.ROOT).split(":");
            try {
                if (p.length == 3 && p[0].equals("uniform")) {
                    double lo = Double.parseDouble(p[1]);
                    double hi = Double.parseDouble(p[2]);
                    if (lo >= 0 && hi <= 1 && lo < hi) {
                        laws.add(new double[] {lo, hi});
                        continue;
                    }
                } else if (p.length == 2 && p[0].equals("const")) {
                    double v = Double.parseDouble(p[1]);
                    if (v >= 0 && v <= 1) {
                        laws.add(new double[] {v, v});
                        continue;
                    }
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new UserInputException("--actual", a, "allowed: uniform:A:B (0 <= A < B <= 1) or const:P (0 <= P <= 1)");
        }
        return laws;
    }

    private ConstraintSet set;
    private double[] objective;
    private boolean high;
    private List<double[]> laws;

    @Override
    protected void check() {
        set = setting.set();
        objective = setting.objective();
        if (errorSamples < 2) {
            throw new UserInputException("--error-samples", errorSamples, "must be >= 2");
        }
        if (partitions < 0) {
            throw new UserInputException("--partitions", partitions, "must be >= 0");
        }
        high = DarrmOptions.highPrecision(verify, set.size());
        WorkLimit.check(spec, common, "--k, --delta-mech and --verify", DarrmOptions.estimate(set, true, high), 1e6);
        laws = actualLaws();
    }

    @Override
    protected Report compute(OutputDir out) {
        Optimized opt = optimize();
        OutputDir.mark(out, "optimize");
        DarrmOptimizer.Result r = opt.result();
        Map<String, double[]> gammas = new LinkedHashMap<>();
        gammas.put("opt", r.gamma());
        gammas.putAll(comparisons(set));
        Map<String, ErrorMetric.Estimate> errors = new LinkedHashMap<>();
        double[] first = laws.get(0);
        gammas.forEach((name, g) -> errors.put(name, ErrorMetric.expected(g, first[0], first[1], errorSamples, common.seed)));
        ObjectNode root = json(opt, gammas, errors);
        Map<String, double[]> families = new LinkedHashMap<>(gammas);
        families.remove("opt");
        return Report.of(root).stage(null).text(o -> printText(o, root, opt)).write(dir -> {
            // gamma.csv: l, then gamma_opt and each comparison's gamma at l
            Columns<Integer> cols = Columns.<Integer>of().int32("l", l -> l);
            for (var g : gammas.entrySet()) {
                double[] values = g.getValue();
                cols = cols.number("gamma_" + g.getKey(), l -> values[l]);
            }
            dir.writeString("gamma.csv", cols.csv(IntStream.rangeClosed(0, set.k()).boxed().toList()));
        }).write(dir -> plot(dir, set.k(), r.gamma(), families, errors, first));
    }

    /** The LP's gamma and its certificate, with the seconds each took. */
    record Optimized(DarrmOptimizer.Result result, HighPrecisionVerifier.Certified certified, double seconds, double verifySeconds) {
    }

    /**
     * The LP's optimum, then its certificate, decided so that rounding cannot flip it (decimal intervals over all of P, or the
     * double scan with its error bound); gamma is scaled down until it provably passes.
     */
    private Optimized optimize() {
        PrintWriter err = spec.commandLine().getErr();
        double em = Math.exp(setting.resolved().m() * setting.resolved().epsilon());
        JavaSparkContext jsc = set.size() > SparkSeparation.LOCAL_LIMIT
                ? JavaSparkContext.fromSparkContext(SparkSessions.get(common, "darrm-optimize").sparkContext()) : null;
        SparkSeparation sep = new SparkSeparation(jsc, set, em, partitions);
        err.printf(Locale.ROOT, "darrm-optimize: K = %d, |P| = %,d multisets of %d corners, scan %s%n", set.k(), set.size(), set.corners().length,
                sep.distributed() ? "on Spark" : "in the driver");
        err.flush();
        long t0 = System.nanoTime();
        DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, setting.resolved().m(), setting.resolved().delta(), objective, sep, line -> {
            err.printf(Locale.ROOT, "darrm-optimize: %s, %.1f s%n", line, (System.nanoTime() - t0) / 1e9);
            err.flush();
        });
        double seconds = (System.nanoTime() - t0) / 1e9;
        long t1 = System.nanoTime();
        ExactTarget target = setting.exact();
        HighPrecisionVerifier.Certified certified = high ? HighPrecisionVerifier.certify(set, target, r.gamma())
                : HighPrecisionVerifier.certifyByScan(set, target, r.gamma(), em, sep);
        sep.close();
        double hpSeconds = (System.nanoTime() - t1) / 1e9;
        if (certified.rescaled()) {
            err.printf(Locale.ROOT, "darrm-optimize: the LP's optimum was not provably within the bound (%s); gamma scaled by %.17g%n",
                    high ? HighPrecisionVerifier.DIGITS + "-digit intervals" : "double scan with its error bound", certified.factor());
            r = r.scaledBy(certified.gamma(), certified.factor());
        }
        return new Optimized(r, certified, seconds, hpSeconds);
    }

    private ObjectNode json(Optimized opt, Map<String, double[]> gammas, Map<String, ErrorMetric.Estimate> errors) {
        DarrmOptimizer.Result r = opt.result();
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        setting.echo(p);
        p.put("verify", verify.trim().toLowerCase(Locale.ROOT));
        p.put("errorSamples", errorSamples);
        p.put("seed", common.seed);
        root.set("gamma", Json.MAPPER.valueToTree(r.gamma()));
        root.put("objective", r.objective());
        root.put("error", errors.get("opt").mean());
        root.put("errorStandardError", errors.get("opt").standardError());
        root.put("errorMethod", "Monte Carlo mean of E(gamma; p) over p_i ~ " + actual.get(0) + " iid, " + errorSamples + " draws, seed " + common.seed);
        ObjectNode cert = root.putObject("certificate");
        CertificateJson.put(cert, opt.certified().certificate(), r.maxCost(), set.corners());
        cert.put("rescaled", r.rescaled());
        cert.put("rescaleFactor", r.rescaleFactor());
        cert.put("highPrecisionRescalings", opt.certified().rescalings());
        cert.put("highPrecisionRescaleFactor", opt.certified().factor());
        root.put("constraints", set.size());
        root.put("rounds", r.rounds());
        root.put("activeSet", r.activeSet());
        root.put("seconds", opt.seconds());
        root.put("verifySeconds", opt.verifySeconds());
        ArrayNode cmp = root.putArray("comparison");
        for (Map.Entry<String, ErrorMetric.Estimate> e : errors.entrySet()) {
            ObjectNode o = cmp.addObject();
            double[] g = gammas.get(e.getKey());
            o.put("gamma", e.getKey());
            o.set("values", Json.MAPPER.valueToTree(g));
            o.put("error", e.getValue().mean());
            o.put("errorStandardError", e.getValue().standardError());
            ArrayNode per = o.putArray("errors");
            for (int i = 0; i < laws.size(); i++) {
                ErrorMetric.Estimate est = i == 0 ? e.getValue() : ErrorMetric.expected(g, laws.get(i)[0], laws.get(i)[1], errorSamples, common.seed);
                per.addObject().put("actual", actual.get(i)).put("error", est.mean()).put("standardError", est.standardError());
            }
        }
        root.put("units", "gamma(l) is a probability (l = number of ones among K votes); costs and bounds are e^{m eps} - 1 + 2 delta scale");
        return root;
    }

    private void printText(PrintWriter o, ObjectNode root, Optimized opt) {
        DarrmOptimizer.Result r = opt.result();
        HighPrecisionVerifier.Certified certified = opt.certified();
        o.printf(Locale.ROOT, "darrm-optimize: K = %d, (eps, Delta) = (%g, %g) per mechanism, target (%g eps, %g); |P| = %,d; %d rounds, active set %d, %.2f s%n",
                set.k(), setting.resolved().epsilon(), setting.resolved().mechanismDelta(), setting.resolved().m(), setting.resolved().delta(), set.size(), r.rounds(),
                r.activeSet(), opt.seconds());
        o.printf("%-6s %s%n", "l", "gamma_opt(l)");
        for (int l = (set.k() + 1) / 2; l <= set.k(); l++) {
            o.printf(Locale.ROOT, "%-6d %.6f%n", l, r.gamma()[l]);
        }
        String scaled = (r.rescaled() ? ", rescaled by " + r.rescaleFactor() : "") + (certified.rescaled() ? ", scaled by " + certified.factor() + " to pass provably" : "");
        o.printf(Locale.ROOT, "objective %.6f; certificate: %s%s%n", r.objective(), CertificateJson.line(certified.certificate()), scaled);
        o.println("decided by: " + certified.certificate().arithmetic());
        for (var e : root.get("comparison")) {
            StringBuilder b = new StringBuilder();
            for (var x : e.get("errors")) {
                b.append(String.format(Locale.ROOT, "  %s: %.5f +- %.5f", x.get("actual").asText(), x.get("error").asDouble(), x.get("standardError").asDouble()));
            }
            o.printf(Locale.ROOT, "error of gamma_%-6s%s%n", e.get("gamma").asText(), b);
        }
        if (root.get("parameters").has("table3")) {
            o.println("Table 3 row: " + root.get("parameters").get("table3"));
        }
    }

    /** gamma_Sub (integer m), gamma_DSub (integer m, pure DP), randomized response with p_const (simple composition: tau = K, lambda = K Delta). */
    private Map<String, double[]> comparisons(ConstraintSet set) {
        Map<String, double[]> f = new LinkedHashMap<>();
        double m = setting.resolved().m();
        if (setting.resolved().subsampled()) {
            f.put("sub", NoiseFunctions.subsampling(set.k(), setting.resolved().subsample()));
        } else if (m == Math.rint(m)) {
            f.put("sub", NoiseFunctions.subsampling(set.k(), (int) m));
            if (setting.resolved().mechanismDelta() == 0 && setting.resolved().delta() == 0) {
                f.put("dsub", NoiseFunctions.doubleSubsampling(set.k(), (int) m));
            }
        }
        DarrmSetting s = setting.resolved();
        f.put("const", NoiseFunctions.constant(set.k(), NoiseFunctions.pConst(m, s.epsilon(), s.delta(), s.majorityTau(), s.majorityGuarantee().delta())));
        return f;
    }

    /**
     * gamma.png: the noise functions against l; error.png: each method's mean error on a categorical axis, with 95 %
     * Monte Carlo intervals (1.96 standard errors over the draws of p) as error bars.
     */
    List<Plots.Figure> plot(OutputDir out, int k, double[] opt, Map<String, double[]> families, Map<String, ErrorMetric.Estimate> errors,
            double[] law) {
        String p = law[0] == law[1] ? "p_i = " + Plots.num(law[0]) : "p_i ~ U[" + Plots.num(law[0]) + ", " + Plots.num(law[1]) + "]";
        double[] x = new double[k + 1];
        for (int l = 0; l <= k; l++) {
            x[l] = l;
        }
        Map<String, Color> colors = Map.of("opt", new Color(0xd62728), "sub", new Color(0x1f77b4), "dsub", new Color(0x17becf), "const", new Color(0x2ca02c));
        List<Plots.Series> s = new ArrayList<>();
        s.add(new Plots.Series(String.format(Locale.ROOT, "gamma_opt (error %.4f)", errors.get("opt").mean()), x, opt, false, colors.get("opt")));
        for (Map.Entry<String, double[]> e : families.entrySet()) {
            s.add(new Plots.Series(String.format(Locale.ROOT, "gamma_%s (error %.4f)", e.getKey(), errors.get(e.getKey()).mean()), x, e.getValue(),
                    !e.getKey().equals("sub"), colors.get(e.getKey())));
        }
        Plots.Builder gamma = Plots.figure(String.format(Locale.ROOT, "DaRRM noise functions, K = %d, m = %s, eps = %s, Delta = %s (errors under %s)",
                k, Plots.num(setting.resolved().m()), Plots.num(setting.resolved().epsilon()), Plots.num(setting.resolved().mechanismDelta()), p))
                .x("l (number of ones among K votes)", Plots.Scale.LINEAR).y("gamma(l)", Plots.Scale.LINEAR).yIncludes(0).yIncludes(1).addAll(s);
        if (k <= 40) {
            gamma.xStep(k <= 12 ? 1 : k <= 24 ? 2 : 5);
        }
        List<String> names = new ArrayList<>(errors.keySet());
        List<String> labels = new ArrayList<>();
        Plots.Builder error = Plots.figure(String.format(Locale.ROOT, "Error E(gamma; p) under %s, K = %d (mean over %d draws of p, 95 %% interval)",
                p, k, errors.get("opt").samples()));
        int i = 0;
        for (String n : names) {
            ErrorMetric.Estimate est = errors.get(n);
            labels.add("gamma_" + n);
            error.add(new Plots.Series(String.format(Locale.ROOT, "gamma_%s: %.4f +- %.4f", n, est.mean(), 1.96 * est.standardError()), new double[] {i},
                    new double[] {est.mean()}, new double[] {1.96 * est.standardError()}, Plots.Style.POINTS, colors.getOrDefault(n, Color.GRAY)));
            i++;
        }
        error.categories("method", labels).y("error E(gamma; p)", Plots.Scale.LINEAR).yIncludes(0);
        return List.of(gamma.save(out.resolve("gamma.png")), error.save(out.resolve("error.png")));
    }
}
