package org.privacybounds.jobs.rdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.rdp.DpSgdAccountant;
import org.privacybounds.testing.PlotAssertions;
import org.privacybounds.testing.SparkTestSession;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** dp-sgd-accountant: the printed eps is the API's, the JSON carries the RDP curve, bad input is one line. */
class DpSgdAccountantCommandTest {
    @Test
    void textAndJsonCarryTheAccountantsValues(@TempDir Path tmp) throws Exception {
        // the TensorFlow Privacy tutorial's setting (q = 256/60000, sigma 1.1, 60 epochs, delta 1e-5)
        SparkTestSession.Run text = SparkTestSession.run("dp-sgd-accountant", "--sampling-rate", "0.004267", "--noise-multiplier", "1.1", "--steps", "14063",
                "--delta", "1e-5");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("eps = 2.597301 at order 8"), text.out());
        assertTrue(text.out().contains("classic conversion: eps = 3.009464 at order 9"), text.out());

        Path out = tmp.resolve("acct");
        SparkTestSession.Run json = SparkTestSession.run("dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "12", "--epochs", "5", "--delta",
                "1e-4", "--json", "--out", out.toString());
        assertEquals(0, json.exitCode(), json.err());
        JsonNode j = json.json();
        DpSgdAccountant.Result api = DpSgdAccountant.account(0.01, 12, 500, 1e-4, DpSgdAccountant.defaultOrders());
        assertEquals(500, j.get("parameters").get("steps").asLong());
        assertEquals(api.epsilon(), j.get("epsilon").asDouble(), 0);
        assertEquals(api.order(), j.get("order").asDouble(), 0);
        assertEquals(api.classicEpsilon(), j.get("classicEpsilon").asDouble(), 0);
        // the rdp array: every integer order 2..256 and the fractional ones, increasing in the order
        JsonNode rdp = j.get("rdp");
        int integers = 0;
        double last = 0;
        for (JsonNode p : rdp) {
            double a = p.get("order").asDouble();
            if (a == Math.rint(a) && a >= 2 && a <= 256) {
                integers++;
                assertTrue(p.get("method").asText().startsWith("exact"));
            }
            assertTrue(p.get("value").asDouble() >= last * (1 - 1e-12), "RDP does not decrease with the order"); // constant on (1, 2]: the chord from A_1 = 1
            last = p.get("value").asDouble();
        }
        assertEquals(255, integers);
        JsonNode stored = new ObjectMapper().readTree(out.resolve("result.json").toFile());
        assertEquals(j.get("epsilon").asDouble(), stored.get("epsilon").asDouble(), 0);
        assertEquals(rdp.size() + 1, Files.readAllLines(out.resolve("rdp.csv")).size());
        JsonNode fig = PlotAssertions.figure(out.resolve("epsilon-by-order.png"));
        assertEquals(List.of("Canonne-Kamath-Steinke conversion", "classic conversion",
                String.format(Locale.ROOT, "reported: eps = %.4g at order %s", api.epsilon(), api.order() == Math.rint(api.order())
                        ? String.valueOf((long) api.order()) : String.valueOf(api.order()))), PlotAssertions.names(fig));
        // the reported point is the minimum of the curve (log10 values)
        JsonNode best = PlotAssertions.series(fig, PlotAssertions.names(fig).get(2));
        assertEquals(Math.log10(api.epsilon()), best.get("points").get(0).get(1).asDouble(), 1e-12);
    }

    @Test
    void badInputIsOneLineNamingTheOption() {
        SparkTestSession.Run r = SparkTestSession.run("dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "-1", "--steps", "10", "--delta", "1e-5");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().startsWith("error: --noise-multiplier = -1.0: must be a finite number > 0"), r.err());
        assertFalse(r.err().contains("Exception"));
        SparkTestSession.Run orders = SparkTestSession.run("dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "1", "--steps", "10", "--delta",
                "1e-5", "--orders", "0.5,2");
        assertEquals(2, orders.exitCode());
        assertTrue(orders.err().contains("--orders = 0.5"), orders.err());
    }
}
