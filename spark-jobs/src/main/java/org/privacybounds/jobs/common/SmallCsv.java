package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.univocity.parsers.common.TextParsingException;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

/**
 * A small CSV file with a header row, read on the driver without Spark (a distributions file, a codes file, a covariance
 * matrix): checked as it is read, so that a bad file is one line naming it and what is wrong (exit 2), never a stack trace:
 * not UTF-8, binary, a line over 1 MB, a file over 64 MB (not a small input), duplicate or empty column names, ragged rows.
 */
public record SmallCsv(Path file, List<String> header, List<String[]> rows) {
    /** Largest file read on the driver. */
    public static final long MAX_BYTES = 64L << 20;
    private static final int MAX_LINE = 1 << 20;

    /** Reads {@code file} for {@code option}; {@code hasHeader} false keeps every row as data (header is then empty). */
    public static SmallCsv read(String option, Path file, boolean hasHeader) {
        Path p = InputFiles.file(option, file);
        try {
            long size = Files.size(p);
            if (size > MAX_BYTES) {
                throw new UserInputException(option, file, "is " + size / (1 << 20) + " MB; files read on the driver are limited to " + (MAX_BYTES >> 20) + " MB");
            }
            byte[] bytes = Files.readAllBytes(p);
            for (byte b : bytes) {
                if (b == 0) {
                    throw new UserInputException(option, file, "is binary (it contains NUL bytes), not a CSV text file");
                }
            }
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                throw new UserInputException(option, file, "is not UTF-8 text (save it as UTF-8)");
            }
            int line = 1;
            int start = 0;
            for (int i = 0; i <= text.length(); i++) {
                if (i == text.length() || text.charAt(i) == '\n') {
                    if (i - start > MAX_LINE) {
                        throw new UserInputException(option, file, "line " + line + " is longer than 1 MB; is this a CSV file?");
                    }
                    start = i + 1;
                    line++;
                }
            }
            CsvParserSettings settings = new CsvParserSettings();
            settings.setLineSeparatorDetectionEnabled(true);
            settings.setMaxColumns(100_000);
            settings.setMaxCharsPerColumn(MAX_LINE);
            List<String[]> all;
            try (Reader r = new StringReader(text)) {
                all = new CsvParser(settings).parseAll(r);
            } catch (TextParsingException e) {
                throw new UserInputException(option, file, "cannot be parsed as CSV near line " + (e.getLineIndex() + 1));
            }
            if (!hasHeader) {
                return new SmallCsv(p, List.of(), all);
            }
            if (all.isEmpty()) {
                throw new UserInputException(option, file, "is empty (a header row is needed)");
            }
            String[] h = all.get(0);
            Set<String> seen = new HashSet<>();
            for (int c = 0; c < h.length; c++) {
                String name = h[c] == null ? "" : h[c].trim();
                if (name.isEmpty() && c < h.length - 1) {
                    throw new UserInputException(option, file, "column " + (c + 1) + " of the header has no name");
                }
                if (!name.isEmpty() && !seen.add(name)) {
                    throw new UserInputException(option, file, "the header names column '" + name + "' twice");
                }
                h[c] = name;
            }
            List<String> header = new ArrayList<>(Arrays.asList(h));
            if (header.size() > 1 && header.get(header.size() - 1).isEmpty()) {
                header.remove(header.size() - 1); // a trailing comma after the last name
            }
            List<String[]> rows = new ArrayList<>();
            for (int r = 1; r < all.size(); r++) {
                String[] row = all.get(r);
                int width = row.length;
                while (width > header.size() && (row[width - 1] == null || row[width - 1].isBlank())) {
                    width--;
                }
                if (width != header.size()) {
                    throw new UserInputException(option, InputFiles.shown(file), "row " + (r + 1) + " has " + width + " fields but the header has " + header.size());
                }
                rows.add(Arrays.copyOf(row, header.size()));
            }
            return new SmallCsv(p, List.copyOf(header), rows);
        } catch (IOException e) {
            throw new UserInputException(option, file, "cannot be read (" + e.getMessage() + ")");
        }
    }

    /** The index of a column, or exit 2 naming the option, the column and the columns there are. */
    public int column(String option, String name) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new UserInputException(option, name, "is not a column of " + InputFiles.shown(file) + " (columns: " + String.join(", ", header) + ")");
        }
        return i;
    }

    /** A cell, never null. */
    public static String cell(String[] row, int i) {
        return i < row.length && row[i] != null ? row[i].trim() : "";
    }
}
