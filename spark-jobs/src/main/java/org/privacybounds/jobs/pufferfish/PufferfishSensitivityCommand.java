package org.privacybounds.jobs.pufferfish;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Installation;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Progress;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.RunRecord;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.pufferfish.DiscreteLaw;
import org.privacybounds.pufferfish.Noise;
import org.privacybounds.pufferfish.Releases;
import org.privacybounds.pufferfish.Sensitivities;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pufferfish-sensitivity}: Wasserstein sensitivities of a released attribute against secrets on another, from a CSV file. */
@Command(name = "pufferfish-sensitivity", header = "Renyi Pufferfish privacy of releasing an attribute: Wasserstein sensitivities and noise calibration.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Renyi Pufferfish privacy of releasing one record's value (column X, through an optional --query) when the",
                "secret is that record's value of column S, under the empirical prior of the file (the paper's attribute-inference",
                "setting, Table 1). The conditional laws P(f(X) | S = s) come from a distributed groupBy(S, X).count(); every pair of",
                "secret values is compared by exact couplings in integer arithmetic: Delta_G = max W_inf (General Wasserstein",
                "Mechanism), Delta_G,2 = max W_2 (Cauchy mechanism), optionally Delta_G,delta (approximate mechanism). Then the",
                "epsilon of Gaussian, Laplace and Cauchy releases at a noise scale, or the scale for a target epsilon.",
                "Table 1 of the paper: --table1 (reads the three UCI files in datasets/)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds pufferfish-sensitivity --data datasets/uci_student_mat.csv --value-column G3 --secret-column paid --scale 8",
                "  scripts/privacy-bounds pufferfish-sensitivity --data datasets/uci_adult_data.csv --value-column income --secret-column race \\",
                "      --query 'indicator:>50K' --target-epsilon 1 --alpha 2 --json",
                "  scripts/privacy-bounds pufferfish-sensitivity --table1 --out out/table1   # about 15 s"})
public final class PufferfishSensitivityCommand extends BoundsCommand implements RunRecord.EffectiveDefaults, RunRecord.InputsRead {
    @Option(names = "--data", paramLabel = "CSV", description = "A CSV file with a header row.")
    Path data;

    @Option(names = "--value-column", paramLabel = "X", description = "The released attribute.")
    String valueColumn;

    @Option(names = "--secret-column", paramLabel = "S", description = "The secret attribute: every pair of its values is a discriminative pair.")
    String secretColumn;

    @Option(names = "--query", paramLabel = "Q", defaultValue = "identity",
            description = "f applied to X: identity (X must be numeric), indicator:LEVEL (1 if X = LEVEL else 0), map:LEVEL=NUMBER,... (default: ${DEFAULT-VALUE}).")
    String query;

    @Option(names = "--secrets", paramLabel = "s1,s2,...", split = ",", description = "Only these secret values (default: every value present); each must have rows.")
    List<String> secrets;

    @Option(names = "--drop-non-numeric", description = "Skip rows whose value is not numeric (or not covered by --query) instead of stopping.")
    boolean dropNonNumeric;

