package org.privacybounds.jobs.precincts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.privacybounds.jobs.common.UserInputException;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.privacybounds.jobs.common.Json;

import picocli.CommandLine.Option;

/**
 * Which rows of long-format precinct returns count and how they become categories: the office, the candidates (then
 * 'other'), the rows that are not ballots, other spellings, and the column names. Shared by {@code precincts} and the Pi of
 * {@code smoothed} ({@code --distributions-from-precincts}).
 */
public final class PrecinctSelection {
    @Option(names = "--office", paramLabel = "NAME", defaultValue = "President", description = "The office whose rows are read (case-insensitive; default: ${DEFAULT-VALUE}).")
    String office;

    @Option(names = "--candidates", paramLabel = "A,B,...", split = ",", description = "The candidate categories, in order.")
    List<String> candidates;

    @Option(names = "--exclude", paramLabel = "NAME,...", split = ",", description = "Rows that are not ballots (e.g. Under Votes,Over Votes): dropped.")
    List<String> exclude;

    @Option(names = "--alias", paramLabel = "SPELLING=CANDIDATE", description = "Another spelling of a candidate (repeatable), e.g. 'Jorgensen/Cohe=Jo Jorgensen'.")
    List<String> aliases;

    @Option(names = "--no-other", description = "Drop the remaining candidates (write-ins) instead of counting them as the category 'other'.")
    boolean noOther;

    @Option(names = "--county-column", paramLabel = "NAME", defaultValue = "county", description = "(default: ${DEFAULT-VALUE})")
    String countyColumn;

    @Option(names = "--precinct-column", paramLabel = "NAME", defaultValue = "precinct", description = "(default: ${DEFAULT-VALUE})")
    String precinctColumn;

    @Option(names = "--office-column", paramLabel = "NAME", defaultValue = "office", description = "(default: ${DEFAULT-VALUE})")
    String officeColumn;

    @Option(names = "--candidate-column", paramLabel = "NAME", defaultValue = "candidate", description = "(default: ${DEFAULT-VALUE})")
    String candidateColumn;

    @Option(names = "--votes-column", paramLabel = "NAME", defaultValue = "votes", description = "(default: ${DEFAULT-VALUE})")
    String votesColumn;

    /** True when any candidate was named (the options are in use). */
    public boolean given() {
        return candidates != null && !candidates.isEmpty();
    }

    public String office() {
        if (office == null || office.isBlank()) {
            throw new UserInputException("--office", "\"\"", "name the office, e.g. President");
        }
        return office;
    }

    public PrecinctReturns.Columns columns() {
        return new PrecinctReturns.Columns(countyColumn, precinctColumn, officeColumn, candidateColumn, votesColumn);
    }

    public PrecinctReturns.Categories categories() {
        List<String> cands = new ArrayList<>();
        if (candidates != null) {
            for (String c : candidates) {
                if (!c.isBlank()) {
                    cands.add(c.trim());
                }
            }
        }
        Set<String> ex = new LinkedHashSet<>();
        if (exclude != null) {
            exclude.stream().filter(x -> !x.isBlank()).forEach(x -> ex.add(x.trim()));
        }
        Map<String, String> al = new LinkedHashMap<>();
        if (aliases != null) {
            for (String a : aliases) {
                int eq = a.lastIndexOf('=');
                if (eq <= 0 || eq == a.length() - 1) {
                    throw new UserInputException("--alias", a, "must be SPELLING=CANDIDATE");
                }
                al.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
            }
        }
        return new PrecinctReturns.Categories(cands, !noOther, ex, al);
    }

    /** The selection echoed in a result's parameters. */
    public void echo(ObjectNode p) {
        p.put("office", office);
        p.set("candidates", candidates == null ? Json.array() : Json.MAPPER.valueToTree(candidates));
        p.set("exclude", exclude == null ? Json.array() : Json.MAPPER.valueToTree(exclude));
        p.set("aliases", aliases == null ? Json.array() : Json.MAPPER.valueToTree(aliases));
        p.put("other", !noOther);
    }
}
