package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.privacybounds.cli.Main;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The example's printed numbers are the command line's, to the last digit. */
class LibraryUseTest {
    @Test
    void printsWhatTheCommandLinePrints() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            LibraryUse.main(new String[0]);
        } finally {
            System.setOut(saved);
        }
        String printed = buf.toString(StandardCharsets.UTF_8);
        saved.print(printed);

        JsonNode profile = cli("profile", "--counts", "1200,800", "--sample-size", "1000", "--epsilon", "1", "--json");
        assertEquals(profile.get("results").get(0).get("delta").asDouble(), number(printed, "profile: delta = (\\S+)"), 0);

        JsonNode acct = cli("dp-sgd-accountant", "--sampling-rate", "0.01", "--noise-multiplier", "1.1", "--steps", "1000", "--delta", "1e-5", "--json");
        assertEquals(acct.get("epsilon").asDouble(), number(printed, "dp-sgd: eps = (\\S+) "), 0);
        assertEquals(10 * acct.get("epsilon").asDouble(), number(printed, "dp-sgd, 10 runs: eps = (\\S+),"), 1e-12);
        assertEquals(1e-4, number(printed, "10 runs: eps = \\S+, delta = (\\S+)"), 1e-18);

        // the Spark job's precinct 2 (310, 290; half of 600 ballots published) against the profile command with T = 300
        JsonNode p2 = cli("profile", "--counts", "310,290", "--sample-size", "300", "--epsilon", "1", "--json");
        assertEquals(p2.get("results").get(0).get("delta").asDouble(), number(printed, "precinct Warren/2: n = 600, T = 300, delta\\(eps = 1\\) = (\\S+)"), 0);
        assertTrue(printed.contains("precinct Fulton/1: n = 100, T = 50"), printed);
    }

    private static JsonNode cli(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no match for " + regex + " in:\n" + text);
        return Double.parseDouble(m.group(1));
    }
}
