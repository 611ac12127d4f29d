package org.privacybounds.jobs.common;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.util.VersionInfo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Inputs and outputs named by a URI with a scheme ({@code hdfs://}, {@code s3a://}, {@code gs://}, {@code abfs://}, ...): read
 * and written through Hadoop's FileSystem, configured from the {@code spark.hadoop.*} settings Spark passes (spark-submit's
 * {@code --conf}, or system properties). {@code file:} URIs are local paths. A scheme without a FileSystem on the classpath is
 * a clear error naming the connector to add.
 */
public final class HadoopLocations {
    private static final Pattern URI_WITH_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*");
    /** The Hadoop release Spark runs on (3.3.4 under Spark 3.5, 3.5.0 under Spark 4.2): connectors must match it. */
    private static final String HADOOP = VersionInfo.getVersion();
    /** The connector that provides a scheme, as a Maven coordinate matching the running Hadoop. */
    private static final Map<String, String> CONNECTORS = Map.of(
            "s3a", "org.apache.hadoop:hadoop-aws:" + HADOOP + " (it brings the AWS SDK bundle)",
            "s3", "org.apache.hadoop:hadoop-aws:" + HADOOP + " and the scheme s3a:// (Hadoop has no s3:// FileSystem)",
            "s3n", "org.apache.hadoop:hadoop-aws:" + HADOOP + " and the scheme s3a:// (s3n is gone from Hadoop 3)",
            "gs", "com.google.cloud.bigdataoss:gcs-connector:hadoop3-2.2.21 (shaded)",
            "abfs", "org.apache.hadoop:hadoop-azure:" + HADOOP,
            "abfss", "org.apache.hadoop:hadoop-azure:" + HADOOP,
            "wasb", "org.apache.hadoop:hadoop-azure:" + HADOOP,
            "wasbs", "org.apache.hadoop:hadoop-azure:" + HADOOP);

    private HadoopLocations() {
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "";
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** Whether {@code text} is a URI with a scheme other than {@code file:} (a Hadoop FileSystem location). */
    public static boolean isRemote(String text) {
        return text != null && URI_WITH_SCHEME.matcher(text).matches() && !text.regionMatches(true, 0, "file:", 0, 5);
    }

    /** A {@code file:} URI as a local path; anything else as the literal path it names. */
    public static Path local(String option, String text) {
        if (text != null && text.regionMatches(true, 0, "file:", 0, 5)) {
            try {
                return Path.of(new URI(text));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new UserInputException(option, text, "is not a valid file: URI (file:///absolute/path, with %20 for a space)");
            }
        }
        return Path.of(text);
    }

    /** Hadoop's configuration with every {@code spark.hadoop.*} system property (spark-submit's --conf) applied. */
    public static Configuration configuration() {
        Configuration c = new Configuration();
        for (String k : System.getProperties().stringPropertyNames()) {
            if (k.startsWith("spark.hadoop.")) {
                c.set(k.substring("spark.hadoop.".length()), System.getProperty(k));
            }
        }
        return c;
    }

    /** The FileSystem of a URI, or exit 2 naming the option, the URI and the connector that provides its scheme. */
    public static FileSystem fileSystem(String option, URI uri) {
        try {
            return FileSystem.get(uri, configuration());
        } catch (UnsupportedFileSystemException e) {
            throw missingConnector(option, uri);
        } catch (IOException | RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("No FileSystem for scheme") || e instanceof UnsupportedOperationException
                    || causedByMissingClass(e)) {
                throw missingConnector(option, uri);
            }
            throw new UserInputException(option, uri, "cannot be opened through Hadoop's FileSystem (" + e.getClass().getSimpleName() + ": "
                    + firstLine(e.getMessage()) + ")");
        }
    }

    /** Hadoop knows the scheme (core-default.xml names its class) but the connector jar is not on the classpath. */
    private static boolean causedByMissingClass(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ClassNotFoundException || t instanceof NoClassDefFoundError) {
                return true;
            }
        }
        return false;
    }

    private static UserInputException missingConnector(String option, URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String jar = CONNECTORS.get(scheme);
        return new UserInputException(option, uri, "no Hadoop FileSystem for scheme '" + scheme + ":' on the classpath"
                + (jar != null ? "; add the connector " + jar + " with spark-submit --packages or spark.jars (README: Object stores)"
                        : "; add the jar that provides it (spark.jars), or use a local path, file://, hdfs://, s3a://, gs:// or abfs://"));
    }

    /** The URI of {@code text}, or exit 2. */
    public static URI uri(String option, String text) {
        try {
            URI u = new URI(text);
            if (u.getScheme() == null) {
                throw new URISyntaxException(text, "no scheme");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new UserInputException(option, text, "is not a valid URI (" + e.getReason() + "; a space is %20)");
        }
    }

    /**
     * A remote input file copied into this run's scratch folder, so that it is checked, hashed and read exactly like a local
     * one; exit 2 when it is missing or a folder.
     */
    public static Path download(String option, String text) {
        return download(option, text, false);
    }

    /**
     * As {@link #download(String, String)}; with {@code folders}, a remote folder is copied too (its {@code *.csv} files, into
     * a local folder of the same name).
     */
    public static Path download(String option, String text, boolean folders) {
        URI u = uri(option, text);
        FileSystem fs = fileSystem(option, u);
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(u);
        try {
            FileStatus st;
            try {
                st = fs.getFileStatus(p);
            } catch (FileNotFoundException e) {
                throw new UserInputException(option, text, "no such file");
            }
            if (st.isDirectory() && !folders) {
                throw new UserInputException(option, text, "is a folder; give a file");
            }
            Path dir = Files.createDirectories(SparkSessions.runFolder().resolve("inputs").resolve(UUID.randomUUID().toString()));
            Path local = dir.resolve(p.getName().isEmpty() ? "input" : p.getName());
            if (st.isDirectory()) {
                Files.createDirectories(local);
                for (FileStatus f : fs.listStatus(p)) {
                    if (f.isFile() && f.getPath().getName().toLowerCase(Locale.ROOT).endsWith(".csv")) {
                        copy(fs, f.getPath(), local.resolve(f.getPath().getName()));
                    }
                }
            } else {
                copy(fs, p, local);
            }
            InputFiles.given(local, text);
            return local;
        } catch (IOException e) {
            throw new UserInputException(option, text, "cannot be read (" + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()) + ")");
        }
    }

    private static void copy(FileSystem fs, org.apache.hadoop.fs.Path from, Path to) throws IOException {
        try (InputStream in = fs.open(from)) {
            Files.copy(in, to);
        }
    }

    /**
     * Size and SHA-256 of a remote input file (or of every file of a remote folder), streamed through its FileSystem, for the
     * manifest; null when it cannot be read (the command's own check reports that).
     */
    static ObjectNode describe(String text) {
        try {
            URI u = new URI(text);
            FileSystem fs = FileSystem.get(u, configuration());
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(u);
            FileStatus st = fs.getFileStatus(p);
            ObjectNode o = Json.object();
            o.put("path", text);
            if (st.isDirectory()) {
                ArrayNode files = o.putArray("files");
                FileStatus[] list = fs.listStatus(p);
                Arrays.sort(list, Comparator.comparing(f -> f.getPath().getName()));
                for (FileStatus f : list) {
                    if (f.isFile()) {
                        files.addObject().put("name", f.getPath().getName()).put("bytes", f.getLen()).put("sha256", sha256(fs, f.getPath()));
                    }
                }
            } else {
                o.put("bytes", st.getLen());
                o.put("sha256", sha256(fs, p));
            }
            return o;
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    private static String sha256(FileSystem fs, org.apache.hadoop.fs.Path p) throws IOException {
        try (InputStream in = fs.open(p)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0;) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An output folder on a Hadoop FileSystem: checked before the run, published from a local staging folder at the end. */
    public static final class Remote {
        private final String option;
        private final String text;
        private final FileSystem fs;
        private final org.apache.hadoop.fs.Path target;

        Remote(String option, String text) {
            this.option = option;
            this.text = text;
            URI u = uri(option, text);
            if (u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/")) {
                throw new UserInputException(option, text, "must name a folder inside the bucket or file system, e.g. " + u.getScheme() + "://"
                        + (u.getAuthority() == null ? "" : u.getAuthority()) + "/results/run1");
            }
            this.fs = fileSystem(option, u);
            this.target = new org.apache.hadoop.fs.Path(u);
        }

        /** What the user typed. */
        public String text() {
            return text;
        }

        /** Whether the folder exists (a file there is an error). */
        boolean exists() {
            try {
                FileStatus st = fs.getFileStatus(target);
                if (!st.isDirectory()) {
                    throw new UserInputException(option, text, "is a file; --out names a folder");
                }
                return true;
            } catch (FileNotFoundException e) {
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        boolean isEmptyFolder() {
            try {
                return fs.listStatus(target).length == 0;
            } catch (IOException e) {
                return false;
            }
        }

        /** The text of a file of the folder, or null if there is none. */
        String read(String name) {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(target, name);
            try {
                if (!fs.exists(p)) {
                    return null;
                }
                try (InputStream in = fs.open(p)) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                return null;
            }
        }

        /**
         * Publishes a finished local folder: copies it (without {@code _SUCCESS}) to a hidden temporary folder beside the target,
         * removes the previous target (only reached when --overwrite was allowed; its {@code _SUCCESS} first), renames the
         * temporary folder to the target and writes {@code _SUCCESS} last, so a reader that waits for {@code _SUCCESS} never sees
         * a partial result. On HDFS the rename is atomic; on S3 it copies and deletes object by object, so there only
         * {@code _SUCCESS} marks a complete result.
         */
        void publish(Path local) {
            org.apache.hadoop.fs.Path parent = target.getParent();
            org.apache.hadoop.fs.Path temp = new org.apache.hadoop.fs.Path(parent, "." + target.getName() + ".tmp-" + UUID.randomUUID());
            try {
                Files.deleteIfExists(local.resolve("_SUCCESS"));
                FileSystem localFs = FileSystem.getLocal(configuration());
                fs.mkdirs(parent);
                if (!FileUtil.copy(localFs, new org.apache.hadoop.fs.Path(local.toUri()), fs, temp, false, configuration())) {
                    throw new IOException("copy to " + temp + " failed");
                }
                if (fs.exists(target)) {
                    // the old _SUCCESS goes first: an object store deletes the rest one object at a time, and a reader must not
                    // see the old marker beside a half-deleted result
                    fs.delete(new org.apache.hadoop.fs.Path(target, "_SUCCESS"), false);
                    fs.delete(target, true);
                }
                if (!fs.rename(temp, target)) {
                    throw new IOException("rename " + temp + " to " + target + " failed");
                }
                fs.create(new org.apache.hadoop.fs.Path(target, "_SUCCESS"), true).close();
            } catch (IOException e) {
                try {
                    fs.delete(temp, true);
                } catch (IOException ignored) {
                    // best effort
                }
                throw new UncheckedIOException("writing " + text + ": " + e.getMessage(), e);
            }
        }

        /** The local staging folder of this target (stable per URI, so that resumable work survives a rerun on this machine). */
        Path staging() {
            String key = InputFiles.sha256(text.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
            return Path.of(System.getProperty("java.io.tmpdir"), "privacy-bounds-staging", key, target.getName());
        }
    }
}
