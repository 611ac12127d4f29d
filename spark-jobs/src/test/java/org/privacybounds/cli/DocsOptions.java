package org.privacybounds.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The "Options" section of every command's page in docs/commands/: the command's --help, verbatim, between the marker
 * {@link #BEGIN} and the end of its code block. {@code main} rewrites the sections ({@code scripts/docs-options});
 * {@code DocsTest} fails when a page's section differs from the help the code prints.
 */
public final class DocsOptions {
    static final String BEGIN = "<!-- options: generated from --help by scripts/docs-options; edit the command's annotations instead -->";
    static final int WIDTH = 110;

    private DocsOptions() {
    }

    /** The page's text with its options section set to the command's current help. */
    static String withOptions(String page, String command) {
        String block = BEGIN + "\n```text\n" + Main.helpText(command, WIDTH).stripTrailing() + "\n```\n";
        int i = page.indexOf(BEGIN);
        if (i < 0) {
            return page.stripTrailing() + "\n\n## Options\n\n" + block;
        }
        int open = page.indexOf("```", i + BEGIN.length());
        int close = page.indexOf("```", open + 3);
        return page.substring(0, i) + block + page.substring(close + 4);
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "docs/commands");
        for (String c : Main.commandNames()) {
            Path page = dir.resolve(c + ".md");
            String text = Files.exists(page) ? Files.readString(page) : "# " + c + "\n";
            Files.writeString(page, withOptions(text, c));
        }
    }
}
