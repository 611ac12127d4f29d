package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Input files as users name them: read literally (no Hadoop glob, no URI parsing of a ':' in a file name), checked before
 * any work, and identified by the SHA-256 of their bytes, which the manifest and the work folder record so that a result is
 * reused only for the same input content.
 */
public final class InputFiles {
    /** The options that name input files or folders; their content hashes go into manifest.json. */
    public static final List<String> OPTIONS = List.of("--data", "--distributions-file", "--distributions-from-votes", "--codes-file", "--gamma-file",
            "--votes", "--datasets");

    private InputFiles() {
    }

    /** The named file, which must exist, be a regular file and be readable: else exit 2 naming the option. */
    public static Path file(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new UserInputException(option, "\"\"", "must name a file");
        }
        return file(option, Path.of(value));
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
        String abs = p.toAbsolutePath().normalize().toString().replace('\\', '/');
        StringBuilder b = new StringBuilder("file://");
        for (char c : abs.toCharArray()) {
            if ("{}[]*?\\".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
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
        Path p = Path.of(value);
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
