package org.privacybounds.quantized;

import java.io.Serializable;

import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The b-bit code grid of Liu, Wang and Xia, "Smoothed Differential Privacy", Definition 5: a value g in (-0.5, 0.5] is stored as the integer
 * code {@code c = ceil(g * 2^b)} in {@code {-2^(b-1) + 1, ..., 2^(b-1)}}; code c stands for the
 * interval {@code ((c - 1)/2^b, c/2^b]}. For b = 8 that is -127..128, the paper's grid value
 * (i - 128)/256 being the left end of cell i = c + 127.
 */
public record CodeGrid(int bits) implements Serializable {
    /** Largest supported word size. */
    public static final int MAX_BITS = 16;

    public CodeGrid {
        if (bits < 1 || bits > MAX_BITS) {
            throw new BadInputException(Parameter.BITS, bits, "must be an integer in 1.." + MAX_BITS);
        }
    }

    /** The smallest code, {@code -2^(b-1) + 1}. */
    public int min() {
        return -(1 << (bits - 1)) + 1;
    }

    /** The largest code, {@code 2^(b-1)}. */
    public int max() {
        return 1 << (bits - 1);
    }

    /** The number of codes, {@code 2^b}. */
    public int size() {
        return 1 << bits;
    }

    /** The left end of the interval of code c, {@code (c - 1) / 2^b}. */
    public double lower(int code) {
        return (code - 1) / (double) size();
    }

    /** The right end of the interval of code c, {@code c / 2^b}. */
    public double upper(int code) {
        return code / (double) size();
    }

    /** The code of a value g in (-0.5, 0.5]. */
    public int code(double g) {
        if (!(g > -0.5 && g <= 0.5)) {
            throw new BadInputException(Parameter.VALUE, g, "must be in (-0.5, 0.5]");
        }
        return (int) Math.ceil(g * size());
    }

    /** Checks that a code is on this grid. */
    public int check(String option, int code) {
        if (code < min() || code > max()) {
            throw new BadInputException(option, code, "codes of " + bits + "-bit quantization lie in " + min() + ".." + max());
        }
        return code;
    }

    /**
     * The histogram over the grid of a list of codes: entry {@code c - min()} counts code c.
     */
    public int[] histogram(String option, int[] codes) {
        int[] h = new int[size()];
        for (int c : codes) {
            h[check(option, c) - min()]++;
        }
        return h;
    }
}
