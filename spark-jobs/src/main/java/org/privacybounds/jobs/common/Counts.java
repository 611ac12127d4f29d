package org.privacybounds.jobs.common;

import org.privacybounds.numeric.Decimals;

/** Parses a histogram {@code c1,c2,...} of non-negative integer counts. */
public final class Counts {
    private Counts() {
    }

    public static int[] parse(String option, String spec) {
        String[] parts = spec.split(",");
        if (parts.length < 2) {
            throw new UserInputException(option, spec, "needs at least two counts, e.g. 1000,998");
        }
        int[] out = new int[parts.length];
        long total = 0;
        for (int i = 0; i < parts.length; i++) {
            long v;
            try {
                v = Decimals.parse(parts[i]).longValueExact(); // 2900000 or 2.9e6
            } catch (NumberFormatException | ArithmeticException e) {
                throw new UserInputException(option, spec, "count " + (i + 1) + " ('" + parts[i].trim() + "') is not an integer");
            }
            if (v < 0) {
                throw new UserInputException(option, spec, "count " + (i + 1) + " is negative; counts must be >= 0");
            }
            total += v;
            if (total > Integer.MAX_VALUE) {
                throw new UserInputException(option, spec, "the total n must be at most " + Integer.MAX_VALUE);
            }
            out[i] = (int) v;
        }
        if (total == 0) {
            throw new UserInputException(option, spec, "the total n must be at least 1");
        }
        return out;
    }
}
