package org.privacybounds.jobs.quantized;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.SmallCsv;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code quantized-profile}: the exact delta_eps(x) of one given database of quantized gradient codes. */
@Command(name = "quantized-profile", header = "delta_eps(x) of one batch of quantized gradients, exact over every neighbour.", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"delta_eps(x) of one SGD step on a given database of b-bit gradient codes (integers c = ceil(g * 2^b) in",
                "-2^(b-1)+1..2^(b-1)): exact, certified, maximised over every neighbour (every code present changed to every",
                "code), with the worst neighbour; beside it the paper's heuristic neighbours (smallest code to the grid maximum,",
                "largest to the grid minimum) and, with --histogram, the same delta when the step releases the batch's code",
                "histogram (an upper bound for any function of the batch, the mean included: Propositions 4 and 6)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds quantized-profile --codes -3,0,0,1,5,7,7,12,-20 --batch-size 3 --epsilon 0.5,1,2",
                "  scripts/privacy-bounds quantized-profile --codes-file datasets/examples/batch.csv --codes-column code --epsilon 1 --histogram --json"})
public final class QuantizedProfileCommand extends BoundsCommand {
    @Option(names = "--codes", paramLabel = "c1,c2,...", description = "The database: one integer code per record.")
    String codes;

    @Option(names = "--codes-file", paramLabel = "CSV", description = "The database as a CSV file with a header, one record per row.")
    Path codesFile;

    @Option(names = "--codes-column", paramLabel = "NAME", description = "The column of --codes-file holding the codes (default: the first).")
    String codesColumn;

    @Option(names = "--epsilon", required = true, paramLabel = "LIST", description = "One or more eps >= 0: e1,e2,... or a:step:b.")
    String epsilon;

    @Mixin
    QuantizedOptions mechanism;

    @Option(names = "--histogram", description = "Also compute delta when the batch's code histogram is released (slower: every neighbour of a 2^b-category histogram).")
    boolean histogram;

    private double[] eps;
    private CodeGrid grid;
    private int[] records;

    @Override
    protected void check() {
        if ((codes == null) == (codesFile == null)) {
            throw new UserInputException("--codes", codes == null ? "(none)" : codes, "give exactly one of --codes and --codes-file");
        }
        eps = Ranges.epsilons("--epsilon", epsilon);
        mechanism.check();
        grid = mechanism.grid();
        // a file is small: read on the driver, before any work, without Spark
        records = codes != null ? parseCodes(codes) : readCodes(codesFile, codesColumn);
        grid.histogram(codes != null ? "--codes" : "--codes-file", records);
        mechanism.sampleSize(records.length);
        long distinct = Arrays.stream(records).distinct().count();
        double tEstimate = mechanism.sampleSize(records.length);
        // the histogram release visits every neighbour: each distinct code replaced by each of the 2^b codes (about 4e-6 core-s each per
        // sampled record, measured at b = 12 with 2,000 distinct codes); the mean release is cheap beside it
        double coreSeconds = 1 + 1e-6 * records.length + (histogram ? 4e-6 * distinct * Math.pow(2, mechanism.bits) * tEstimate : 0);
        WorkLimit.check(spec, common, "--bits, --histogram and the codes", coreSeconds, 64.0 * Math.pow(2, mechanism.bits) * Math.max(1, distinct) + 8.0 * records.length);
    }

