package org.privacybounds.teachers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.commons.numbers.gamma.Erfc;
import org.junit.jupiter.api.Test;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.rdp.Gnmax;

class KnowledgeTransferTest {
    /** Two Gaussian clouds in 20 dimensions, labels 0/1. */
    static LabelledImages clouds(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][20];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int j = 0; j < 20; j++) {
                x[i][j] = (y[i] == 1 ? 0.3 : -0.3) + 0.5 * r.nextGaussian();
            }
        }
        return new LabelledImages(x, y);
    }

    @Test
    void sgdLearnsAndDpSgdIsSeededAndNoisier() {
        LabelledImages train = clouds(400, 1);
        LabelledImages test = clouds(400, 2);
        LogisticModel plain = DpSgd.train(train, DpSgd.Config.sgd(0.2, 5, 0.5), 7);
        assertTrue(plain.accuracy(test) > 0.95, "" + plain.accuracy(test));
        DpSgd.Config c = DpSgd.Config.dpSgd(1.0, 1, 0.2, 5, 0.5);
        LogisticModel a = DpSgd.train(train, c, 7);
        LogisticModel b = DpSgd.train(train, c, 7);
        assertArrayEquals(a.weights(), b.weights(), 0);
        assertNotEquals(a.weights()[0], DpSgd.train(train, c, 8).weights()[0]);
        assertTrue(a.accuracy(test) > 0.8, "" + a.accuracy(test));
        // with enormous noise the model is no better than a coin on average
        double sum = 0;
        for (int s = 0; s < 20; s++) {
            sum += DpSgd.train(train, DpSgd.Config.dpSgd(1e4, 1, 0.2, 5, 0.5), s).accuracy(test);
        }
        assertEquals(0.5, sum / 20, 0.15);
        // steps = ceil(epochs / q); the accountant's eps for these settings
        assertEquals(25, c.steps());
        assertTrue(DpSgd.privacy(c, 1e-5).epsilon() > 0);
    }

    @Test
    void aggregationAccuracyAndTotals() {
        int k = 11;
        int n = 200;
        int[] labels = new int[n];
        int[][] unanimous = new int[k][n];
        for (int i = 0; i < n; i++) {
            labels[i] = i % 2;
            for (int t = 0; t < k; t++) {
                unanimous[t][i] = labels[i];
            }
        }
        KnowledgeTransfer.Votes v = new KnowledgeTransfer.Votes(unanimous, unanimous, labels);
        double[] one = new double[k + 1];
        Arrays.fill(one, 1);
        List<KnowledgeTransfer.Accuracy> acc = KnowledgeTransfer.accuracy(v,
                List.of(KnowledgeTransfer.Method.darrm("majority", one), KnowledgeTransfer.Method.gnmax("gnmax", 0.01),
                        KnowledgeTransfer.Method.darrm("coin", new double[k + 1])), new int[] {20, 50}, 200, 3);
        assertEquals(1, acc.get(0).mean(), 0);
        assertEquals(0, acc.get(0).std(), 0);
        assertEquals(1, acc.get(1).mean(), 0);
        // gamma = 0 releases a fair coin: accuracy 1/2, std about sqrt(1/(4 Q))
        assertEquals(0.5, acc.get(2).mean(), 0.02);
        assertEquals(Math.sqrt(0.25 / 20), acc.get(2).std(), 0.03);
        // the same seed, the same draws
        assertArrayEquals(acc.get(2).perDraw(), KnowledgeTransfer.accuracy(v, List.of(KnowledgeTransfer.Method.darrm("coin", new double[k + 1])),
                new int[] {20}, 200, 3).get(0).perDraw(), 0);
        // DaRRM paper Table 2 (m = 3, MNIST): per query (0.2676, 0.0003); Q = 20, 50, 100 -> (5.352, 0.006), (9.901, 0.015), (15.044, 0.030)
        Guarantee g20 = KnowledgeTransfer.total(20, 0.2676, 0.0003, 1e-4);
        Guarantee g50 = KnowledgeTransfer.total(50, 0.2676, 0.0003, 1e-4);
        Guarantee g100 = KnowledgeTransfer.total(100, 0.2676, 0.0003, 1e-4);
        assertEquals(5.352, g20.epsilon(), 5e-4);
        assertEquals(0.006, g20.delta(), 5e-4);
        assertEquals(9.901, g50.epsilon(), 5e-4);
        assertEquals(0.015, g50.delta(), 5e-4);
        assertEquals(15.044, g100.epsilon(), 5e-4);
        assertEquals(0.030, g100.delta(), 5e-4);
        // gamma_Sub of K = 11, m = 3 (the DaRRM paper, Lemma 3.1)
        assertEquals(49.0 / 55, NoiseFunctions.subsampling(11, 3)[2], 1e-12);
    }

    @Test
    void gnmaxPerQueryGuaranteeHoldsForTheReleasedLabel() {
        // two classes: the label is 1 when (n1 - n0) + N(0, 2 sigma^2) > 0; one teacher changing its vote moves n1 - n0 by 2.
        // The exact hockey-stick of the released bit between d and d + 2, for every vote split of K = 11, at the calibrated
        // sigma, must be at most the per-query delta of (m eps, m Delta) = (0.2676, 0.0003).
        double eps = 0.2676;
        double delta = 0.0003;
        double sigma = Gnmax.calibrate(eps, delta).sigma();
        for (int d = -11; d <= 9; d += 2) {
            double p = probOne(d, sigma);
            double q = probOne(d + 2, sigma);
            for (double[] pq : new double[][] {{p, q}, {q, p}}) {
                double hs = Math.max(0, pq[0] - Math.exp(eps) * pq[1]) + Math.max(0, (1 - pq[0]) - Math.exp(eps) * (1 - pq[1]));
                assertTrue(hs <= delta, "d = " + d + ": " + hs);
            }
        }
    }

    private static double probOne(int d, double sigma) {
        return 0.5 * Erfc.value(-d / (sigma * Math.sqrt(2)) / Math.sqrt(2));
    }
}
