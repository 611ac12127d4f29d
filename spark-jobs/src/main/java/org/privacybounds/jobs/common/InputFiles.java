package org.privacybounds.jobs.common;

import java.io.BufferedReader;
import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.univocity.parsers.common.TextParsingException;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;

/**
 * Input files as users name them: read literally (no Hadoop glob, no URI parsing of a ':' in a file name), checked before
 * any work, and identified by the SHA-256 of their bytes, which the manifest and the work folder record so that a result is
 * reused only for the same input content.
 */
public final class InputFiles {
    /** The options that name input files or folders; their content hashes go into manifest.json. */
    public static final List<String> OPTIONS = List.of("--data", "--distributions-file", "--distributions-from-votes", "--codes-file", "--gamma-file",
            "--votes", "--datasets");

    /** Local copies of remote inputs (a file, or a folder of them) -> the URI the user gave. */
    private static final Map<Path, String> GIVEN = new ConcurrentHashMap<>();

    private InputFiles() {
    }

    /** Notes that {@code local} is this run's copy of the input the user named {@code text} (a URI). */
    static void given(Path local, String text) {
        GIVEN.put(local.toAbsolutePath().normalize(), text);
    }

    /**
     * An input file as the user named it, for messages: the URI of a remote input (its local copy is this run's), the path as
     * typed relative to the current folder, or the absolute path when outside it. A file of a folder named on the command
     * line is shown under that folder's name.
     */
    public static String shown(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        for (Path q = abs; q != null; q = q.getParent()) {
            String uri = GIVEN.get(q);
            if (uri != null) {
                return q.equals(abs) ? uri : uri.replaceAll("/+$", "") + "/" + q.relativize(abs).toString().replace(File.separatorChar, '/');
            }
        }
        Path cwd = Path.of("").toAbsolutePath().normalize();
        return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs).toString() : abs.toString();
    }

    /** The named file, which must exist, be a regular file and be readable: else exit 2 naming the option. */
    public static Path file(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new UserInputException(option, "\"\"", "must name a file");
        }
        if (HadoopLocations.isRemote(value)) {
            return HadoopLocations.download(option, value); // hdfs://, s3a://, ...: a local copy in this run's scratch folder
        }
        return file(option, HadoopLocations.local(option, value));
    }

    /** As {@link #file(String, String)}. */
    public static Path file(String option, Path p) {
        if (Files.isDirectory(p)) {
            throw new UserInputException(option, p, "is a folder; give a file");
        }
        if (!Files.exists(p)) {
            throw new UserInputException(option, p, "no such file");
        }
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new UserInputException(option, p, "is not a readable regular file");
        }
        return p.toAbsolutePath().normalize();
    }

    /**
     * The path string under which Spark reads exactly this local file: a {@code file:} URI of the absolute path with Hadoop's
     * glob characters escaped, so that {@code weird[1].csv} is not {@code weird1.csv} and {@code other*.csv} is one file.
     */
    public static String sparkPath(Path p) {
        Path file = p.toAbsolutePath().normalize();
        if (file.getFileName().toString().contains(":")) {
            // Hadoop's checksum side file ".NAME.crc" is a relative path with a ':' in it, which Hadoop's Path cannot hold:
            // Spark reads the file through a link with a plain name in this run's scratch folder
            file = linkWithoutColon(file);
        }
        String abs = file.toString().replace('\\', '/');
        StringBuilder b = new StringBuilder("file://");
        for (char c : abs.toCharArray()) {
            if ("{}[]*?\\".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * What a streaming check of a CSV file found: its header (trimmed names, a trailing empty name dropped), the header's full
     * width (with empty trailing columns) and the number of data rows.
     */
    public record CsvShape(List<String> header, int width, long rows) {
    }

    /**
     * One streaming pass over a CSV file with a header row, in constant memory, before Spark reads it: a bad file is one line
     * naming it and what is wrong (binary, not UTF-8, a field over 1 MB, duplicate or unnamed columns, a row whose width differs
     * from the header's, trailing empty fields allowed), never a task failure deep in Spark.
     */
    public static CsvShape checkCsv(String option, Path file) {
        Path p = file(option, file);
        try {
            return scanCsv(option, file, p);
        } catch (UserInputException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof CharacterCodingException) {
                    throw new UserInputException(option, file, "is not UTF-8 text (save it as UTF-8)");
                }
                if (c instanceof NulCheck.Binary) {
                    throw new UserInputException(option, file, "is binary (it contains NUL bytes), not a CSV text file");
                }
                if (c.getCause() == c) {
                    break;
                }
            }
            if (e instanceof TextParsingException t) {
                throw new UserInputException(option, file, "line " + (t.getLineIndex() + 1) + " has a field longer than 1 MB or is not CSV");
            }
            throw new UserInputException(option, file, "cannot be read (" + e.getMessage() + ")");
        }
    }

    private static CsvShape scanCsv(String option, Path file, Path p) throws IOException {
        CsvParserSettings settings = new CsvParserSettings();
        settings.setLineSeparatorDetectionEnabled(true);
        settings.setMaxColumns(100_000);
        settings.setMaxCharsPerColumn(1 << 20);
        settings.setReadInputOnSeparateThread(false);
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        CsvParser parser = new CsvParser(settings);
        try (Reader r = new BufferedReader(new InputStreamReader(new NulCheck(Files.newInputStream(p)), utf8), 1 << 16)) {
            parser.beginParsing(r);
            String[] header = parser.parseNext();
            if (header == null) {
                throw new UserInputException(option, file, "is empty (a header row is needed)");
            }
            List<String> names = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int c = 0; c < header.length; c++) {
                String name = header[c] == null ? "" : header[c].trim();
                if (name.isEmpty()) {
                    if (c == header.length - 1 && c > 0) {
                        break; // a trailing comma after the last name
                    }
                    throw new UserInputException(option, file, "column " + (c + 1) + " of the header has no name");
                }
                if (!seen.add(name)) {
                    throw new UserInputException(option, file, "the header names column '" + name + "' twice");
                }
                names.add(name);
            }
            long rows = 0;
            for (String[] row; (row = parser.parseNext()) != null;) {
                rows++;
                int width = row.length;
                while (width > names.size() && (row[width - 1] == null || row[width - 1].isBlank())) {
                    width--;
                }
                if (width != names.size() && !(width == 1 && (row[0] == null || row[0].isBlank()))) {
                    throw new UserInputException(option, shown(file), "row " + (rows + 1) + " has " + width + " fields but the header has " + names.size());
                }
            }
            return new CsvShape(List.copyOf(names), header.length, rows);
        } finally {
            parser.stopParsing();
        }
    }

    /** A stream that fails on the first NUL byte: text files have none, binary files have them early. */
    private static final class NulCheck extends FilterInputStream {
        static final class Binary extends IOException {
            private static final long serialVersionUID = 1L;
        }

        NulCheck(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b == 0) {
                throw new Binary();
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            for (int i = off; i < off + n; i++) {
                if (buf[i] == 0) {
                    throw new Binary();
                }
            }
            return n;
        }
    }

    private static Path linkWithoutColon(Path file) {
        try {
            Path dir = Files.createDirectories(SparkSessions.runFolder().resolve("inputs"));
            Path link = dir.resolve("input-" + sha256(file.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16) + "-"
                    + file.getFileName().toString().replace(':', '_'));
            if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, file);
            }
            return link;
        } catch (IOException | UnsupportedOperationException e) {
            throw new UserInputException("--data", file, "has a ':' in its name, which Spark cannot read here; rename or copy the file");
        }
    }

    /** Hex SHA-256 of bytes. */
    public static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /** Hex SHA-256 of a file's bytes, streamed. */
    public static String sha256(Path file) throws IOException {
        MessageDigest d = digest();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int r; (r = in.read(buf)) > 0;) {
                d.update(buf, 0, r);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /**
     * What manifest.json records of one input option's value: the path, its size and SHA-256 (a folder: every regular file in
     * it, by name); null when the path does not exist (the command reports that itself).
     */
    static ObjectNode describe(String value) {
        if (value == null) {
            return null;
        }
        if (HadoopLocations.isRemote(value)) {
            return HadoopLocations.describe(value);
        }
        Path p;
        try {
            p = HadoopLocations.local("input", value);
        } catch (UserInputException | InvalidPathException e) {
            return null; // reported by the command's own check of the option
        }
        try {
            ObjectNode o = Json.object();
            o.put("path", value);
            if (Files.isRegularFile(p)) {
                o.put("bytes", Files.size(p));
                o.put("sha256", sha256(p));
                return o;
            }
            if (Files.isDirectory(p)) {
                ArrayNode files = o.putArray("files");
                try (Stream<Path> s = Files.list(p)) {
                    for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                        files.addObject().put("name", f.getFileName().toString()).put("bytes", Files.size(f)).put("sha256", sha256(f));
                    }
                }
                return o;
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
