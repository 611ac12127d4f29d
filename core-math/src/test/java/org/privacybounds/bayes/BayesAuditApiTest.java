package org.privacybounds.bayes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.privacybounds.guarantee.Verdict;
import org.privacybounds.validation.BadInputException;

/** The bayes audit's public API as its Javadoc shows it. */
class BayesAuditApiTest {
    @Test
    void rowsOfOneN() {
        BayesAudit.Setup setup = new BayesAudit.Setup(new double[] {1}, 1e-6, Mechanism.SmoothBeta.STATEMENT, new double[] {0.5});
        PosteriorFamily f = new PosteriorFamily(20);
        ChainAudit.Part part = ChainAudit.run(f, setup.configs(f), 0, 21);
        List<BayesAudit.Row> rows = BayesAudit.rows(20, part, setup, 0.3, 0.7);
        assertEquals(List.of("global", "local", "smooth"), rows.stream().map(BayesAudit.Row::mechanism).toList());
        // the global-sensitivity mechanism is eps-DP (the notes' theorem): realised loss <= eps, worst-case delta 0
        BayesAudit.Row global = rows.get(0);
        assertEquals(Verdict.HOLDS, global.pureDp());
        assertTrue(global.realisedOverNominal() <= 1);
        assertEquals(Double.NEGATIVE_INFINITY, global.logWorstCaseDelta());
        // the same rows from two parts merged (how the Spark job distributes it)
        ChainAudit.Part split = ChainAudit.run(f, setup.configs(f), 0, 9).merge(ChainAudit.run(f, setup.configs(f), 9, 21));
        List<BayesAudit.Row> again = BayesAudit.rows(20, split, setup, 0.3, 0.7);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i).maxLogRatio(), again.get(i).maxLogRatio(), 0);
            assertEquals(rows.get(i).logSmoothedDelta(), again.get(i).logSmoothedDelta(), 0);
            assertEquals(rows.get(i).expectedHellinger(), again.get(i).expectedHellinger(), 0);
            assertEquals(0.5, again.get(i).atFractions().get(0).fraction());
        }
        // the smoothed delta never exceeds the worst case
        // (at the nominal eps both are 0 here; at half of it they are not, so the comparison there cannot pass vacuously)
        int finite = 0;
        for (BayesAudit.Row r : rows) {
            assertTrue(r.logSmoothedDelta() <= r.logWorstCaseDelta() + 1e-12, r.mechanism() + ": " + r.logSmoothedDelta() + " > " + r.logWorstCaseDelta());
            BayesAudit.AtFraction half = r.atFractions().get(0);
            assertTrue(half.logSmoothedDelta() <= half.logWorstCaseDelta() + 1e-12, r.mechanism() + " at eps/2");
            finite += Double.isFinite(half.logSmoothedDelta()) ? 1 : 0;
        }
        assertEquals(rows.size(), finite, "every mechanism has a positive smoothed delta at eps/2");
        assertThrows(BadInputException.class, () -> BayesAudit.rows(20, ChainAudit.run(f, setup.configs(f), 0, 9), setup, 0.3, 0.7));
        assertThrows(BadInputException.class, () -> new BayesAudit.Setup(new double[] {1}, 1e-6, Mechanism.SmoothBeta.STATEMENT, new double[] {1.5}));
    }

    @Test
    void searchAndStatementSummaries() {
        double[] eps = {1, 5};
        List<BayesAudit.LocalLoss> losses = new ArrayList<>();
        double[][] ratios = new double[30][];
        for (int n = 30; n >= 1; n--) {
            losses.add(BayesAudit.localLoss(n, eps));
            ratios[n - 1] = losses.get(losses.size() - 1).maxLogRatio();
        }
        List<BayesAudit.Violation> v = BayesAudit.firstViolations(eps, losses);
        for (int i = 0; i < eps.length; i++) {
            BayesAudit.Violation x = v.get(i);
            assertEquals(30, x.upToN());
            double worst = 0;
            Integer first = null;
            for (int n = 1; n <= 30; n++) {
                worst = Math.max(worst, ratios[n - 1][i] / eps[i]);
                if (first == null && ratios[n - 1][i] > eps[i]) {
                    first = n;
                }
            }
            assertEquals(worst, x.maxRealisedOverNominal(), 0);
            assertEquals(first, x.firstViolationN());
            assertEquals(List.of(), x.undecidedNs());
            assertEquals(worst, ratios[x.atN() - 1][i] / eps[i], 0);
        }
        List<Statements.Result> st = new ArrayList<>();
        for (int n = 12; n >= 1; n--) {
            st.add(Statements.check(n));
        }
        BayesAudit.StatementSummary s = BayesAudit.StatementSummary.of(st);
        assertEquals(12, s.upToN());
        assertTrue(s.statementIHoldsFromN2() && s.statementIIHolds() && s.statementIIIHoldsFromN4());
        assertEquals(12, s.localSensitivityEnumeratedUpToN());
        assertFalse(s.statementIIIFailsAtN().stream().anyMatch(n -> n >= 4));
        assertNull(BayesAudit.firstViolations(new double[] {1e6}, List.of(BayesAudit.localLoss(1, new double[] {1e6}))).get(0).firstViolationN());
    }
}
