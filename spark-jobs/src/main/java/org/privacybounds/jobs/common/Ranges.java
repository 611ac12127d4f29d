package org.privacybounds.jobs.common;

import java.math.BigDecimal;

import org.privacybounds.numeric.Decimals;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses value lists: {@code 0.5,1,2,7}, ranges {@code a:step:b} (inclusive, computed in exact
 * decimals so 0:0.1:1 has 11 points), and mixtures {@code 0.1,1:1:3}.
 */
public final class Ranges {
    /** Most values a single list may expand to. */
    public static final int MAX_VALUES = 1_000_000;

    private Ranges() {
    }

    /** The doubles of a list, in the order given. */
    public static List<Double> doubles(String option, String spec) {
        List<Double> out = new ArrayList<>();
        for (BigDecimal d : decimals(option, spec)) {
            out.add(d.doubleValue());
        }
        return out;
    }

    /** The longs of a list (every value must be an integer). */
    public static List<Long> longs(String option, String spec) {
        List<Long> out = new ArrayList<>();
        for (BigDecimal d : decimals(option, spec)) {
            try {
                out.add(d.longValueExact());
            } catch (ArithmeticException e) {
                throw new UserInputException(option, spec, "must list integers (got " + d.toPlainString() + ")");
            }
        }
        return out;
    }

    /** The exact decimals of a list. */
    public static List<BigDecimal> decimals(String option, String spec) {
        if (spec == null || spec.isBlank()) {
            throw new UserInputException(option, "''", "must list at least one value, e.g. 0.5,1,2 or 0:0.5:2");
        }
        List<BigDecimal> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            String[] r = p.split(":");
            try {
                if (r.length == 1) {
                    out.add(Decimals.parse(p));
                } else if (r.length == 3) {
                    BigDecimal a = Decimals.parse(r[0]);
                    BigDecimal step = Decimals.parse(r[1]);
                    BigDecimal b = Decimals.parse(r[2]);
                    if (step.signum() <= 0 || b.compareTo(a) < 0) {
                        throw new UserInputException(option, p, "a range a:step:b needs step > 0 and b >= a");
                    }
                    for (BigDecimal v = a; v.compareTo(b) <= 0; v = v.add(step)) {
                        out.add(v);
                        if (out.size() > MAX_VALUES) {
                            throw new UserInputException(option, p, "expands to more than " + MAX_VALUES + " values");
                        }
                    }
                } else {
                    throw new UserInputException(option, p, "must be a number or a range a:step:b");
                }
            } catch (NumberFormatException e) {
                throw new UserInputException(option, p, "must be a number or a range a:step:b (|exponent| <= " + Decimals.LIMIT + ")");
            }
        }
        return out;
    }

    /** A list of privacy parameters eps: every value a finite number >= 0. */
    public static double[] epsilons(String option, String spec) {
        List<Double> list = doubles(option, spec);
        double[] eps = new double[list.size()];
        for (int i = 0; i < eps.length; i++) {
            eps[i] = list.get(i);
            if (!(eps[i] >= 0) || Double.isInfinite(eps[i])) {
                throw new UserInputException(option, eps[i], "every eps must be a finite number >= 0");
            }
        }
        return eps;
    }
}
