package org.privacybounds.jobs.smoothed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Counts;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.smoothed.AdjustedUtility;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.UtilityForm;
import org.privacybounds.smoothed.UtilityValue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code utility}: the Bayesian adversary's adjusted utility with the corrected Lemma 10 bounds. */
@Command(name = "utility", header = "The Bayesian adversary's adjusted utility against the sampling-histogram mechanism.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The Bayesian adversary's adjusted utility (Smoothed DP paper, Eq. (3) / Appendix A.1) against the",
                "sampling-histogram mechanism for one database and threshold t (eps = ln(t/(1-t))), exact in log space,",
                "with the corrected Lemma 10 bounds (d + d')/2 <= u <= d + d' of the worst neighbour pair."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds utility --counts 1000,1000 --eta 0.998 --threshold 0.51",
                "  scripts/privacy-bounds utility --counts 74216154,81268924 --eta 0.998 --threshold 0.5,0.51,0.6 --form eq3 --json"})
public final class UtilityCommand extends BoundsCommand {
    @Option(names = "--counts", required = true, paramLabel = "c1,c2,...", description = "Histogram of the database over m >= 2 categories.")
    String counts;

    @Option(names = "--threshold", required = true, paramLabel = "LIST", description = "One or more thresholds t in [0.5, 1): t1,t2,... or a:step:b.")
    String threshold;

    @Option(names = "--form", paramLabel = "figure1|eq3", defaultValue = "figure1",
            description = "figure1: Appendix A.1's form plotted in Figure 1 (expectation under the real x); eq3: Eq. (3), m = 2 (default: ${DEFAULT-VALUE}).")
    String form;

    @Mixin
    MechanismOptions mechanism;

    /** The value of a {@code --form figure1|eq3} option. */
    static UtilityForm parseForm(String value) {
        return switch (value) {
            case "figure1" -> UtilityForm.FIGURE1;
            case "eq3" -> UtilityForm.EQ3;
            default -> throw new UserInputException("--form", value, "must be 'figure1' or 'eq3'");
        };
    }

    private int[] h;
    private long n;
    private List<Double> ts;
    private UtilityForm f;
    private int t;

    @Override
    protected void check() {
        h = Counts.parse("--counts", counts);
        n = Arrays.stream(h).asLongStream().sum();
        ts = Ranges.doubles("--threshold", threshold);
        f = parseForm(form);
        t = (int) mechanism.sampleSize(n); // T <= n, whose counts Counts.parse keeps within 2^31 - 1
    }

    @Override
    protected Report compute(OutputDir out) {
        AdjustedUtility au = new AdjustedUtility(SamplingHistogramMechanism.of(mechanism.sampling(), t));
        List<Row> rows = new ArrayList<>();
        for (double thr : ts) {
            rows.add(new Row(thr, au.utility(h, thr, f)));
        }
        return Report.of(json(rows)).text(o -> o.printf("utility (%s form): n = %d, T = %d (%d lost)%n", form, n, t, n - t))
                .table("results.csv", COLUMNS, rows);
    }

    private ObjectNode json(List<Row> rows) {
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        p.put("counts", counts);
        p.set("threshold", Json.MAPPER.valueToTree(ts));
        p.put("form", form);
        mechanism.echo(p);
        root.put("n", n);
        root.put("T", t);
        ArrayNode results = root.putArray("results");
        for (Row row : rows) {
            UtilityValue u = row.value();
            ObjectNode r = results.addObject();
            r.put("threshold", row.threshold());
            r.put("epsilon", u.epsilon());
            Json.putLogPair(r, "utility", "log10Utility", u.logUtility());
            Json.put(r, "lemma10Lower", Math.exp(u.logLemma10Lower()));
            Json.put(r, "lemma10Upper", Math.exp(u.logLemma10Upper()));
            Json.put(r, "log10Lemma10Lower", LogMath.toLog10(u.logLemma10Lower()));
            Json.put(r, "log10Lemma10Upper", LogMath.toLog10(u.logLemma10Upper()));
            Json.putLogPair(r, "pairUtilityEq3", "log10PairUtilityEq3", u.logPairUtility());
            if (u.worst() != null) {
                r.set("worstNeighbor", Json.neighbor(u.worst()));
            } else {
                r.putNull("worstNeighbor");
            }
            Json.put(r, "relativeErrorBound", u.relativeErrorBound());
        }
        root.put("units", "utility in [0, 1] (1 = always-correct adversary, 0 = no better than the threshold)");
        return root;
    }

    /** One threshold's utility. */
    record Row(double threshold, UtilityValue value) {
    }

    /** The columns of results.csv and the text table (the JSON adds the log10 forms, Eq. 3 and the worst neighbour). */
    static final Columns<Row> COLUMNS = Columns.<Row>of().number("threshold", Row::threshold).shown("t", "%-10.6g")
            .number("epsilon", r -> r.value().epsilon()).shown("epsilon", "%-12.6g").number("utility", r -> r.value().utility()).shown("utility", "%-14.6e")
            .number("log10Utility", r -> r.value().log10Utility()).shown("log10util", "%-12.6f")
            .number("lemma10Lower", r -> Math.exp(r.value().logLemma10Lower())).shown("lemma10Lower", "%-14.6e")
            .number("lemma10Upper", r -> Math.exp(r.value().logLemma10Upper())).shown("lemma10Upper", "%-14.6e")
            .number("relativeErrorBound", r -> r.value().relativeErrorBound()).shown("relErr", "%.1e");
}
