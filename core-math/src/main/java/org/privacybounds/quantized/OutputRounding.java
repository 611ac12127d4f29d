package org.privacybounds.quantized;

import java.util.Locale;


/**
 * What one SGD step releases from the sum S of the T sampled codes: the exact sum, or the mean
 * S/T put back on the code grid (rounded half away from zero, or floored). Both roundings are
 * post-processings of the sum, so their delta never exceeds the sum's (Proposition 4).
 */
public enum OutputRounding {
    /** The mean rounded to the nearest code, halves away from zero (the default). */
    ROUND,
    /** The mean rounded down. */
    FLOOR,
    /** The exact sum of the codes. */
    NONE;

    /** The released value for a code sum s of t records. */
    public long output(long s, int t) {
        switch (this) {
            case NONE:
                return s;
            case FLOOR:
                return Math.floorDiv(s, t);
            default:
                long q = Math.abs(s) / t;
                long r = Math.abs(s) % t;
                if (2 * r >= t) {
                    q++;
                }
                return s < 0 ? -q : q;
        }
    }

    /** The lower-case name used on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
