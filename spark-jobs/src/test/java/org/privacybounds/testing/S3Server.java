package org.privacybounds.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A real S3-compatible server for the integration tests: s3proxy (from Maven Central, in a JVM of its own: its Jetty and
 * Jackson are not Spark's) on 127.0.0.1 with a filesystem backend under the folder given and AWS signatures required, and a
 * small client of the S3 REST protocol for the tests' own reads and writes (signature version 2, which s3proxy accepts
 * beside version 4), so the tests read what any S3 client would list.
 */
public final class S3Server implements AutoCloseable {
    /** Credentials of this local server only. */
    public static final String ACCESS_KEY = "local-identity";
    public static final String SECRET_KEY = "local-credential";
    public static final String BUCKET = "results";

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private S3Server(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts s3proxy from its jar-with-dependencies with the data under {@code dir}, and creates {@link #BUCKET}. */
    public static S3Server start(Path jar, Path dir) throws Exception {
        Files.createDirectories(dir.resolve("data").resolve(BUCKET));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path conf = dir.resolve("s3proxy.conf");
        Files.writeString(conf, String.join("\n", "s3proxy.endpoint=http://127.0.0.1:" + port, "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY, "s3proxy.credential=" + SECRET_KEY, "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + dir.resolve("data").toAbsolutePath()) + "\n");
        // (the short runs' JVM options, as for the HDFS server)
        Process p = new ProcessBuilder(ShortRuns.java("-jar", jar.toString(), "--properties", conf.toString())).redirectErrorStream(true)
                .redirectOutput(dir.resolve("s3proxy.log").toFile()).start();
        S3Server s = new S3Server(p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("s3proxy ended: " + Files.readString(dir.resolve("s3proxy.log")));
            }
            try {
                s.list("");
                return s;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("s3proxy did not answer in 60 s");
    }

    /** http://127.0.0.1:PORT. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The s3a settings a user gives for this server (endpoint, path-style access, plain HTTP, a region for the SDK). */
    public List<String> s3aSettings() {
        return List.of("fs.s3a.endpoint=" + endpoint(), "fs.s3a.path.style.access=true", "fs.s3a.connection.ssl.enabled=false",
                "fs.s3a.endpoint.region=us-east-1");
    }

    /** Uploads a file as {@code key}. */
    public void put(String key, Path file) throws IOException, InterruptedException {
        byte[] body = Files.readAllBytes(file);
        String type = "application/octet-stream";
        HttpResponse<String> r = http.send(signed("PUT", "/" + BUCKET + "/" + key, "", type).header("Content-Type", type)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("PUT " + key + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** Every object under {@code prefix}: key -> size, as the bucket lists them. */
    public Map<String, Long> list(String prefix) throws IOException, InterruptedException {
        Map<String, Long> out = new TreeMap<>();
        listWithTimes(prefix).forEach((k, v) -> out.put(k, v[0]));
        return out;
    }

    /** Every object under {@code prefix}: key -> {size, last-modified time in ms}, as the bucket lists them. */
    public Map<String, long[]> listWithTimes(String prefix) throws IOException, InterruptedException {
        Map<String, long[]> out = new TreeMap<>();
        String marker = "";
        while (true) {
            String query = "prefix=" + enc(prefix) + (marker.isEmpty() ? "" : "&marker=" + enc(marker));
            HttpResponse<String> r = http.send(signed("GET", "/" + BUCKET + "/", query, "").GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("list " + prefix + ": " + r.statusCode() + " " + r.body());
            }
            Matcher m = Pattern.compile("<Contents>(.*?)</Contents>", Pattern.DOTALL).matcher(r.body());
            String last = null;
            while (m.find()) {
                String c = m.group(1);
                last = field(c, "Key").replace("&amp;", "&");
                out.put(last, new long[] {Long.parseLong(field(c, "Size")), Instant.parse(field(c, "LastModified")).toEpochMilli()});
            }
            if (!r.body().contains("<IsTruncated>true</IsTruncated>") || last == null) {
                return out;
            }
            marker = last;
        }
    }

    private static String field(String xml, String name) {
        Matcher m = Pattern.compile("<" + name + ">(.*?)</" + name + ">", Pattern.DOTALL).matcher(xml);
        return m.find() ? m.group(1) : "";
    }

    /** The text of an object, or null when there is none. */
    public String get(String key) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(signed("GET", "/" + BUCKET + "/" + key, "", "").GET().build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : null;
    }

    /** A request signed with AWS signature version 2: HMAC-SHA1 of verb, content type, date and resource. */
    private HttpRequest.Builder signed(String verb, String resource, String query, String contentType) {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
        String toSign = verb + "\n\n" + contentType + "\n" + date + "\n" + resource;
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(SECRET_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            String sig = Base64.getEncoder().encodeToString(mac.doFinal(toSign.getBytes(StandardCharsets.UTF_8)));
            return HttpRequest.newBuilder(URI.create(endpoint() + resource + (query.isEmpty() ? "" : "?" + query))).header("Date", date)
                    .header("Authorization", "AWS " + ACCESS_KEY + ":" + sig);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
