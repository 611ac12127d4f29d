package org.privacybounds.guarantee;

import java.math.BigDecimal;

/**
 * A yes/no privacy answer that rounding cannot flip: a computed quantity known only to lie in an interval is compared
 * with a limit known only to lie in an interval. The answer is {@link #HOLDS} when the quantity is provably at most the
 * limit, {@link #FAILS} when it provably exceeds it, and {@link #UNDECIDED} when the two intervals overlap and nothing
 * else settled it (an exact tie is settled by exact arithmetic before a verdict reaches this state).
 *
 * <p>Example:
 * <pre>{@code
 * Verdict v = Verdict.compare(0.9999, 1.0001, 1.0, 1.0);   // UNDECIDED: the value may lie on either side of 1
 * Boolean dp = Verdict.compare(0.5, 0.6, 1.0, 1.0).asBoolean();   // true: provably below
 * }</pre>
 */
public enum Verdict {
    /** The quantity is provably within the limit (or equals it exactly). */
    HOLDS("yes"),
    /** The quantity provably exceeds the limit. */
    FAILS("no"),
    /** The rigorous error bounds leave both answers possible. */
    UNDECIDED("undecided");

    private final String word;

    Verdict(String word) {
        this.word = word;
    }

    /** "yes", "no" or "undecided", as outputs print it. */
    public String word() {
        return word;
    }

    /** true, false, or null when undecided (how JSON carries it). */
    public Boolean asBoolean() {
        return this == UNDECIDED ? null : this == HOLDS;
    }

    /** The quantity in [lo, hi] against a limit in [limitLo, limitHi]: at most the limit, or above it. */
    public static Verdict compare(double lo, double hi, double limitLo, double limitHi) {
        if (Double.isNaN(lo) || Double.isNaN(hi) || Double.isNaN(limitLo) || Double.isNaN(limitHi)) {
            return UNDECIDED;
        }
        if (hi <= limitLo) {
            return HOLDS;
        }
        return lo > limitHi ? FAILS : UNDECIDED;
    }

    /** {@link #compare(double, double, double, double)} for decimal intervals. */
    public static Verdict compare(BigDecimal lo, BigDecimal hi, BigDecimal limitLo, BigDecimal limitHi) {
        if (hi.compareTo(limitLo) <= 0) {
            return HOLDS;
        }
        return lo.compareTo(limitHi) > 0 ? FAILS : UNDECIDED;
    }

    /** The verdict of several claims that must all hold: FAILS if any fails, else UNDECIDED if any is, else HOLDS. */
    public Verdict and(Verdict other) {
        if (this == FAILS || other == FAILS) {
            return FAILS;
        }
        return this == UNDECIDED || other == UNDECIDED ? UNDECIDED : HOLDS;
    }
}
