package org.privacybounds.jobs.smoothed;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.SmallCsv;
import org.privacybounds.jobs.common.UserInputException;
import org.privacybounds.jobs.precincts.PrecinctJob;
import org.privacybounds.jobs.precincts.PrecinctReturns;
import org.privacybounds.jobs.precincts.PrecinctSelection;
import org.privacybounds.numeric.Decimals;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.smoothed.sdp.PolytopeBounds;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** The set of distributions Pi of the smoothed commands, and how its hull is reduced. */
public final class PiOptions {
    /** Exactly one source of Pi. */
    static final class Source {
        @Option(names = "--distributions", paramLabel = "P;Q;...",
                description = "Distributions over the m categories, ';' between distributions, ',' between probabilities, e.g. \"0.3,0.7;0.8,0.2\".")
        String inline;

        @Option(names = "--distributions-file", paramLabel = "CSV",
                description = "CSV with a header: one distribution per row, one column per category (a column named by --label-column is a label).")
        String file;

        @Option(names = "--distributions-from-votes", paramLabel = "CSV",
                description = "CSV of vote counts: each row's shares of the --votes-columns (A/(A+B), B/(A+B) for two; A/(A+B+C), ... for more) are a distribution (counts as 153778, \"153,778\" or 1.5e5).")
        String votes;