    @Override
    protected Report compute(OutputDir out) {
        int n = records.length;
        int t = mechanism.sampleSize(n);
        int[] h = grid.histogram(codes != null ? "--codes" : "--codes-file", records);
        SamplingAverageMechanism m = new SamplingAverageMechanism(grid, t, mechanism.rounding());
        SamplingAverageMechanism.Value[] v = m.profile(h, eps, mechanism.neighborSet());
        SamplingHistogramMechanism shm = histogram ? SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, t) : null;
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        if (codes != null) {
            p.put("codes", codes);
        } else {
            p.put("codesFile", codesFile.toString());
            p.put("codesColumn", codesColumn);
        }
        p.set("epsilon", Json.MAPPER.valueToTree(eps));
        mechanism.echo(p);
        p.put("histogram", histogram);
        root.put("n", n);
        root.put("T", t);
        root.put("distinctCodes", Arrays.stream(h).filter(c -> c > 0).count());
        root.put("minCode", Arrays.stream(records).min().getAsInt());
        root.put("maxCode", Arrays.stream(records).max().getAsInt());
        root.put("dpDeltaBound", m.dpDeltaBound(n));
        ArrayNode results = root.putArray("results");
        List<Row> rows = new ArrayList<>();
        for (SamplingAverageMechanism.Value x : v) {
            rows.add(row(results.addObject(), x, shm, h));
        }
        root.put("units", "delta is a probability; epsilon in nats; codes are integers c = ceil(g * 2^bits)");
        return Report.of(root).text(o -> o.printf("quantized-profile: n = %d, T = %d, %d bits, %d distinct codes in %d..%d, output %s, neighbours %s; DP bound T/n = %.4g%n",
                    n, t, grid.bits(), root.get("distinctCodes").asLong(), root.get("minCode").asInt(), root.get("maxCode").asInt(),
                    mechanism.rounding().label(), mechanism.neighborSet().name().toLowerCase(Locale.ROOT), m.dpDeltaBound(n)))
                .table("results.csv", COLUMNS, rows);
    }

    /** One eps: its JSON in {@code r}, with the histogram release's delta beside it when {@code shm} is not null. */
    private static Row row(ObjectNode r, SamplingAverageMechanism.Value x, SamplingHistogramMechanism shm, int[] h) {
        r.put("epsilon", x.epsilon());
        Json.putLogPair(r, "delta", "log10Delta", x.logDelta());
        ObjectNode w = r.putObject("worstNeighbor");
        w.put("from", x.worstFrom());
        w.put("to", x.worstTo());
        w.put("direction", x.direction().label());
        r.put("heuristicDelta", x.heuristicDelta());
        Json.put(r, "log10HeuristicDelta", Math.log10(x.heuristicDelta()));
        ObjectNode hn = r.putObject("heuristicNeighbor");
        hn.put("from", x.heuristicFrom());
        hn.put("to", x.heuristicTo());
        r.put("heuristicTight", x.heuristicTight());
        r.put("absoluteErrorBound", x.absoluteError());
        Json.put(r, "relativeErrorBound", x.relativeError());
        r.put("method", "exact sum over every output, laws of every leave-one-out database by divide and conquer; certified");
        Double hd = null;
        if (shm != null) {
            ProfileValue pv = shm.profile(h, x.epsilon());
            hd = pv.delta();
            Json.putLogPair(r, "histogramDelta", "log10HistogramDelta", pv.logDelta());
        }
        return new Row(x, hd);
    }

    static int[] parseCodes(String text) {
        String[] parts = text.split(",");
        int[] r = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                r[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new UserInputException("--codes", parts[i].trim(), "every code must be an integer");
            }
        }
        return r;
    }

    private static int[] readCodes(Path file, String column) {
        SmallCsv csv = SmallCsv.read("--codes-file", file, true);
        int c = column != null ? csv.column("--codes-column", column) : 0;
        if (csv.header().isEmpty()) {
            throw new UserInputException("--codes-file", file, "has no columns");
        }
        if (csv.rows().isEmpty()) {
            throw new UserInputException("--codes-file", file, "has no records");
        }
        int[] r = new int[csv.rows().size()];
        for (int i = 0; i < r.length; i++) {
            String s = SmallCsv.cell(csv.rows().get(i), c);
            try {
                r[i] = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new UserInputException("--codes-file", InputFiles.shown(file) + " row " + (i + 2) + " value '" + s + "'", "every code must be an integer");
            }
        }
        return r;
    }

    /** One eps: the exact value, and the histogram mechanism's delta beside it (null unless asked for). */
    record Row(SamplingAverageMechanism.Value value, Double histogramDelta) {
        String worstText() {
            return value.worstFrom() + "->" + value.worstTo() + " " + value.direction().label();
        }
    }

    /** The columns of results.csv and the text table (the JSON keeps its nested neighbour objects). */
    static final Columns<Row> COLUMNS = Columns.<Row>of().number("epsilon", r -> r.value().epsilon()).shown("epsilon", "%-10.4g")
            .number("delta", r -> r.value().delta()).shown("delta", "%-14.6e").number("log10Delta", r -> Math.log10(r.value().delta())).shown("log10", "%-11.4f")
            .string("worstNeighbor", Row::worstText).shown("worst neighbour", "%-22s").number("heuristicDelta", r -> r.value().heuristicDelta())
            .shown("heuristic", "%-14.6e").bool("heuristicTight", r -> r.value().heuristicTight()).shown("tight", "%-8s")
            .optionalNumber("histogramDelta", Row::histogramDelta)
            .textOnly("histogram", "%-14s", r -> r.histogramDelta() == null ? "-" : String.format(Locale.ROOT, "%.6e", r.histogramDelta()))
            .number("relativeErrorBound", r -> r.value().relativeError()).shown("relErr", "%.1e");
}
