package org.privacybounds.jobs.ensemble;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.jobs.common.Csv;
import org.privacybounds.jobs.common.InputFiles;
import org.privacybounds.jobs.common.Json;
import org.privacybounds.jobs.common.UserInputException;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Option;

/** Where a noise function comes from: listed values, a file (darrm-optimize's result.json or a one-column CSV), or a family. */
public final class GammaSource {
    @Option(names = "--gamma", paramLabel = "g0,...,gK", split = ",", description = "gamma(0..K): K + 1 values in [0, 1], symmetric.")
    List<Double> values;

    @Option(names = "--gamma-file", paramLabel = "FILE", description = "darrm-optimize's result.json or gamma.csv, or a CSV with a header and gamma(0..K) in a column gamma (else the last column).")
    Path file;

    @Option(names = "--family", paramLabel = "F", description = "sub (gamma_Sub, integer m), dsub (gamma_DSub), const (randomized response, p_const with tau = K), opt (run the optimizer).")
    String family;

    /** The option that gave gamma (for messages about it). */
    String option() {
        return values != null ? "--gamma" : file != null ? "--gamma-file" : "--family";
    }

    String describe() {
        return values != null ? "values" : file != null ? "file " + file : "family " + family;
    }

    /** gamma as given (--gamma or --gamma-file), read and checked; null for a --family (checked by name). Before any work. */
    double[] given(DarrmOptions s) {
        int given = (values != null ? 1 : 0) + (file != null ? 1 : 0) + (family != null ? 1 : 0);
        if (given != 1) {
            throw new UserInputException("--gamma", given == 0 ? "(none)" : "several", "give exactly one of --gamma, --gamma-file, --family");
        }
        if (family != null) {
            if (!List.of("sub", "dsub", "const", "opt").contains(family.trim().toLowerCase(Locale.ROOT))) {
                throw new UserInputException("--family", family, "allowed: sub, dsub, const, opt");
            }
            return null;
        }
        return checked(s, values != null ? values.stream().mapToDouble(Double::doubleValue).toArray() : read(file));
    }

    double[] gamma(DarrmOptions s, ConstraintSet set, DarrmOptimizer.Separation sep, Consumer<String> progress) {
        double[] g = given(s);
        if (g != null) {
            return g;
        } else {
            String f = family.trim().toLowerCase(Locale.ROOT);
            DarrmSetting r = s.resolved();
            boolean integral = r.m() == Math.rint(r.m());
            switch (f) {
                case "sub", "dsub" -> {
                    if (!integral) {
                        throw new UserInputException("--family", family, "needs an integer --m (a subsample size)");
                    }
                    g = f.equals("sub") ? NoiseFunctions.subsampling(r.k(), (int) r.m()) : NoiseFunctions.doubleSubsampling(r.k(), (int) r.m());
                }
                case "const" -> g = NoiseFunctions.constant(r.k(), NoiseFunctions.pConst(r.m(), r.epsilon(), r.delta(), r.majorityTau(), r.majorityGuarantee().delta()));
                case "opt" -> {
                    g = DarrmOptimizer.optimize(set, r.m(), r.delta(), s.objective(), sep, progress).gamma();
                    // the labels' guarantee rests on gamma: certify it as darrm-optimize does (scaled until it provably passes)
                    HighPrecisionVerifier.Certified c = DarrmOptions.highPrecision("auto", set.size())
                            ? HighPrecisionVerifier.certify(set, s.exact(), g)
                            : HighPrecisionVerifier.certifyByScan(set, s.exact(), g, Math.exp(r.m() * r.epsilon()), sep);
                    g = c.gamma();
                    if (progress != null && c.rescaled()) {
                        progress.accept("gamma scaled by " + c.factor() + " to pass the certificate provably");
                    }
                }
                default -> throw new UserInputException("--family", family, "allowed: sub, dsub, const, opt");
            }
        }
        return checked(s, g);
    }

    private static double[] checked(DarrmOptions s, double[] g) {
        if (g.length != s.k + 1) {
            throw new UserInputException("--gamma", g.length + " values", "needs K + 1 = " + (s.k + 1) + " values, gamma(0..K)");
        }
        NoiseFunctions.check(g);
        return g;
    }

    private static double[] read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UserInputException("--gamma-file", file, "must be an existing file");
        }
        try {
            if (file.toString().endsWith(".json")) {
                JsonNode j = Json.MAPPER.readTree(file.toFile()).get("gamma");
                if (j == null || !j.isArray()) {
                    throw new UserInputException("--gamma-file", file, "a JSON file needs a \"gamma\" array (darrm-optimize's result.json)");
                }
                double[] g = new double[j.size()];
                for (int i = 0; i < g.length; i++) {
                    g[i] = j.get(i).asDouble(Double.NaN);
                }
                return g;
            }
            List<String[]> rows = Csv.parse(file);
            if (rows.size() < 2) {
                throw new UserInputException("--gamma-file", file, "needs a header row and gamma(0..K), one value per row");
            }
            List<String> header = Arrays.asList(rows.get(0));
            int col = header.indexOf("gamma_opt") >= 0 ? header.indexOf("gamma_opt") : header.indexOf("gamma") >= 0 ? header.indexOf("gamma") : header.size() - 1;
            List<Double> g = new ArrayList<>();
            for (int i = 1; i < rows.size(); i++) {
                String cell = rows.get(i).length > col && rows.get(i)[col] != null ? rows.get(i)[col].trim() : "";
                try {
                    g.add(Double.parseDouble(cell));
                } catch (NumberFormatException e) {
                    throw new UserInputException("--gamma-file", InputFiles.shown(file) + " row " + (i + 1) + " '" + cell + "'", "column " + header.get(col) + " must hold numbers");
                }
            }
            return g.stream().mapToDouble(Double::doubleValue).toArray();
        } catch (IOException e) {
            throw new UserInputException("--gamma-file", file, "cannot be read (" + e.getMessage() + ")");
        }
    }
}
