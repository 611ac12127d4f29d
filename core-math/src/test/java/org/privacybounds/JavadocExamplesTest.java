package org.privacybounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.privacybounds.bayes.ChainAudit;
import org.privacybounds.bayes.Mechanism;
import org.privacybounds.bayes.PosteriorFamily;
import org.privacybounds.bayes.Statements;
import org.privacybounds.ensemble.ConstraintSet;
import org.privacybounds.ensemble.DarrmOptimizer;
import org.privacybounds.ensemble.DarrmSetting;
import org.privacybounds.ensemble.NoiseFunctions;
import org.privacybounds.guarantee.Composition;
import org.privacybounds.guarantee.Guarantee;
import org.privacybounds.numeric.CountLaw;
import org.privacybounds.numeric.LogMath;
import org.privacybounds.pufferfish.DiscreteLaw;
import org.privacybounds.pufferfish.Noise;
import org.privacybounds.pufferfish.Sensitivities;
import org.privacybounds.pufferfish.pabi.Pabi;
import org.privacybounds.quantized.CodeGrid;
import org.privacybounds.quantized.DatabaseSampler;
import org.privacybounds.quantized.MonteCarloMean;
import org.privacybounds.quantized.OutputRounding;
import org.privacybounds.quantized.QuantizedDistribution;
import org.privacybounds.quantized.SamplingAverageMechanism;
import org.privacybounds.rdp.RdpConversion;
import org.privacybounds.rdp.SubsampledGaussianRdp;
import org.privacybounds.smoothed.ElectionPrivacy;
import org.privacybounds.smoothed.NoisySamplingHistogramMechanism;
import org.privacybounds.smoothed.ProfileValue;
import org.privacybounds.smoothed.Sampling;
import org.privacybounds.smoothed.SamplingHistogramMechanism;
import org.privacybounds.smoothed.UtilityForm;
import org.privacybounds.smoothed.sdp.DistributionSet;
import org.privacybounds.validation.BadInputException;

