package org.privacybounds.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;


/**
 * A real HDFS for the integration tests: Hadoop's MiniDFSCluster (one namenode, one datanode, on 127.0.0.1) at the Hadoop
 * release of the Spark line under test, in a JVM of its own with the class path of its own module (it-hdfs-hadoopX.Y: its
 * unshaded Hadoop jars and Spark's shaded Hadoop client, or Spark 4's Jersey, do not mix in one class path). The tests
 * talk to it over its stdin, one command a line: {@code put LOCAL PATH} uploads a file, {@code list PATH} answers every file
 * under PATH as {@code file path size modificationTime} lines, {@code read PATH} a file's bytes as {@code data BASE64}; every
 * answer ends with {@code end}, a failure is one {@code error ...} line before it. Closing stdin stops it.
 */
public final class HdfsServer implements AutoCloseable {
    private final Process process;
    private final PrintWriter in;
    private final BufferedReader out;
    private final String url;

    private HdfsServer(Process process) throws IOException {
        this.process = process;
        this.in = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return "error " + e;
            }
        });
        String first;
        try {
            first = line.get(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IOException("HDFS did not start in 2 minutes", e);
        }
        if (first == null || !first.startsWith("hdfs://")) {
            process.destroyForcibly();
            throw new IOException("HDFS did not start: " + first);
        }
        this.url = first;
    }

    /**
     * Starts the cluster with its data under {@code dir} (its log in dir/hdfs.log), from {@code classpath}: the class path of
     * the module it-hdfs-hadoopX.Y of this Spark line's Hadoop, which holds the server.
     */
    public static HdfsServer start(Path dir, String classpath) throws IOException {
        Files.createDirectories(dir);
        // (the short runs' JVM options: a test's HDFS serves a few files, and the optimizing compiler only costs it CPU)
        Process p = new ProcessBuilder(ShortRuns.java("-cp", classpath, "org.privacybounds.testing.hdfs.HdfsServerMain", dir.toString()))
                .redirectError(dir.resolve("hdfs.log").toFile()).start();
        return new HdfsServer(p);
    }

    /** hdfs://127.0.0.1:PORT. */
    public String url() {
        return url;
    }

    /** Sends one command and returns its answer's lines (up to "end"); an error line fails it. */
    private synchronized List<String> ask(String command) throws IOException {
        in.println(command);
        List<String> lines = new ArrayList<>();
        String error = null;
        for (String line = out.readLine(); !"end".equals(line); line = out.readLine()) {
            if (line == null) {
                throw new IOException("HDFS ended");
            }
            if (line.startsWith("error ")) {
                error = line.substring(6);
            } else {
                lines.add(line);
            }
        }
        if (error != null) {
            throw new IOException(command + ": " + error);
        }
        return lines;
    }

    /** Uploads a local file to {@code path} (absolute, in this file system). */
    public void put(Path local, String path) throws IOException {
        ask("put " + local.toAbsolutePath() + " " + path);
    }

    /** Every file under {@code path}: its path relative to {@code path} -> {size, modification time in ms}. */
    public Map<String, long[]> list(String path) throws IOException {
        Map<String, long[]> files = new TreeMap<>();
        for (String line : ask("list " + path)) {
            String[] f = line.split(" ");
            files.put(f[1], new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
        }
        return files;
    }

    /** The text of a file, or null when there is none. */
    public String read(String path) throws IOException {
        List<String> a = ask("read " + path);
        return a.isEmpty() ? null : new String(Base64.getDecoder().decode(a.get(0).substring(5)), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        in.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
