package org.privacybounds.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privacybounds.testing.SparkLine;
import org.privacybounds.testing.SparkTestSession;

/**
 * The documentation agrees with the code: the README fits a coffee break, every command has a page whose options section is
 * the command's current --help, every Java block of README.md and docs/ is a test's code (so it compiles and runs), every
 * relative link and anchor resolves, and the Maven coordinates shown are the modules'. The command lines are run by
 * {@link DocumentedCommandsTest}.
 */
class DocsTest {
    @BeforeAll
    static void onlyOnSpark35() {
        SparkLine.checkedOnSpark35Only("the documentation");
    }

    private static final Path ROOT = SparkTestSession.root();

    static List<Path> pages() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    @Test
    void readmeIsShort() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertTrue(readme.length() <= 12_000, "README.md has " + readme.length() + " characters; at most 12,000 (move detail to docs/)");
    }

    @Test
    void everyCommandHasAPageWithItsCurrentOptions() throws IOException {
        String index = Files.readString(ROOT.resolve("docs/index.md"));
        for (String c : Main.commandNames()) {
            Path page = ROOT.resolve("docs/commands/" + c + ".md");
            assertTrue(Files.exists(page), "no page docs/commands/" + c + ".md");
            String text = Files.readString(page);
            assertEquals(DocsOptions.withOptions(text, c), text,
                    "docs/commands/" + c + ".md: the options section differs from `" + c + " --help`; run scripts/docs-options");
            assertTrue(index.contains("(commands/" + c + ".md)"), "docs/index.md does not link " + c);
        }
    }

    /** A Java line as compared: its trailing comment dropped, whitespace collapsed. */
    static String normalized(String line) {
        String l = line;
        int comment = l.indexOf("// ");
        if (comment > 0 && Character.isWhitespace(l.charAt(comment - 1))) {
            l = l.substring(0, comment);
        }
        return l.strip().replaceAll("\\s+", " ");
    }

    static List<String> normalizedLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            String n = normalized(l);
            if (!n.isEmpty() && !n.startsWith("//")) {
                out.add(n);
            }
        }
        return out;
    }

    /** The fenced blocks of one language in a Markdown file. */
    static List<List<String>> blocks(Path file, String language) throws IOException {
        List<List<String>> out = new ArrayList<>();
        List<String> block = null;
        boolean in = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                if (in && block != null) {
                    out.add(block);
                }
                block = !in && line.strip().equals("```" + language) ? new ArrayList<>() : null;
                in = !in;
            } else if (block != null) {
                block.add(line);
            }
        }
        return out;
    }

    @Test
    void everyJavaBlockIsATestsCode() throws IOException {
        List<List<String>> sources = new ArrayList<>();
        for (String dir : List.of("spark-jobs/src/test/java", "core-math/src/test/java", "examples")) {
            try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
                for (Path p : s.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/target/")).toList()) {
                    sources.add(normalizedLines(Files.readAllLines(p)));
                }
            }
        }
        int checked = 0;
        for (Path page : pages()) {
            for (List<String> block : blocks(page, "java")) {
                List<String> want = normalizedLines(block);
                boolean found = sources.stream().anyMatch(src -> inOrder(want, src));
                if (!found) {
                    fail(ROOT.relativize(page) + ": this Java block is not the code of any test (copy it into one, with assertions):\n"
                            + String.join("\n", block));
                }
                checked++;
            }
        }
        assertTrue(checked >= 3, "Java blocks checked: " + checked);
    }

    /** Whether every line of want occurs in src, in the same order. */
    static boolean inOrder(List<String> want, List<String> src) {
        int j = 0;
        for (String w : want) {
            while (j < src.size() && !src.get(j).equals(w)) {
                j++;
            }
            if (j == src.size()) {
                return false;
            }
            j++;
        }
        return true;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    static Set<String> anchors(Path file) throws IOException {
        Set<String> out = new HashSet<>();
        boolean in = false;
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("```")) {
                in = !in;
            } else if (!in && line.startsWith("#")) {
                out.add(anchor(line.replaceFirst("^#+", "")));
            }
        }
        return out;
    }

    @Test
    void everyLinkResolves() throws IOException {
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        int checked = 0;
        for (Path page : pages()) {
            String text = Files.readString(page).replaceAll("(?s)```.*?```", "");
            Matcher m = link.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String frag = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                assertTrue(Files.exists(resolved), ROOT.relativize(page) + ": link " + target + " names nothing");
                if (frag != null) {
                    assertTrue(anchors(resolved).contains(frag), ROOT.relativize(page) + ": link " + target + ": no heading #" + frag);
                }
                checked++;
            }
        }
        assertTrue(checked >= 20, "links checked: " + checked);
    }

    @Test
    void mavenCoordinatesAreTheModules() throws IOException {
        Set<String> artifacts = new HashSet<>();
        try (Stream<Path> s = Files.walk(ROOT, 3)) {
            for (Path pom : s.filter(p -> p.getFileName().toString().equals("pom.xml") && !p.toString().contains("/target/")).toList()) {
                Matcher m = Pattern.compile("<artifactId>(privacy-bounds[^<]*)</artifactId>").matcher(Files.readString(pom));
                while (m.find()) {
                    artifacts.add(m.group(1));
                }
            }
        }
        Pattern shown = Pattern.compile("privacy-bounds-(core-math|spark-jobs-[0-9.]+_[0-9.]+)");
        for (Path page : pages()) {
            Matcher m = shown.matcher(Files.readString(page));
            while (m.find()) {
                assertTrue(artifacts.contains(m.group()), ROOT.relativize(page) + " names artifact " + m.group() + "; the modules are " + artifacts);
            }
        }
    }
}