    @Option(names = "--range", paramLabel = "LO:HI", description = "The domain of f(X), whose width is the DP sensitivity (default: the observed min:max).")
    String range;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "2", description = "Renyi order > 1, or inf for pure Pufferfish privacy (default: ${DEFAULT-VALUE}).")
    String alphaText;

    @Option(names = "--noise", paramLabel = "LIST", defaultValue = "gaussian,laplace,cauchy", split = ",",
            description = "Noise families to report: gaussian, laplace, cauchy, cauchy:K (default: ${DEFAULT-VALUE}).")
    List<String> noises;

    @Option(names = "--scale", paramLabel = "S", description = "Noise scale (Gaussian sd, Laplace b, Cauchy scale): report epsilon. Exclusive with --target-epsilon.")
    Double scale;

    @Option(names = "--target-epsilon", paramLabel = "E", description = "Report the smallest noise scale reaching this epsilon (default 1 when --scale is not given).")
    Double targetEpsilon;

    @Option(names = "--approx-delta", paramLabel = "D", description = "Also the approximate mechanism (GAWM): Delta_G,delta and its epsilon, delta in (0,1).")
    Double approxDelta;

    @Option(names = "--pp-delta", paramLabel = "D", defaultValue = "1e-5",
            description = "delta' of the Renyi-to-(eps, delta)-PP conversion of each release (Proposition 2.2; default: ${DEFAULT-VALUE}). A GAWM release adds its own --approx-delta: its PP delta is approx + (1 - approx) delta'.")
    double ppDelta;

    @Option(names = "--table1", description = "Reproduce Table 1: Student (G3 by paid), Heart (age by num), Adult (income by race) from --datasets.")
    boolean table1;

    @Option(names = "--datasets", paramLabel = "DIR", defaultValue = "datasets", description = "Folder of the UCI files for --table1 (default: ${DEFAULT-VALUE}).")
    Path datasets;

    /** Without --scale or --target-epsilon the releases are calibrated to eps = 1. */
    @Override
    public void effectiveDefaults(ObjectNode parameters) {
        if (scale == null && targetEpsilon == null) {
            parameters.put("target-epsilon", 1.0);
        }
    }

    private double alpha;
    private final List<Noise> families = new ArrayList<>();
    private double[] declared;

    /** --datasets is read by --table1 only. */
    @Override
    public boolean reads(String option) {
        return !option.equals("--datasets") || table1;
    }

    @Override
    protected void check() {
        datasets = Path.of(Installation.defaulted(spec, "--datasets", datasets.toString()));
        alpha = parseAlpha(alphaText);
        if (scale != null && targetEpsilon != null) {
            throw new UserInputException("--scale", scale, "give either --scale or --target-epsilon, not both");
        }
        if (scale != null && !(scale > 0 && Double.isFinite(scale))) {
            throw new UserInputException("--scale", scale, "must be a finite number > 0");
        }
        if (targetEpsilon != null && !(targetEpsilon > 0 && Double.isFinite(targetEpsilon))) {
            throw new UserInputException("--target-epsilon", targetEpsilon, "must be a finite number > 0");
        }
        if (approxDelta != null && !(approxDelta > 0 && approxDelta < 1)) {
            throw new UserInputException("--approx-delta", approxDelta, "must be in the open interval (0, 1)");
        }
        if (!(ppDelta > 0 && ppDelta < 1)) {
            throw new UserInputException("--pp-delta", ppDelta, "must be in the open interval (0, 1)");
        }
        for (String n : noises) {
            families.add(parseNoise(n));
        }
        declared = range == null ? null : parseRange(range);
        if (table1) {
            return;
        }
        if (data == null || valueColumn == null || secretColumn == null) {
            throw new UserInputException("--data", data, "give --data, --value-column and --secret-column (or --table1)");
        }
        InputFiles.CsvShape shape = InputFiles.checkCsv("--data", data); // before any work, also in a dry run
        for (String[] c : new String[][] {{"--value-column", valueColumn}, {"--secret-column", secretColumn}}) {
            if (!shape.header().contains(c[1])) {
                throw new UserInputException(c[0], c[1], "must be a column of " + InputFiles.shown(data) + " (" + String.join(", ", shape.header()) + ")");
            }
        }
    }

    @Override
    protected boolean readsInputsInCompute() {
        return true;
    }

    @Override
    protected Report compute(OutputDir out) {
        if (table1) {
            return Table1.report(this);
        }
        SparkSession spark = SparkSessions.get(common, "pufferfish-sensitivity");
        Progress.phase("reading --data");
        ConditionalLaws.Result laws = ConditionalLaws.read(spark, data, valueColumn, secretColumn, query, secrets, dropNonNumeric);
        OutputDir.inputsRead(spec, common); // a dry run ends here: every value read and checked
        Progress.phase("computing");
        OutputDir.mark(out, "read");
        Analysis a = analyse(laws, alpha, families, declared);
        return Report.of(a.root()).stage(null).text(o -> printText(o, a, laws)).write(dir -> write(dir, spark, a, laws));
    }

    /** One release as a row of releases.csv and the text table: whether it is the family's primary release. */
    record ReleaseRow(boolean primary, Releases.Release release) {
    }

    /** The analysis of one file: the JSON of the contract, the sensitivities and every release (primary first per family). */
    record Analysis(ObjectNode root, Sensitivities.Result sensitivities, double range, String rangeSource, List<ReleaseRow> releases) {
    }

    /** Sensitivities and releases of one file. */
    /** The parameters as given (the target eps as resolved). */
    private ObjectNode parameters() {
        ObjectNode p = Json.object();
        p.put("data", data == null ? null : data.toString());
        p.put("valueColumn", valueColumn);
        p.put("secretColumn", secretColumn);
        p.put("query", query);
        p.set("secrets", secrets == null ? null : Json.MAPPER.valueToTree(secrets));
        p.put("range", range);
        p.put("alpha", alphaText);
        p.set("noise", Json.MAPPER.valueToTree(noises));
        if (scale != null) {
            p.put("scale", scale);
        } else {
            p.put("targetEpsilon", targetEpsilon());
        }
        if (approxDelta != null) {
            p.put("approxDelta", approxDelta);
        }
        p.put("ppDelta", ppDelta);
        p.put("dropNonNumeric", dropNonNumeric);
        return p;
    }

    Analysis analyse(ConditionalLaws.Result laws, double alpha, List<Noise> families, double[] declared) {
        Sensitivities.Result r = Sensitivities.of(laws.laws(), 2, approxDelta == null ? Double.NaN : approxDelta);
        double observedLo = Double.POSITIVE_INFINITY;
        double observedHi = Double.NEGATIVE_INFINITY;
        for (DiscreteLaw l : laws.laws().values()) {
            observedLo = Math.min(observedLo, l.min());
            observedHi = Math.max(observedHi, l.max());
        }
        if (declared != null && (observedLo < declared[0] || observedHi > declared[1])) {
            throw new UserInputException("--range", range, "must contain every observed value (" + observedLo + ".." + observedHi + ")");
        }
        double rangeWidth = declared != null ? declared[1] - declared[0] : r.range();
        ObjectNode root = resultObject();
        root.set("parameters", parameters());
        root.put("rows", laws.rows());
        root.put("rowsWithoutSecret", laws.rowsWithoutSecret());
        root.put("rowsDropped", dropNonNumeric ? laws.droppedValues() : 0);
        ArrayNode groups = root.putArray("secretGroups");
        laws.laws().forEach((k, v) -> groups.addObject().put("secret", k).put("rows", v.total()).put("distinctValues", v.size()).put("mean", v.mean()));
        sensitivitiesJson(root, r, rangeWidth, declared != null);
        ArrayNode releases = root.putArray("releases");
        ArrayNode alternatives = root.putArray("alternatives");
        double approx = approxDelta == null ? Double.NaN : approxDelta;
        List<ReleaseRow> primary = new ArrayList<>();
        List<ReleaseRow> other = new ArrayList<>();
        for (Noise family : families) {
            Releases.Setting setting = scale != null ? Releases.Setting.atScale(family, alpha, scale, ppDelta)
                    : Releases.Setting.atTarget(family, alpha, targetEpsilon(), ppDelta);
            Releases.Family f = Releases.of(setting, laws.laws(), r, approx);
            releases.add(json(f.primary()));
            primary.add(new ReleaseRow(true, f.primary()));
            f.alternatives().forEach(x -> {
                alternatives.add(json(x));
                other.add(new ReleaseRow(false, x));
            });
        }
        root.put("units", "sensitivities in the units of f(X); epsilon in nats; scale: Gaussian standard deviation, Laplace b, Cauchy scale");
        List<ReleaseRow> all = new ArrayList<>(primary);
        all.addAll(other);
        return new Analysis(root, r, rangeWidth, declared != null ? "declared --range" : "observed min..max", all);
    }

    /** The sensitivities (W_inf, W_2 and, with --approx-delta, Delta_G,delta) and every pair of secret values, into {@code root}. */
    private void sensitivitiesJson(ObjectNode root, Sensitivities.Result r, double rangeWidth, boolean declared) {
        ObjectNode s = root.putObject("sensitivities");
        s.put("range", rangeWidth);
        s.put("rangeSource", declared ? "declared --range" : "observed min..max");
        s.put("wInf", r.wInfinity());
        s.set("wInfPair", Json.MAPPER.valueToTree(List.of(r.wInfinityPair().s(), r.wInfinityPair().t())));
        s.put("w2", r.wP());
        s.set("w2Pair", Json.MAPPER.valueToTree(List.of(r.wPPair().s(), r.wPPair().t())));
        if (approxDelta != null) {
            s.put("wInfNear", r.nearRadius());
            s.set("wInfNearPair", Json.MAPPER.valueToTree(List.of(r.nearRadiusPair().s(), r.nearRadiusPair().t())));
        }
        s.put("method", "exact: quantile coupling of the integer counts (W_inf, W_2 in exact decimals)"
                + (approxDelta != null ? "; Delta_G,delta by greedy maximal near mass and binary search over the pair distances" : ""));
        ArrayNode pairs = root.putArray("pairs");
        for (Sensitivities.PairValue v : r.pairs()) {
            ObjectNode n = pairs.addObject().put("s", v.s()).put("t", v.t()).put("wInf", v.wInfinity()).put("w2", v.wP());
            if (approxDelta != null) {
                n.put("wInfNear", v.nearRadius());
            }
        }
    }

    /** One release as the JSON of the contract: its Renyi epsilon and the (eps, delta)-PP guarantee derived from it. */
    private static ObjectNode json(Releases.Release r) {
        ObjectNode o = Json.object();
        o.put("noise", r.family().family());
        o.put("mechanism", r.mechanism());
        Json.put(o, "scale", r.scale());
        if (r.alpha() == Double.POSITIVE_INFINITY) {
            o.put("alpha", "inf");
        } else {
            o.put("alpha", r.alpha());
        }
        Json.put(o, "epsilon", r.epsilon());
        o.put("sensitivity", r.sensitivity());
        if (!Double.isNaN(r.approximationDelta())) {
            o.put("approximationDelta", r.approximationDelta());
        }
        if (r.pp() != null) {
            o.put("ppEpsilon", r.pp().epsilon());
            o.put("ppDelta", r.pp().delta());
        }
        o.put("method", r.method());
        return o;
    }

    double targetEpsilon() {
        return targetEpsilon != null ? targetEpsilon : scale == null ? 1.0 : Double.NaN;
    }

    private void printText(PrintWriter o, Analysis a, ConditionalLaws.Result laws) {
        Sensitivities.Result s = a.sensitivities();
        o.printf(Locale.ROOT, "pufferfish-sensitivity: %s, value %s (query %s), secret %s: %d rows, %d secret values%n",
                data.getFileName(), valueColumn, query, secretColumn, laws.rows(), laws.laws().size());
        laws.laws().forEach((k, v) -> o.printf(Locale.ROOT, "  %-22s %7d rows  mean %.4f%n", k, v.total(), v.mean()));
        o.printf(Locale.ROOT, "Delta (DP, %s) = %.6g%n", a.rangeSource(), a.range());
        o.printf(Locale.ROOT, "Delta_G   = max W_inf = %.6g  (pair %s)%n", s.wInfinity(), pair(s.wInfinityPair()));
        o.printf(Locale.ROOT, "Delta_G,2 = max W_2   = %.6f  (pair %s)%n", s.wP(), pair(s.wPPair()));
        if (approxDelta != null) {
            o.printf(Locale.ROOT, "Delta_G,delta         = %.6g  (delta %s, pair %s)%n", s.nearRadius(), approxDelta, pair(s.nearRadiusPair()));
        }
        RELEASES.printText(o, a.releases());
    }

    private static String pair(Sensitivities.PairValue p) {
        return Json.write(List.of(p.s(), p.t()));
    }

    /** A number as the text and CSV show it: 6 significant digits, "-" when there is none. */
    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "-";
    }

    /** The columns of releases.csv and the text table. */
    static final Columns<ReleaseRow> RELEASES = Columns.<ReleaseRow>of().bool("primary", ReleaseRow::primary)
            .string("noise", x -> x.release().family().family()).shown("noise", "%-9s")
            .string("mechanism", x -> x.release().mechanism()).shown("mechanism", "%-22s")
            .string("scale", x -> num(x.release().scale())).shown("scale", "%-14s")
            .string("alpha", x -> x.release().alpha() == Double.POSITIVE_INFINITY ? "inf" : Double.toString(x.release().alpha())).shown("alpha", "%-8s")
            .string("epsilon", x -> num(x.release().epsilon())).shown("epsilon", "%-14s")
            .string("pp_epsilon", x -> x.release().pp() == null ? "" : num(x.release().pp().epsilon()))
            .textOnly("PP epsilon", "%-14s", x -> x.release().pp() == null ? "-" : num(x.release().pp().epsilon()))
            .string("pp_delta", x -> x.release().pp() == null ? "" : num(x.release().pp().delta()))
            .textOnly("PP delta", "%s", x -> x.release().pp() == null ? "-" : num(x.release().pp().delta()))
            .string("method", x -> x.release().method());

    /** The columns of pairs.csv. */
    static final Columns<Sensitivities.PairValue> PAIRS = Columns.<Sensitivities.PairValue>of().string("secret_s", Sensitivities.PairValue::s)
            .string("secret_t", Sensitivities.PairValue::t).number("w_inf", Sensitivities.PairValue::wInfinity).number("w_2", Sensitivities.PairValue::wP)
            .number("w_inf_near", Sensitivities.PairValue::nearRadius);

    /** One (secret, value, count) cell of the conditional laws. */
    record Cell(String secret, double value, long count) {
    }

    /** The columns of counts.csv and counts.parquet. */
    static final Columns<Cell> COUNTS = Columns.<Cell>of().string("secret", Cell::secret).number("value", Cell::value).integer("count", Cell::count);

    void write(OutputDir out, SparkSession spark, Analysis a, ConditionalLaws.Result laws) {
        out.writeString("pairs.csv", PAIRS.csv(a.sensitivities().pairs()));
        out.writeString("releases.csv", RELEASES.csv(a.releases()));
        List<Cell> counts = new ArrayList<>();
        for (Row r : laws.counts()) {
            counts.add(new Cell(r.getAs("secret"), r.<Double>getAs("value"), r.<Long>getAs("count")));
        }
        COUNTS.write(out, spark, "counts", counts);
        List<Plots.Series> series = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, DiscreteLaw> e : laws.laws().entrySet()) {
            DiscreteLaw l = e.getValue();
            double[] x = new double[2 * l.size()];
            double[] y = new double[2 * l.size()];
            long cum = 0;
            for (int k = 0; k < l.size(); k++) {
                x[2 * k] = l.atoms()[k];
                y[2 * k] = (double) cum / l.total();
                cum += l.counts()[k];
                x[2 * k + 1] = l.atoms()[k];
                y[2 * k + 1] = (double) cum / l.total();
            }
            series.add(new Plots.Series(secretColumn + " = " + e.getKey() + " (" + l.total() + ")", x, y, false, Plots.color(i++)));
        }
        Plots.figure("CDF of " + valueColumn + " given " + secretColumn).x(valueColumn, Plots.Scale.LINEAR)
                .y("P(f(X) <= x | secret)", Plots.Scale.LINEAR).yIncludes(0).yIncludes(1).addAll(series).save(out.resolve("conditional-laws.png"));
    }

    static double parseAlpha(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("inf") || t.equals("infinity")) {
            return Double.POSITIVE_INFINITY;
        }
        double a;
        try {
            a = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new UserInputException("--alpha", text, "must be a number > 1 or inf");
        }
        if (!(a > 1) || Double.isInfinite(a)) {
            throw new UserInputException("--alpha", text, "must be a number > 1 or inf");
        }
        return a;
    }

    private static double[] parseRange(String text) {
        String[] p = text.split(":");
        try {
            if (p.length == 2) {
                double lo = Double.parseDouble(p[0].trim());
                double hi = Double.parseDouble(p[1].trim());
                if (Double.isFinite(lo) && Double.isFinite(hi) && hi >= lo) {
                    return new double[] {lo, hi};
                }
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new UserInputException("--range", text, "must be LO:HI with finite LO <= HI");
    }

    /** {@code gaussian}, {@code laplace}, {@code cauchy} or {@code cauchy:K} (generalised Cauchy, K >= 2), at unit scale. */
    static Noise parseNoise(String family) {
        String f = family.trim().toLowerCase(Locale.ROOT);
        if (f.equals("gaussian")) {
            return new Noise.Gaussian(1);
        }
        if (f.equals("laplace")) {
            return new Noise.Laplace(1);
        }
        if (f.equals("cauchy")) {
            return new Noise.Cauchy(1, 2);
        }
        if (f.startsWith("cauchy:")) {
            int k;
            try {
                k = Integer.parseInt(f.substring(7));
            } catch (NumberFormatException e) {
                throw new UserInputException("--noise", family, "cauchy:K needs an integer K >= 2");
            }
            return new Noise.Cauchy(1, k);
        }
        throw new UserInputException("--noise", family, "allowed: gaussian, laplace, cauchy, cauchy:K");
    }
}
