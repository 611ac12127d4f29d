package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Counts;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.NoisySamplingHistogramMechanism;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Remark8Bound;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code profile}: delta_eps(x) of one database, next to the DP worst case and the Remark 8 bound. */
@Command(name = "profile", header = "delta_eps(x) of the sampling-histogram mechanism for one database, with the worst neighbour.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"delta_eps(x) (Smoothed DP paper, Definition 2) of the sampling-histogram mechanism for one database,",
                "exact and certified, maximised over every replace-one neighbour; beside it the worst-case (DP) delta",
                "and the paper's Remark 8 smoothed bound. With --noise exponential: Algorithm 4, exact by enumeration,",
                "with the realised DP eps next to the paper's nominal eta*eps."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds profile --counts 1000,1000 --eta 0.998 --epsilon 0.0400053346136992",
                "  scripts/privacy-bounds profile --counts 600,300,100 --lost 5 --epsilon 0:0.5:2 --sampling with --json",
                "  scripts/privacy-bounds profile --counts 12,8 --sample-size 2 --noise exponential --noise-epsilon 10 --epsilon 1"})
public final class ProfileCommand extends BoundsCommand {
    @Option(names = "--counts", required = true, paramLabel = "c1,c2,...", description = "Histogram of the database over m >= 2 categories.")
    String counts;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "One or more eps >= 0: e1,e2,... or a:step:b.")
    String epsilon;

    @Mixin
    MechanismOptions mechanism;

    @Mixin
    NoiseOptions noise;

    @Option(names = "--min-probability", paramLabel = "F",
            description = "f of Remark 8: the smallest probability any distribution of Pi gives a category (default: the smallest category share of --counts).")
    Double minProbability;

    private int[] h;
    private long n;
    private List<Double> eps;
    private int t;
    private boolean noisy;
    private double f;

    @Override
    protected void check() {
        h = Counts.parse("--counts", counts);
        n = Arrays.stream(h).asLongStream().sum();
        eps = Arrays.stream(Ranges.epsilons("--epsilon", epsilon)).boxed().toList();
        t = (int) mechanism.sampleSize(n); // T <= n, whose counts Counts.parse keeps within 2^31 - 1
        noisy = noise.noisy();
        f = minProbability != null ? minProbability : Arrays.stream(h).min().getAsInt() / (double) n;
        if (minProbability != null && !(minProbability > 0 && minProbability <= 1.0 / h.length)) {
            throw new UserInputException("--min-probability", minProbability, "must be in (0, 1/m] with m = " + h.length);
        }
        // every move of one record between two categories, over every category: about 1.5e-9 m^3 core-seconds
        // (39 s at m = 3,000, 274 s at m = 6,000 on 2 cores)
        WorkLimit.check(spec, common, "--counts (" + h.length + " categories)", 1 + 1.5e-9 * Math.pow(h.length, 3), 1000.0 * h.length);
    }

    @Override
    protected Report compute(OutputDir out) {
        SamplingHistogramMechanism shm = SamplingHistogramMechanism.of(mechanism.sampling(), t);
        shm.checkHistogram(h);
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("counts", counts);
        mechanism.echo(p);
        noise.echo(p);
        p.set("epsilon", Json.MAPPER.valueToTree(eps));
        Json.put(p, "minProbability", f);
        root.put("n", n);
        root.put("T", t);
        root.put("m", h.length);
        ArrayNode results = root.putArray("results");
        List<Row> rows = new ArrayList<>();
        NoisySamplingHistogramMechanism nm = noisy ? NoisySamplingHistogramMechanism.of(mechanism.sampling(), t, noise.noiseEpsilon) : null;
        double[] worstCase = noisy ? safeWorstCase(nm, (int) n, h.length, eps.get(0)) : null; // null: the DP-level enumeration is skipped for large n
        if (noisy) {
            root.put("nominalEpsilon", nm.nominalEpsilon((int) n));
            root.put("amplifiedEpsilon", nm.amplifiedEpsilon((int) n));
            Json.put(root, "dpRealisedEpsilon", worstCase == null ? Double.NaN : worstCase[1]);
        }
        for (int i = 0; i < eps.size(); i++) {
            double e = eps.get(i);
            rows.add(row(results.addObject(), e, shm, nm, i == 0 ? worstCase : noisy ? safeWorstCase(nm, (int) n, h.length, e) : null));
        }
        root.put("units", "delta is a probability; epsilon in nats");
        String algorithm4 = !noisy ? "" : String.format("Algorithm 4: nominal eta*eps = %.6g, amplified ln(1+eta(e^eps-1)) = %.6g, realised DP eps = %s%n",
                nm.nominalEpsilon((int) n), nm.amplifiedEpsilon((int) n), worstCase == null ? "n/a (too many databases)" : String.format("%.6g", worstCase[1]));
        return Report.of(root).text(o -> {
            o.printf("profile: n = %d, T = %d (%d lost), m = %d, sampling %s, noise %s%n", n, t, n - t, h.length, mechanism.sampling, noise.noise);
            o.print(algorithm4);
        }).table("results.csv", noisy ? NOISY_COLUMNS : COLUMNS, rows);
    }

    /** One eps of the profile, its JSON in {@code r}; {@code wc} is the DP-level worst case with Algorithm 4's noise. */
    private Row row(ObjectNode r, double e, SamplingHistogramMechanism shm, NoisySamplingHistogramMechanism nm, double[] wc) {
        ProfileValue v;
        r.put("epsilon", e);
        double logDp;
        if (noisy) {
            NoisySamplingHistogramMechanism.NoisyProfile np = nm.profile(h, e);
            v = np.profile();
            logDp = wc == null ? Double.NaN : wc[0];
            Json.putLogPair(r, "delta", "log10Delta", v.logDelta());
            r.put("realisedEpsilon", np.realisedEpsilon());
        } else {
            v = shm.profile(h, e);
            logDp = shm.logDpDelta((int) n);
            Json.putLogPair(r, "delta", "log10Delta", v.logDelta());
        }
        if (v.worst() != null) {
            r.set("worstNeighbor", Json.neighbor(v.worst()));
        } else {
            r.putNull("worstNeighbor");
        }
        Json.put(r, "dpDelta", Math.exp(logDp));
        OptionalDouble r8 = Remark8Bound.logBound((double) t / n, e, f, h.length, n);
        Json.put(r, "remark8Bound", r8.isPresent() ? Math.exp(r8.getAsDouble()) : Double.NaN);
        Json.put(r, "log10Remark8Bound", r8.isPresent() ? LogMath.toLog10(r8.getAsDouble()) : Double.NaN);
        Json.put(r, "relativeErrorBound", v.relativeErrorBound());
        r.put("method", v.method());
        return new Row(e, v, Math.exp(logDp), r8.isPresent() ? Math.exp(r8.getAsDouble()) : null, noisy ? r.get("realisedEpsilon").asDouble() : null);
    }

    /**
     * One eps of the profile: the value, the DP bound beside it, Remark 8's bound (null where it does not apply) and, with
     * Algorithm 4's noise, the realised eps of this database (null without noise).
     */
    record Row(double epsilon, ProfileValue value, double dpDelta, Double remark8Bound, Double realisedEpsilon) {
        /** The worst neighbour as results.csv and the text write it ("1->2 x->x'"; empty when there is none). */
        String worstText() {
            return value.worst() == null ? "" : (value.worst().from() + 1) + "->" + (value.worst().to() + 1) + " " + value.worst().direction().label();
        }
    }

    /** The columns of results.csv and the text table (the JSON keeps its nested worstNeighbor object). */
    static final Columns<Row> COLUMNS = columns();

    /** With Algorithm 4's noise, the realised eps of this database too (text and results.csv, as in the JSON). */
    static final Columns<Row> NOISY_COLUMNS = columns().optionalNumber("realisedEpsilon", Row::realisedEpsilon).shown("realisedEps", "%-12.6g");

    private static Columns<Row> columns() {
        return Columns.<Row>of().number("epsilon", Row::epsilon).shown("epsilon", "%-12.6g")
            .number("delta", r -> r.value().delta()).textOnly("delta", "%-14s", r -> Columns.scientific(r.value().delta(), r.value().log10Delta()))
            .number("log10Delta", r -> r.value().log10Delta()).shown("log10delta", "%-12.6f")
            .number("dpDelta", Row::dpDelta).shown("dpDelta", "%-12.6g").optionalNumber("remark8Bound", Row::remark8Bound)
            .textOnly("remark8", "%-12s", r -> r.remark8Bound() == null ? "n/a" : String.format(Locale.ROOT, "%.4g", r.remark8Bound()))
            .number("relativeErrorBound", r -> r.value().relativeErrorBound()).shown("relErr", "%-10.1e").string("worstNeighbor", Row::worstText)
            .shown("worst neighbour", "%s");
    }

    private static double[] safeWorstCase(NoisySamplingHistogramMechanism nm, int n, int m, double e) {
        try {
            return nm.worstCase(n, m, e);
        } catch (IllegalArgumentException tooBig) {
            return null;
        }
    }
}
