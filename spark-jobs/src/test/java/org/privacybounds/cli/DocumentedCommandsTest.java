package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

import picocli.CommandLine;

/**
 * Every command line the documentation shows runs as written from the repository root: the examples of every command's
 * --help, and every {@code scripts/privacy-bounds} line in a {@code ```bash} block of README.md and docs/ (the generated
 * options sections are {@code ```text} and repeat the help examples). A line whose comment states a time of its own
 * ({@code # about 80 s}, anywhere in its comment) is run with --dry-run (options and every data file checked, nothing computed); a line commented
 * {@code # error: ...} must exit 2; the others run to the end and exit 0. Paths under datasets/ are the repository's;
 * out/ is one temporary folder per block, so a block's lines see what its earlier lines wrote. Lines naming an object
 * store or HDFS (hdfs://, s3a://, gs://, abfs://) are left to FileSystemsIT, which runs the same commands against
 * MiniDFSCluster and s3proxy. These lines do not depend on the Spark line, so they run on the Spark 3.5 build only.
 */
class DocumentedCommandsTest extends SparkTestSession {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void onlyOnce() {
        Assumptions.assumeFalse(SparkLine.isSpark4(), "documentation is checked on the Spark 3.5 build");
        System.setProperty("privacybounds.home", root().toString());
    }

    /** The examples of every command's help footer, continuation lines joined. */
    static List<String> helpExamples() {
        List<String> out = new ArrayList<>();
        CommandLine main = new CommandLine(new Main());
        for (CommandLine c : main.getSubcommands().values()) {
            out.addAll(commandLines(Arrays.asList(c.getCommandSpec().usageMessage().footer())));
        }
        return out;
    }

    /** Every {@code scripts/privacy-bounds} line of a {@code ```bash} block of README.md and docs/, one list per block. */
    static List<List<String>> documentBlocks() throws Exception {
        List<Path> files = new ArrayList<>();
        files.add(root().resolve("README.md"));
        try (Stream<Path> s = Files.walk(root().resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<List<String>> out = new ArrayList<>();
        for (Path f : files) {
            List<String> block = new ArrayList<>();
            boolean in = false;
            boolean bash = false;
            for (String line : Files.readAllLines(f)) {
                if (!line.startsWith("```")) {
                    if (in && bash) {
                        block.add(line);
                    }
                    continue;
                }
                if (!in) {
                    bash = line.strip().equals("```bash");
                } else {
                    List<String> lines = commandLines(block);
                    lines.removeIf(l -> l.matches(".*\\b(hdfs|s3a|gs|abfs)://.*"));
                    if (!lines.isEmpty()) {
                        out.add(lines);
                    }
                    block = new ArrayList<>();
                }
                in = !in;
            }
        }
        return out;
    }

    /** The lines that start with scripts/privacy-bounds (after blanks), each joined with its backslash continuations. */
    static List<String> commandLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (!l.startsWith("scripts/privacy-bounds ")) {
                continue;
            }
            StringBuilder b = new StringBuilder(l);
            while (b.toString().endsWith("\\") && i + 1 < lines.size()) {
                b.setLength(b.length() - 1);
                b.append(' ').append(lines.get(++i).strip());
            }
            out.add(b.toString());
        }
        return out;
    }

    /** Shell words of a line (single and double quotes, no expansion), the comment dropped. */
    static List<String> words(String line) {
        List<String> w = new ArrayList<>();
        StringBuilder cur = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                cur = cur == null ? new StringBuilder() : cur;
            } else if (Character.isWhitespace(c)) {
                if (cur != null) {
                    w.add(cur.toString());
                    cur = null;
                }
            } else if (c == '#' && cur == null) {
                break;
            } else {
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(c);
            }
        }
        if (cur != null) {
            w.add(cur.toString());
        }
        return w;
    }

    /** The arguments of the command as the test runs it: paths made absolute, out/ redirected, --dry-run for a timed line. */
    static String[] arguments(String line, Path outRoot) {
        List<String> w = words(line);
        List<String> args = new ArrayList<>();
        for (String a : w.subList(1, w.size())) {
            if (a.startsWith("datasets/")) {
                a = root().resolve(a).toString();
            } else if (a.startsWith("file:datasets/")) {
                a = "file:" + root().resolve(a.substring(5));
            } else if (a.startsWith("out/")) {
                a = outRoot.resolve(a).toString();
            }
            args.add(a);
        }
        if (line.matches(".*#.*\\babout \\d.*")) {
            args.add("--dry-run");
        }
        return args.toArray(String[]::new);
    }

    /** Runs the lines in order with out/ under {@code outRoot}; each exits 0, or 2 where commented {@code # error}. */
    static void runAll(List<String> lines, Path outRoot, String where) {
        for (String line : lines) {
            String[] args = arguments(line, outRoot);
            long t0 = System.nanoTime();
            Run r = run(args);
            System.err.printf("%s: %.1f s: %s%n", where, (System.nanoTime() - t0) / 1e9, line);
            boolean error = line.matches(".*#\\s*error\\b.*");
            assertEquals(error ? 2 : 0, r.exitCode(), where + ": " + line + "\n" + r.err());
            if (error) {
                continue;
            }
            assertFalse(r.err().startsWith("error"), where + ": " + line + "\n" + r.err());
            if (Arrays.asList(args).contains("--dry-run")) {
                assertTrue(r.err().contains("dry run: the arguments and every data file they name are valid"), line + "\n" + r.err());
            }
        }
    }

    /** What decides how a line runs: its words, a dry run (a time in its comment) and an expected error. */
    static List<String> runKey(String line) {
        List<String> k = new ArrayList<>(words(line));
        k.add(line.matches(".*#.*\\babout \\d.*") ? "dry-run" : "run");
        k.add(line.matches(".*#\\s*error\\b.*") ? "error" : "ok");
        return k;
    }

    @Test
    void everyHelpExampleRuns() throws Exception {
        List<String> lines = helpExamples();
        assertTrue(lines.size() >= 40, "examples: " + lines.size());
        for (String l : lines) {
            String[] w = words(l).toArray(String[]::new);
            // every path an example names exists in the repository (out/ is written)
            for (String a : w) {
                String p = a.startsWith("file:") ? a.substring(5) : a;
                if (p.startsWith("datasets/")) {
                    assertTrue(Files.exists(root().resolve(p)), l + ": " + p + " does not exist");
                }
            }
        }
        assertFalse(lines.isEmpty());
        // an example that a documentation block shows word for word (and runs the same way) runs there
        Set<List<String>> documented = new HashSet<>();
        for (List<String> b : documentBlocks()) {
            b.forEach(l -> documented.add(runKey(l)));
        }
        int i = 0;
        for (String l : lines) {
            if (!documented.contains(runKey(l))) {
                runAll(List.of(l), tmp.resolve("help-" + i), "help");
            }
            i++;
        }
    }

    @Test
    void everyDocumentedCommandRuns() throws Exception {
        List<List<String>> blocks = documentBlocks();
        assertTrue(blocks.size() >= 20, "blocks: " + blocks.size());
        int i = 0;
        for (List<String> b : blocks) {
            runAll(b, tmp.resolve("docs-" + i++), "docs");
        }
    }
}
