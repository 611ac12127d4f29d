package org.privacybounds.teachers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.privacybounds.ensemble.ErrorMetric;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.validation.BadInputException;
import org.privacybounds.validation.Parameter;

/**
 * The DaRRM paper's private knowledge transfer (Section 6.2, Appendix D.2): K teachers vote on query images; each query's
 * label is released by DaRRM with a noise function gamma over the private teachers' votes, or by GNMax over non-private
 * teachers' votes; accuracy is the fraction of released labels equal to the true ones, over {@code draws} random sets of Q
 * query images drawn without replacement (seeded: the same sets for every method, and for every partitioning of the
 * training that produced the votes).
 */
public final class KnowledgeTransfer {
    private KnowledgeTransfer() {
    }

    /** One aggregation method: a DaRRM noise function over the private votes, or GNMax with sigma over the plain votes. */
    public record Method(String name, double[] gamma, double gnmaxSigma) {
        public static Method darrm(String name, double[] gamma) {
            return new Method(name, gamma.clone(), Double.NaN);
        }

        public static Method gnmax(String name, double sigma) {
            if (!(sigma > 0)) {
                throw new BadInputException(Parameter.SIGMA, sigma, "GNMax needs noise > 0");
            }
            return new Method(name, null, sigma);
        }

        boolean isGnmax() {
            return gamma == null;
        }
    }

    /**
     * The teachers' votes on the query pool.
     *
     * @param privateVotes [teacher][image] 0/1 votes of the DP-SGD teachers
     * @param plainVotes   [teacher][image] 0/1 votes of the non-private teachers (GNMax)
     * @param labels       true label of each image of the pool
     */
    public record Votes(int[][] privateVotes, int[][] plainVotes, int[] labels) {
        int ones(int[][] votes, int image) {
            int s = 0;
            for (int[] v : votes) {
                s += v[image];
            }
            return s;
        }
    }

    /** Accuracy of one method at one Q: mean and sample standard deviation over the draws, and every draw's value. */
    public record Accuracy(String method, int queries, double mean, double std, double[] perDraw) {
    }

    /** Accuracy of every method at every Q. */
    public static List<Accuracy> accuracy(Votes votes, List<Method> methods, int[] queries, int draws, long seed) {
        int pool = votes.labels().length;
        int k = votes.privateVotes().length;
        List<Accuracy> out = new ArrayList<>();
        for (int q : queries) {
            if (q < 1 || q > pool) {
                throw new BadInputException(Parameter.QUERIES, q, "must be in 1.." + pool + " (the query images held out)");
            }
            double[][] acc = new double[methods.size()][draws];
            for (int d = 0; d < draws; d++) {
                int[] chosen = sample(pool, q, new SplittableRandom(mix(seed, q, d)));
                for (int mi = 0; mi < methods.size(); mi++) {
                    Method m = methods.get(mi);
                    // the noise of a method depends on its name, not on its place in the list
                    SplittableRandom noise = new SplittableRandom(mix(seed ^ 0x5DEECE66DL, q * 1_000_003L + d, m.name().hashCode()));
                    int ok = 0;
                    for (int image : chosen) {
                        int label;
                        if (m.isGnmax()) {
                            int ones = votes.ones(votes.plainVotes(), image);
                            double a = (votes.plainVotes().length - ones) + m.gnmaxSigma() * noise.nextGaussian();
                            double b = ones + m.gnmaxSigma() * noise.nextGaussian();
                            label = b > a ? 1 : 0;
                        } else {
                            if (m.gamma().length != k + 1) {
                                throw new BadInputException(Parameter.GAMMA, m.gamma().length + " values", "needs K + 1 = " + (k + 1));
                            }
                            label = ErrorMetric.release(m.gamma(), votes.ones(votes.privateVotes(), image), noise).label();
                        }
                        if (label == votes.labels()[image]) {
                            ok++;
                        }
                    }
                    acc[mi][d] = (double) ok / q;
                }
            }
            for (int mi = 0; mi < methods.size(); mi++) {
                out.add(new Accuracy(methods.get(mi).name(), q, mean(acc[mi]), std(acc[mi]), acc[mi]));
            }
        }
        return out;
    }

    /** Per-query (m eps, m Delta) composed over Q queries by general composition (Theorem 2.3) with delta'. */
    public static Guarantee total(int queries, double perQueryEpsilon, double perQueryDelta, double deltaPrime) {
        return Composition.general(Guarantee.of(perQueryEpsilon, perQueryDelta, "one query: (m eps, m Delta)", 0), queries, deltaPrime);
    }

    /** Accuracy of each teacher's votes against the labels of the pool. */
    public static double[] teacherAccuracy(int[][] votes, int[] labels) {
        double[] out = new double[votes.length];
        for (int t = 0; t < votes.length; t++) {
            int ok = 0;
            for (int i = 0; i < labels.length; i++) {
                if (votes[t][i] == labels[i]) {
                    ok++;
                }
            }
            out[t] = (double) ok / labels.length;
        }
        return out;
    }

    /** q distinct indices of 0..pool-1 (partial Fisher-Yates). */
    static int[] sample(int pool, int q, SplittableRandom r) {
        int[] idx = new int[pool];
        for (int i = 0; i < pool; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < q; i++) {
            int j = i + r.nextInt(pool - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        return Arrays.copyOf(idx, q);
    }

    /** A seed from several numbers (SplitMix64 finaliser over their combination). */
    public static long mix(long seed, long a, long b) {
        long z = seed + 0x9E3779B97F4A7C15L * (a + 1) + 0xBF58476D1CE4E5B9L * (b + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double std(double[] v) {
        if (v.length < 2) {
            return 0;
        }
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / (v.length - 1));
    }
}
