package org.privacybounds.jobs.precincts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.privacybounds.jobs.common.Csv;

/**
 * Pennsylvania's presidential histograms (Biden, Trump, Jorgensen, other; Under/Over Votes, Overvote and Not Assigned
 * excluded; Jorgensen/Cohe is Jorgensen), summed from the raw files with a plain reader: the tests' expected values and the
 * benchmark's source of precinct sizes and shares.
 */
public final class PrecinctsCommandTestSupport {
    private PrecinctsCommandTestSupport() {
    }

    /** county|precinct to counts, every presidential precinct of every CSV in {@code dir}. */
    public static Map<String, long[]> byPrecinct(Path dir) throws Exception {
        Map<String, long[]> h = new TreeMap<>();
        List<String> cands = List.of("joseph r. biden", "donald j. trump", "jo jorgensen");
        List<String> ex = List.of("under votes", "over votes", "overvote", "not assigned");
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".csv")).sorted().toList()) {
                List<String[]> rows = Csv.parse(f);
                List<String> header = Arrays.stream(rows.get(0)).map(x -> x == null ? "" : x.trim().toLowerCase(Locale.ROOT)).toList();
                int county = header.indexOf("county");
                int precinct = header.indexOf("precinct");
                int office = header.indexOf("office");
                int candidate = header.indexOf("candidate");
                int votes = header.indexOf("votes");
                for (String[] r : rows.subList(1, rows.size())) {
                    if (!"president".equalsIgnoreCase(r[office].trim())) {
                        continue;
                    }
                    String c = r[candidate].trim().toLowerCase(Locale.ROOT);
                    c = c.equals("jorgensen/cohe") ? "jo jorgensen" : c;
                    long[] counts = h.computeIfAbsent(r[county].trim() + "|" + r[precinct].trim(), k -> new long[4]);
                    if (ex.contains(c)) {
                        continue;
                    }
                    String v = r[votes] == null ? "" : r[votes].trim().replace(",", "");
                    counts[cands.contains(c) ? cands.indexOf(c) : 3] += v.isEmpty() ? 0 : Long.parseLong(v);
                }
            }
        }
        return h;
    }

    /** The histograms alone. */
    public static Collection<long[]> histograms(Path dir) throws Exception {
        return byPrecinct(dir).values();
    }
}
