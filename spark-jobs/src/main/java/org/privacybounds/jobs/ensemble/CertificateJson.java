package org.privacybounds.jobs.ensemble;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

import org.privacybounds.ensemble.HighPrecisionVerifier;
import org.privacybounds.jobs.common.Json;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** How darrm-verify and darrm-optimize show a DaRRM certificate: JSON fields and one line of text. */
final class CertificateJson {
    private static final MathContext SHOWN = new MathContext(HighPrecisionVerifier.DIGITS);

    private CertificateJson() {
    }

    /**
     * The certificate's fields: the witness multiset and its cost (an interval; for an exact tie the cost is the bound
     * itself), the bound as an interval, how the verdict was obtained, and how many near ties were settled and how.
     */
    static void put(ObjectNode cert, HighPrecisionVerifier.Certificate c, double doubleMaxCost, double[][] corners) {
        BigDecimal bound = mid(c.boundLower(), c.boundUpper());
        BigDecimal cost = c.worstExactTie() ? bound : mid(c.worstLower(), c.worstUpper());
        cert.put("verdict", c.verdict().word());
        cert.put("maxCost", cost.doubleValue());
        cert.put("bound", bound.doubleValue());
        cert.set("worstMultiset", Json.MAPPER.valueToTree(c.worstMultiset()));
        cert.put("exactTie", c.worstExactTie());
        cert.put("arithmetic", c.arithmetic());
        cert.put("maxCostDecimal", cost.toString());
        cert.put("boundDecimal", bound.toString());
        cert.set("maxCostInterval", Json.MAPPER.valueToTree(new String[] {c.worstLower().toString(), c.worstUpper().toString()}));
        cert.set("boundInterval", Json.MAPPER.valueToTree(new String[] {c.boundLower().toString(), c.boundUpper().toString()}));
        cert.put("nearTies", c.nearTies());
        cert.put("exactTies", c.exactTies());
        cert.put("undecided", c.undecided());
        cert.put("digits", c.digits());
        cert.put("doubleMaxCost", doubleMaxCost);
        cert.set("corners", Json.MAPPER.valueToTree(corners));
    }

    /** "max cost X vs bound Y": for an exact tie "= bound Y exactly", with the verdict's reason when not a plain yes/no. */
    static String line(HighPrecisionVerifier.Certificate c) {
        BigDecimal bound = mid(c.boundLower(), c.boundUpper());
        if (c.worstExactTie()) {
            return String.format(Locale.ROOT, "max cost = bound = %.15g exactly (an exact tie, decided by polynomial identity)", bound.doubleValue());
        }
        String s = String.format(Locale.ROOT, "max cost %.15g vs bound %.15g", mid(c.worstLower(), c.worstUpper()).doubleValue(), bound.doubleValue());
        return switch (c.verdict()) {
            case HOLDS -> s + " (provably at most)";
            case FAILS -> s + " (provably above)";
            case UNDECIDED -> s + " (" + c.undecided() + " multisets within " + c.digits() + "-digit error of the bound: undecided)";
        };
    }

    private static BigDecimal mid(BigDecimal lo, BigDecimal hi) {
        return lo.add(hi).divide(BigDecimal.valueOf(2), SHOWN);
    }
}