        @Option(names = "--distributions-from-precincts", paramLabel = "DIR|CSV",
                description = "Long-format precinct returns (as for the precincts command, with --candidates etc.): each precinct's (or county's, --precinct-points county) category shares is a distribution.")
        String precincts;
    }

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "The distributions Pi (exactly one source):%n")
    Source source;

    @Option(names = "--votes-columns", paramLabel = "A,B[,C...]", defaultValue = "biden_votes,trump_votes",
            description = "Vote columns of --distributions-from-votes, two or more: one category each (default: ${DEFAULT-VALUE}).")
    String votesColumns;

    @Option(names = "--label-column", paramLabel = "C", defaultValue = "jurisdiction",
            description = "Column that names each row, if present (default: ${DEFAULT-VALUE}; 'year' works for election histories).")
    String labelColumn;

    @Option(names = "--symmetric",
            description = "The paper's code's hull for two categories: p and 1-p folded together, lower vertex pinned at 1/2 (off by default).")
    boolean symmetric;

    @Option(names = "--max-vertices", paramLabel = "K", defaultValue = "8",
            description = "When the hull has more vertices (three or more categories), bound delta_SDP instead: above by an enclosing simplex, below by K of the hull's vertices (default: ${DEFAULT-VALUE}).")
    int maxVertices;

    public int maxVertices() {
        return maxVertices;
    }

    @Option(names = "--refine-seconds", paramLabel = "S", defaultValue = "40",
            description = "Three or more categories beyond --max-work: core-seconds of refinement per eps for each side of the certified bounds (default: ${DEFAULT-VALUE}); more narrows the part of the gap its refinement (cells, boxes, exact sums) leaves, not what the hull or the bounds' own arguments leave (--max-work still caps the run).")
    double refineSeconds;

    /** Core-seconds of refinement per eps and side of the certified bounds (three or more categories), checked. */
    public double refineSeconds() {
        if (!(refineSeconds > 0) || refineSeconds > 1e7) {
            throw new UserInputException("--refine-seconds", refineSeconds, "must be > 0 and at most 1e7 core-seconds");
        }
        return refineSeconds;
    }

    @Option(names = "--precinct-points", paramLabel = "precinct|county", defaultValue = "precinct",
            description = "With --distributions-from-precincts: one distribution per precinct, or per county (its summed counts) (default: ${DEFAULT-VALUE}).")
    String precinctPoints;

    @picocli.CommandLine.Mixin
    PrecinctSelection precincts;

    /** What the source names each category (vote columns, candidates and other, a file's columns), once read; empty if none. */
    private List<String> categoryNames = List.of();

    /** The name Pi's source gives category c (counted from 0), or "category c + 1" where it gives none (--distributions). */
    public String categoryName(int c) {
        return c < categoryNames.size() ? categoryNames.get(c) : "category " + (c + 1);
    }

    /**
     * What a user can do about a vertex with a share of 0 of category c, for the notice that says so: for precinct returns the
     * other candidates' category is dropped by --no-other (a county's returns may list the named candidates only) and a
     * candidate spelled otherwise in some files is counted by --alias; empty for other sources, whose shares are as given.
     */
    public String zeroShareHint(int c) {
        if (!needsSpark()) {
            return "";
        }
        return precincts.categories().other() && c == categoryNames.size() - 1 ? "; --no-other drops the other candidates' votes, which some returns do not list"
                : "; where returns spell a candidate otherwise, --alias SPELLING=CANDIDATE counts those votes";
    }

    /** True when Pi comes from precinct returns, which Spark reads. */
    public boolean needsSpark() {
        return source.precincts != null;
    }

    /** Categories of Pi before it is read (precinct returns: the candidates and other), or 0 if only reading tells. */
    public int categoriesBeforeReading() {
        return source.precincts != null && precincts.given() ? precincts.categories().names().size() : 0;
    }

    /** Pi from precinct returns, read and summed on the executors: one share vector per precinct (or county) with ballots. */
    public DistributionSet read(SparkSession spark) {
        if (source.precincts == null) {
            return read();
        }
        if (!precincts.given()) {
            throw new UserInputException("--candidates", "(none)", "--distributions-from-precincts needs the candidate categories, e.g. --candidates 'A,B'");
        }
        boolean county = switch (precinctPoints.trim().toLowerCase(Locale.ROOT)) {
            case "precinct" -> false;
            case "county" -> true;
            default -> throw new UserInputException("--precinct-points", precinctPoints, "must be precinct or county");
        };
        var files = PrecinctReturns.check("--distributions-from-precincts", PrecinctReturns.files("--distributions-from-precincts", source.precincts),
                precincts.columns());
        var categories = precincts.categories();
        categoryNames = categories.names();
        var jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        var cells = PrecinctJob.cells(jsc, files, precincts.columns(), precincts.office(), categories);
        var bad = cells.filter(c -> c.category() >= 0 && c.votes() < 0).take(1);
        if (!bad.isEmpty()) {
            throw new UserInputException("--distributions-from-precincts", bad.get(0).file(), "a vote count is not a whole number: precinct '"
                    + bad.get(0).precinct() + "', '" + bad.get(0).votesText() + "'");
        }
        var hist = PrecinctJob.histograms(cells, categories.names().size(), jsc.defaultParallelism());
        if (county) {
            hist = hist.mapToPair(t -> new scala.Tuple2<>(t._1().substring(0, t._1().indexOf('\u0000')) + '\u0000', t._2())).reduceByKey((a, b) -> {
                long[] s = a.clone();
                for (int i = 0; i < s.length; i++) {
                    s[i] += b[i];
                }
                return s;
            });
        }
        List<scala.Tuple2<String, long[]>> rows = hist.filter(t -> Arrays.stream(t._2()).sum() > 0).sortByKey().collect();
        if (rows.isEmpty()) {
            throw new UserInputException("--distributions-from-precincts", source.precincts, "has no ballots of office " + precincts.office());
        }
        List<double[]> pts = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (scala.Tuple2<String, long[]> t : rows) {
            long total = Arrays.stream(t._2()).sum();
            double[] p = new double[t._2().length];
            for (int i = 0; i < p.length; i++) {
                p[i] = (double) t._2()[i] / total;
            }
            pts.add(p);
            labels.add(t._1().replace('\u0000', '/').replaceAll("/$", ""));
        }
        return DistributionSet.of(pts, labels, "--distributions-from-precincts");
    }

    /**
     * What a run computes with: the exact hull when it has at most --max-vertices vertices (or two categories, or the symmetric
     * fold), else an enclosing simplex (an upper bound) and an inner polytope of at most --max-vertices hull vertices (a lower
     * bound). {@code hullVertices} is -1 when the exact count was not computed (four or more categories, many points).
     */
    public record Reduced(DistributionSet exact, DistributionSet outer, DistributionSet inner, int hullVertices) {
        public boolean bounded() {
            return exact == null;
        }
    }

    public Reduced reduce(DistributionSet given) {
        if (maxVertices < 1) {
            throw new UserInputException("--max-vertices", maxVertices, "must be >= 1");
        }
        int m = given.categories();
        if (symmetric || m <= 2) {
            return new Reduced(hull(given), null, null, -1);
        }
        if (m == 3 || given.size() <= 300) {
            DistributionSet v = given.vertices();
            if (v.size() <= maxVertices) {
                return new Reduced(v, null, null, v.size());
            }
            return bounds(v, v.size());
        }
        return bounds(given, -1);
    }

    private Reduced bounds(DistributionSet points, int hullVertices) {
        int m = points.categories();
        if (maxVertices < m) {
            throw new UserInputException("--max-vertices", maxVertices, "must be at least the " + m + " categories when the hull is bounded (the enclosing simplex has "
                    + m + " vertices)");
        }
        return new Reduced(null, PolytopeBounds.enclosingSimplex(points),
                PolytopeBounds.inner(points, maxVertices, 20261123L), hullVertices);
    }

    /** The set as given, read on the driver (a small file: no Spark). */
    public DistributionSet read() {
        if (source.inline != null) {
            List<double[]> pts = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            // a trailing ';' is allowed (split drops it); an empty distribution between two is a typo, not a skip
            String[] parts = source.inline.split(";");
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].isBlank()) {
                    throw new UserInputException("--distributions", source.inline, "has an empty distribution (number " + (i + 1)
                            + "); give each as comma-separated probabilities, separated by ';'");
                }
                pts.add(parseRow("--distributions", parts[i].split(","), parts[i]));
                labels.add("pi" + (i + 1));
            }
            return DistributionSet.of(pts, labels, "--distributions");
        }
        if (source.precincts != null) {
            throw new IllegalStateException("precinct returns are read with Spark: read(spark)");
        }
        if (precincts.given()) {
            throw new UserInputException("--candidates", precincts.categories().candidates(), "is for --distributions-from-precincts");
        }
        String path = source.file != null ? source.file : source.votes;
        String option = source.file != null ? "--distributions-file" : "--distributions-from-votes";
        if (path.isBlank()) {
            throw new UserInputException(option, "\"\"", "must name a CSV file");
        }
        SmallCsv csv = SmallCsv.read(option, InputFiles.file(option, path), true);
        List<String> cols = csv.header();
        int label = cols.indexOf(labelColumn);
        List<double[]> pts = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        if (source.file != null) {
            List<Integer> probCols = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int c = 0; c < cols.size(); c++) {
                if (c != label) {
                    probCols.add(c);
                    names.add(cols.get(c));
                }
            }
            categoryNames = names;
            for (int r = 0; r < csv.rows().size(); r++) {
                String[] row = csv.rows().get(r);
                String[] vals = new String[probCols.size()];
                for (int c = 0; c < vals.length; c++) {
                    vals[c] = SmallCsv.cell(row, probCols.get(c));
                }
                pts.add(parseRow(option, vals, "row " + (r + 2)));
                labels.add(label >= 0 ? SmallCsv.cell(row, label) : "row " + (r + 2));
            }
        } else {
            List<String> vc = Arrays.stream(votesColumns.split(",")).map(String::trim).toList();
            if (vc.size() < 2 || vc.stream().distinct().count() != vc.size()) {
                throw new UserInputException("--votes-columns", votesColumns, "must name two or more different columns");
            }
            int[] at = vc.stream().mapToInt(c -> csv.column("--votes-columns", c)).toArray();
            categoryNames = vc;
            for (int r = 0; r < csv.rows().size(); r++) {
                String[] row = csv.rows().get(r);
                BigDecimal[] v = new BigDecimal[at.length];
                BigDecimal total = BigDecimal.ZERO;
                for (int c = 0; c < at.length; c++) {
                    v[c] = votes(SmallCsv.cell(row, at[c]), vc.get(c), r);
                    total = total.add(v[c]);
                }
                if (total.signum() == 0) {
                    throw new UserInputException(option, "row " + (r + 2), "has no votes in any of the columns " + String.join(", ", vc));
                }
                pts.add(shares(v, total));
                labels.add(label >= 0 ? SmallCsv.cell(row, label) : "row " + (r + 2));
            }
        }
        if (pts.isEmpty()) {
            throw new UserInputException(option, path, "has no data rows");
        }
        return DistributionSet.of(pts, labels, option);
    }

    /** The hull the computation uses, with a description for the outputs. */
    public DistributionSet hull(DistributionSet pi) {
        return symmetric ? pi.symmetricFold() : pi.vertices();
    }

    public String hullDescription() {
        return symmetric ? "symmetric fold (the paper's code): p and 1-p together, lower vertex pinned at 1/2"
                : "convex hull of the given distributions (Proposition 7)";
    }

    /** Where Pi comes from, for titles: the file's name, "given distributions" or the precinct returns. */
    public String sourceName() {
        if (source.inline != null) {
            return "given distributions";
        }
        String f = source.file != null ? source.file : source.votes != null ? source.votes : source.precincts;
        String name = f.replaceAll(".*[/\\\\]", "");
        return source.votes != null ? "votes of " + name : name;
    }

    public void echo(ObjectNode p) {
        if (source.inline != null) {
            p.put("distributions", source.inline);
        } else if (source.file != null) {
            p.put("distributionsFile", source.file);
        } else if (source.votes != null) {
            p.put("distributionsFromVotes", source.votes);
            p.put("votesColumns", votesColumns);
        } else {
            p.put("distributionsFromPrecincts", source.precincts);
            p.put("precinctPoints", precinctPoints);
            precincts.echo(p);
        }
        p.put("symmetric", symmetric);
        p.put("maxVertices", maxVertices);
        p.put("refineSeconds", refineSeconds);
    }

    /** {"method": .., "vertices": [[..]], "labels": [..]}. */
    public static ObjectNode describe(ObjectNode o, DistributionSet hull, String method, int inputSize) {
        o.put("method", method);
        o.put("inputDistributions", inputSize);
        ArrayNode v = o.putArray("vertices");
        ArrayNode l = o.putArray("labels");
        for (int i = 0; i < hull.size(); i++) {
            ArrayNode row = v.addArray();
            for (double x : hull.get(i)) {
                row.add(x);
            }
            l.add(hull.label(i));
        }
        return o;
    }

    /**
     * Each count's share of the total as the double nearest to the exact ratio; with two categories the second is 1 - the first
     * (so the pair sums to 1 exactly), with more each is rounded on its own (their sum is within DistributionSet's tolerance).
     */
    static double[] shares(BigDecimal[] votes, BigDecimal total) {
        double[] p = new double[votes.length];
        for (int c = 0; c < p.length; c++) {
            p[c] = votes[c].divide(total, MathContext.DECIMAL64).doubleValue();
        }
        if (p.length == 2) {
            p[1] = 1 - p[0];
        }
        return p;
    }

    /** A vote count (or share) as published: a decimal number, digits in groups of three ({@code "1,089,300"}) too. */
    private static BigDecimal votes(String v, String col, int r) {
        try {
            String t = v == null ? "" : v.trim();
            BigDecimal d = Decimals.parse(t.matches("\\d{1,3}(,\\d{3})+(\\.\\d*)?") ? t.replace(",", "") : t);
            if (d.signum() < 0) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new UserInputException("--distributions-from-votes", "row " + (r + 2) + " column " + col + " = '" + v + "'",
                    "vote counts must be non-negative numbers (153778, 153,778 or 1.5e5)");
        }
    }

    private static double[] parseRow(String option, String[] vals, String where) {
        double[] p = new double[vals.length];
        for (int i = 0; i < vals.length; i++) {
            try {
                p[i] = Double.parseDouble(vals[i].trim());
            } catch (NumberFormatException e) {
                throw new UserInputException(option, where, "'" + vals[i].trim() + "' is not a probability");
            }
        }
        return p;
    }
}
