package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import picocli.CommandLine;

/** What people read: every command's --help lists each option once, examples verbatim, papers by name; typos get a suggestion. */
class HelpTest {
    @BeforeAll
    static void onlyOnSpark35() {
        SparkLine.checkedOnSpark35Only("the help");
    }

    @Test
    void everyCommandsHelpListsEachOptionOnceWithPasteableExamples() {
        CommandLine cl = new CommandLine(new Main());
        for (Map.Entry<String, CommandLine> c : cl.getSubcommands().entrySet()) {
            if (c.getKey().equals("help")) {
                continue;
            }
            SparkTestSession.Run r = SparkTestSession.run(c.getKey(), "--help");
            assertEquals(0, r.exitCode(), c.getKey());
            String help = r.out();
            // an option's own line: "  -x, --name=..." or "      --name=..." at the start of a line
            Map<String, Integer> seen = new HashMap<>();
            String options = help.contains("\nExamples") ? help.substring(0, help.indexOf("\nExamples")) : help;
            Matcher m = Pattern.compile("(?m)^\\s{2,8}(?:-\\w, )?(--[a-z0-9-]+)").matcher(options);
            while (m.find()) {
                seen.merge(m.group(1), 1, Integer::sum);
            }
            seen.forEach((opt, n) -> assertEquals(1, n, c.getKey() + " lists " + opt + " " + n + " times"));
            for (String line : c.getValue().getCommandSpec().usageMessage().footer()) {
                assertTrue(help.contains(line.replace("%%", "%")), c.getKey() + ": the example line is not printed as written: " + line);
            }
            assertFalse(help.matches("(?s).*seed 00[0-4].*"), c.getKey() + " names a seed number instead of the paper");
            assertTrue(c.getValue().getCommandSpec().usageMessage().header().length > 0, c.getKey() + " has no one-line summary");
        }
        SparkTestSession.Run top = SparkTestSession.run("--help");
        for (String name : cl.getSubcommands().keySet()) {
            assertTrue(top.out().contains(name), name);
        }
        SparkTestSession.Run typo = SparkTestSession.run("smothed", "--n", "3");
        assertEquals(2, typo.exitCode());
        assertTrue(typo.err().contains("did you mean: smoothed"), typo.err());
        assertEquals(1, typo.err().strip().lines().count(), "a parse error is one line: " + typo.err());
        // a whole number may be written in scientific notation; a fraction is refused in one line naming the option
        SparkTestSession.Run sci = SparkTestSession.run("smoothed", "--n", "1.2e1", "--lost", "2", "--epsilon", "1", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1", "--dry-run");
        assertEquals(0, sci.exitCode(), sci.err());
        assertTrue(sci.out().contains("12"), sci.out());
        SparkTestSession.Run fraction = SparkTestSession.run("smoothed", "--n", "1.5e0", "--lost", "2", "--epsilon", "1", "--distributions",
                "0.2,0.3,0.5;0.6,0.3,0.1");
        assertEquals(2, fraction.exitCode());
        assertEquals("error: Invalid value for option '--n': '1.5e0' is not a whole number (e.g. 158000000 or 1.58e8)"
                + " (run 'privacy-bounds smoothed --help' for usage)", fraction.err().strip());
    }
}
