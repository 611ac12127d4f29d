package org.privacybounds.jobs.ensemble;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.ErrorMetric;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.guarantee.Verdict;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import scala.Tuple2;

/** {@code darrm-aggregate}: private majority labels for a table of teacher votes (the private-prediction use of Section 6.2). */
@Command(name = "darrm-aggregate", header = "Private majority labels for a table of teachers' votes (DaRRM with a chosen noise function).", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Private majority labels: each row of --votes holds the K teachers' votes on one query (0/1, or labels with",
                "--positive-label); DaRRM releases the true majority with probability gamma(L) (L = number of ones), else a fair coin.",
                "Each query is (m eps, delta)-DP; the total over Q queries is reported by simple and general composition (Theorem 2.3).",
                "Randomness is seeded per query (the same labels for any partitioning)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds darrm-aggregate --votes datasets/examples/votes.csv --positive-label 8 --k 11 --m 3 --epsilon 0.0892 --delta-mech 1e-4 --delta 3e-4 --family opt --out out/labels",
                "  scripts/privacy-bounds darrm-aggregate --votes datasets/examples/votes.csv --k 11 --m 3 --epsilon 0.0892 --delta-mech 1e-4 --family sub --positive-label 8 --json"})
public final class DarrmAggregateCommand extends BoundsCommand {
    @Mixin
    DarrmOptions setting;

    @Mixin
    GammaSource source;

    @Option(names = "--votes", paramLabel = "CSV", required = true, description = "One query per row, one column per teacher (K columns), with a header row.")
    Path votes;

    @Option(names = "--positive-label", paramLabel = "L", description = "The vote value that counts as 1 (others as 0); without it votes must be 0 or 1.")
    String positiveLabel;