/** The examples in the public types' Javadoc, run as written there, with what their comments claim. */
class JavadocExamplesTest {
    @Test
    void guaranteeAndNumeric() {
        Guarantee one = Guarantee.of(0.5, 1e-6, "one release", 0);
        Guarantee ten = Composition.basic(one, 10);              // (5, 1e-5)
        Guarantee many = Composition.general(one, 1000, 1e-5);   // Kairouz et al.: eps grows as sqrt(k) for large k
        assertEquals(5, ten.epsilon(), 1e-12);
        assertEquals(1e-5, ten.delta(), 1e-18);
        assertTrue(many.epsilon() < 1000 * 0.5);

        double ln = LogMath.logAdd(-800, -801);   // ln(e^-800 + e^-801), no underflow
        double log10 = LogMath.toLog10(ln);       // about -347.3
        assertEquals(-347.3, log10, 0.05);

        CountLaw h = CountLaw.hypergeometric(1000, 600, 100);   // marked draws among 100 of 1,000, 600 marked
        double lp = h.logProbability(60);                       // ln Pr[K = 60], no underflow far in the tails
        assertTrue(lp < 0 && lp > -5);
        assertTrue(Double.isFinite(h.logProbability(0)));

        String msg = null;
        try {
            SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, -1);
        } catch (BadInputException e) {
            msg = e.getMessage();   // "T = -1: must be >= 0"-style: the parameter, the value, what is allowed
        }
        assertEquals("T = -1: must be >= 0", msg);
    }

    @Test
    void smoothed() {
        SamplingHistogramMechanism m = SamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 1000);
        ProfileValue v = m.profile(new int[] {1200, 800}, 1.0);   // delta_1(x) over every neighbour, exact in log space
        double log10Delta = LogMath.toLog10(v.logDelta());
        assertTrue(log10Delta < -50, "" + log10Delta);

        // 2020: 81,268,924 votes for A, 74,216,154 for B, 0.2 % of the ballots lost, utility at t = 0.5
        ElectionPrivacy.Result r = ElectionPrivacy.compute(81_268_924L, 74_216_154L, new BigDecimal("0.002"), 0.5,
                Sampling.WITHOUT_REPLACEMENT, UtilityForm.FIGURE1);
        double electionLog10 = LogMath.toLog10(r.logDelta());
        assertTrue(electionLog10 < 0 && r.n() == 81_268_924L + 74_216_154L, "" + electionLog10);

        NoisySamplingHistogramMechanism nm = NoisySamplingHistogramMechanism.of(Sampling.WITHOUT_REPLACEMENT, 100, 0.5);
        NoisySamplingHistogramMechanism.NoisyProfile p = nm.profile(new int[] {60, 40}, 1.0);
        double delta = p.profile().delta();   // sampling plus Laplace noise of eps 0.5 on each count
        assertTrue(delta >= 0 && delta <= 1);

        DistributionSet pi = DistributionSet.of(List.of(new double[] {0.944667, 0.055333}, new double[] {0.533392, 0.466608}),
                List.of("1920", "2020"), "Pi");
        int vertices = pi.size();   // 2
        assertEquals(2, vertices);
    }

    @Test
    void pufferfish() {
        double[] s = new double[50];
        Arrays.fill(s, 0.1);                            // shift 0.1 per step (a contraction's drift)
        double[] eps = Pabi.curve(s, new Noise.Gaussian(1), 2, Pabi.validStrategy(s, Pabi.Strategy.AVERAGE));
        double afterFifty = eps[49];                              // Renyi divergence of order 2 after T = 50 steps
        assertTrue(afterFifty > 0 && Double.isFinite(afterFifty));

        Map<String, DiscreteLaw> laws = Map.of("yes", DiscreteLaw.of(12, 14, 15, 15), "no", DiscreteLaw.of(8, 10, 15));
        Sensitivities.Result r = Sensitivities.of(laws, 2, Double.NaN);
        double wInf = r.wInfinity();   // Delta_G = max W_inf over the secret pairs (General Wasserstein Mechanism)
        double w2 = r.wP();            // Delta_G,2 = max W_2
        assertEquals(6, wInf, 0);
        assertTrue(w2 <= wInf);

        DiscreteLaw grades = DiscreteLaw.of(12, 14, 15, 15);   // atoms 12, 14, 15 with counts 1, 1, 2
        double mean = grades.mean();                            // 14
        assertEquals(14, mean, 0);
    }

    @Test
    void ensemble() {
        ConstraintSet set = ConstraintSet.of(11, 0.1, 0);        // 11 mechanisms, each 0.1-DP
        double bound = ConstraintSet.bound(3, 0.1, 0);          // e^(m eps) - 1 + 2 delta for the target (0.3, 0)
        double worst = set.scanAll(DarrmOptimizer.free(NoiseFunctions.subsampling(11, 3)), Math.exp(0.3), Double.POSITIVE_INFINITY, 0).max();
        boolean private3 = worst <= bound;                      // subsampling 3 of 11 is (0.3, 0)-DP
        assertTrue(private3, worst + " > " + bound);

        DarrmOptimizer.Result r = DarrmOptimizer.optimize(set, 3, 0, DarrmOptimizer.objective(11, DarrmSetting.UNIFORM_FOLDED_MEAN));
        double[] gamma = r.gamma();   // gamma(l), l = 0..11: the probability of releasing the majority when l of 11 vote 1
        assertEquals(12, gamma.length);
    }

    @Test
    void bayes() {
        PosteriorFamily f = new PosteriorFamily(20);
        List<ChainAudit.Config> cs = List.of(new ChainAudit.Config("global", 1, Mechanism.GLOBAL.sensitivity(f, 1, 1e-6,
                Mechanism.SmoothBeta.STATEMENT), new double[] {1}));
        ChainAudit.Part p = ChainAudit.run(f, cs, 0, 11).merge(ChainAudit.run(f, cs, 11, 21));   // databases 0..20 in two parts
        double realised = p.maxLogRatio[0];   // <= 1: the global-sensitivity mechanism is 1-DP
        assertTrue(realised <= 1 + 1e-12);

        double h = f.hellinger(3, 4);                   // Hellinger distance of the posteriors of k = 3 and r = 4
        double[] local = f.localSensitivity();          // local sensitivity of the utility -H at each k
        assertTrue(h > 0 && h < 1);
        assertEquals(21, local.length);

        Statements.Result st = Statements.check(50);
        boolean corrected = st.statementI();            // the corrected statement I holds at n = 50
        List<Integer> printed = st.printedFailures();   // the k where statement I as printed fails
        assertTrue(corrected);
        assertTrue(!printed.isEmpty());
    }

    @Test
    void quantizedAndRdp() {
        MonteCarloMean mc = MonteCarloMean.of(new double[] {0.01, 0.02, 0.0, 0.05}, 0.1, 0.99);   // values in [0, 0.1]
        double upper = mc.bernsteinHigh();   // 99 % upper limit, valid for any law on [0, 0.1]
        assertTrue(upper >= mc.mean() && upper <= 0.1);

        SamplingAverageMechanism m = new SamplingAverageMechanism(new CodeGrid(8), 7, OutputRounding.ROUND);
        int[] h = DatabaseSampler.histogram(new QuantizedDistribution[] {QuantizedDistribution.gaussian(0, 0.12, 8)}, new int[] {49}, 42L);
        SamplingAverageMechanism.Value v = m.profile(h, new double[] {1.0})[0];   // exact delta_1(x) of one SGD step
        assertTrue(v.delta() >= 0 && v.delta() <= 7.0 / 49 * (1 + 1e-12));

        QuantizedDistribution g = QuantizedDistribution.gaussian(0, 0.12, 8);   // N(0, 0.12^2) on the 8-bit code grid
        String label = g.label();                                                // "gauss:0:0.12"
        assertEquals("gauss:0:0.12", label);

        double eps = Double.POSITIVE_INFINITY;
        for (double alpha : new double[] {2, 4, 8, 16, 32}) {
            double rho = 1000 * SubsampledGaussianRdp.rdp(0.01, 1.1, alpha);   // 1,000 steps of DP-SGD
            eps = Math.min(eps, RdpConversion.IMPROVED.epsilon(alpha, rho, 1e-5));
        }                                                                      // (eps, 1e-5)-DP at the best order
        assertTrue(eps > 0 && eps < 10, "" + eps);
    }
}