    @Option(names = "--queries-delta-prime", paramLabel = "D", defaultValue = "1e-4", description = "delta' of the general composition over the queries (default: ${DEFAULT-VALUE}).")
    double deltaPrime;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Minimum Spark partitions of the votes file (default: Spark's choice).")
    int partitions;

    private ConstraintSet set;
    private InputFiles.CsvShape shape;
    private VoteRow voteRow;

    @Override
    protected void check() {
        set = setting.set();
        if (partitions < 0) {
            throw new UserInputException("--partitions", partitions, "must be >= 0");
        }
        shape = InputFiles.checkCsv("--votes", votes);
        // the votes and gamma are read and checked before any work: every row in a dry run, the first 1,000 otherwise
        voteRow = new VoteRow(setting.resolved().k(), positiveLabel, InputFiles.shown(votes));
        voteRow.scan(votes, common.dryRun ? Long.MAX_VALUE : 1000);
        source.given(setting);
        // every query's label and guarantee is kept on the driver
        WorkLimit.check(spec, common, "--votes (" + shape.rows() + " rows)", 1e-4 * shape.rows() + 2, 2e3 * shape.rows());
        if (!(deltaPrime > 0 && deltaPrime <= 1)) {
            throw new UserInputException("--queries-delta-prime", deltaPrime, "must be in (0, 1]");
        }
    }

    @Override
    protected Report compute(OutputDir out) {
        SparkSession spark = SparkSessions.get(common, "darrm-aggregate");
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        CertifiedGamma certified = certifiedGamma(jsc);
        double[] gamma = certified.gamma();
        HighPrecisionVerifier.Certificate cert = certified.certificate();
        List<Label> rows = labels(jsc, gamma);
        long q = rows.size();
        long agree = rows.stream().filter(r -> r.label() == r.majority()).count();
        double perEps = setting.resolved().m() * setting.resolved().epsilon();
        double perDelta = setting.resolved().delta();
        Guarantee perQuery = Guarantee.of(perEps, perDelta, "DaRRM, (m eps, delta) per query", 0);
        Guarantee simple = Composition.basic(perQuery, q);
        Guarantee general = Composition.general(perQuery, q, deltaPrime);
        ObjectNode root = resultObject();
        ObjectNode p = root.putObject("parameters");
        setting.echo(p);
        p.put("votes", votes.toString());
        p.put("positiveLabel", positiveLabel);
        p.put("gammaSource", source.describe());
        p.put("deltaPrime", deltaPrime);
        root.put("gammaVerdict", cert.verdict().word());
        root.put("gammaDecidedBy", cert.arithmetic());
        p.put("seed", common.seed);
        root.set("gamma", Json.MAPPER.valueToTree(gamma));
        root.put("queries", q);
        root.put("agreementWithMajority", (double) agree / q);
        ObjectNode per = root.putObject("perQuery");
        per.put("epsilon", perEps);
        per.put("delta", perDelta);
        ObjectNode tot = root.putObject("total");
        tot.putObject("simple").put("epsilon", simple.epsilon()).put("delta", simple.delta());
        tot.putObject("general").put("epsilon", general.epsilon()).put("delta", general.delta()).put("branch", Composition.generalBranch(q, perEps, deltaPrime));
        root.put("units", "labels are 1 (the positive class) or 0; epsilon in nats");
        return Report.of(root).stage(null).text(o -> {
            o.printf(Locale.ROOT, "darrm-aggregate: %d queries, K = %d; %.1f%% of the private labels equal the teachers' majority%n", q, setting.resolved().k(),
                    100.0 * agree / q);
            o.printf(Locale.ROOT, "per query (%.6g, %.3g)-DP; total over %d queries: simple (%.6g, %.3g), general (%.6g, %.3g) with delta' = %g%n", perEps,
                    perDelta, q, simple.epsilon(), simple.delta(), general.epsilon(), general.delta(), deltaPrime);
        }).dataset("labels", LABELS, spark, rows);
    }

    /** A gamma and the certificate that it gives (m eps, delta). */
    private record CertifiedGamma(double[] gamma, HighPrecisionVerifier.Certificate certificate) {
    }

    /** The gamma of --family / --gamma, refused unless it provably gives (m eps, delta): checked before any label is drawn. */
    private CertifiedGamma certifiedGamma(JavaSparkContext jsc) {
        PrintWriter err = spec.commandLine().getErr();
        double em = Math.exp(setting.resolved().m() * setting.resolved().epsilon());
        SparkSeparation sep = new SparkSeparation(set.size() > SparkSeparation.LOCAL_LIMIT ? jsc : null, set, em, 0);
        double[] gamma = source.gamma(setting, set, sep, line -> err.println("darrm-aggregate: " + line));
        ExactTarget target = setting.exact();
        HighPrecisionVerifier.Certificate cert = DarrmOptions.highPrecision("auto", set.size()) ? HighPrecisionVerifier.verify(set, target, gamma)
                : HighPrecisionVerifier.verifyByScan(set, target, gamma, em, sep);
        sep.close();
        if (!cert.certified()) {
            throw new UserInputException(source.option(), source.describe(), String.format(Locale.ROOT,
                    "DaRRM with this gamma is %s (m eps, delta) = (%s, %s)-DP (worst multiset %s), so its labels would not carry that guarantee; "
                            + "see darrm-verify, or use --family opt", cert.verdict() == Verdict.FAILS ? "not" : "not provably",
                    target.mEpsilon().stripTrailingZeros().toPlainString(), target.delta().stripTrailingZeros().toPlainString(),
                    Arrays.toString(cert.worstMultiset())));
        }
        return new CertifiedGamma(gamma, cert);
    }

    /** Every query's released label, in the order of the file: drawn on the executors, each with its own seed from its row number. */
    private List<Label> labels(JavaSparkContext jsc, double[] gamma) {
        int k = setting.resolved().k();
        long seed = common.seed;
        VoteRow row = voteRow;
        String literal = InputFiles.sparkPath(votes);
        JavaPairRDD<String, Long> lines = (partitions > 0 ? jsc.textFile(literal, partitions) : jsc.textFile(literal)).zipWithIndex();
        JavaRDD<Label> labelled = lines.filter(t -> t._2() > 0 && !t._1().isBlank()).mapPartitions(it -> {
            CsvParser parser = new CsvParser(new CsvParserSettings());
            List<Label> res = new ArrayList<>();
            while (it.hasNext()) {
                Tuple2<String, Long> t = it.next();
                int l = row.ones(parser.parseLine(t._1()), t._2() + 1);
                ErrorMetric.Release rel = ErrorMetric.release(gamma, l, new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (t._2() + 1))));
                res.add(new Label(t._2(), l, rel.majorityReleased(), rel.label(), 2 * l > k ? 1 : 0));
            }
            return res.iterator();
        });
        List<Label> rows = new ArrayList<>(labelled.collect());
        rows.sort(Comparator.comparingLong(Label::query));
        if (rows.isEmpty()) {
            throw new UserInputException("--votes", InputFiles.shown(votes), "has no query rows below its header");
        }
        return rows;
    }

    /** One query's release: its line number in the file (header = 0), the teachers voting 1, whether the majority was released, the label, the majority. */
    record Label(long query, long ones, boolean releasedMajority, long label, long majority) implements Serializable {
    }

    /** One row of --votes: K cells, each 0 or 1 (or the positive label against any other value). */
    record VoteRow(int k, String positive, String file) implements Serializable {
        /** The number of ones among the row's K votes, or exit 2 naming the file as given, the row and the value. */
        int ones(String[] cells, long row) {
            if (cells.length != k) {
                throw new UserInputException("--votes", file + " row " + row + " has " + cells.length + " columns", "every row needs K = " + k + " votes");
            }
            int l = 0;
            for (String c : cells) {
                String v = c == null ? "" : c.trim();
                if (positive != null) {
                    l += v.equals(positive) ? 1 : 0;
                } else if (v.equals("1")) {
                    l++;
                } else if (!v.equals("0")) {
                    throw new UserInputException("--votes", file + " row " + row + " value '" + v + "'", "votes must be 0 or 1 (or give --positive-label)");
                }
            }
            return l;
        }

        /** Checks the first {@code rows} rows below the header. */
        void scan(Path votes, long rows) {
            CsvParser parser = new CsvParser(new CsvParserSettings());
            try (BufferedReader r = Files.newBufferedReader(votes, StandardCharsets.UTF_8)) {
                String line = r.readLine(); // the header
                for (long i = 1; i <= rows && (line = r.readLine()) != null; i++) {
                    if (!line.isBlank()) {
                        ones(parser.parseLine(line), i + 1);
                    }
                }
            } catch (IOException e) {
                throw new UserInputException("--votes", file, "cannot be read (" + e.getMessage() + ")");
            }
        }
    }

    /** The columns of labels.csv and labels.parquet, over the job's rows {query, ones, released majority (1/0), label, majority}. */
    static final Columns<Label> LABELS = Columns.<Label>of().integer("query", Label::query).integer("ones", Label::ones)
            .bool("released_majority", Label::releasedMajority).integer("label", Label::label).integer("majority", Label::majority);
}
