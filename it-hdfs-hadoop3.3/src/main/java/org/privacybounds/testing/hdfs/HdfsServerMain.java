package org.privacybounds.testing.hdfs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS for privacy-bounds' integration tests: Hadoop's MiniDFSCluster (one namenode, one datanode) on 127.0.0.1 with
 * its data under args[0]. Prints its URL {@code hdfs://127.0.0.1:PORT} first, then serves commands from stdin, one a line:
 * {@code put LOCAL PATH} uploads a file, {@code list PATH} answers every file under PATH as
 * {@code file path size modificationTime} lines, {@code read PATH} a file's bytes as {@code data BASE64}; every answer ends
 * with {@code end}, a failure is one {@code error ...} line before it. Closing stdin stops it.
 */
public final class HdfsServerMain {
    /** The protocol's channel: the process's stdout. */
    private static PrintWriter PRO;

    private HdfsServerMain() {
    }

    /** Any failure ends the JVM (a half-started cluster's threads would keep it). */
    public static void main(String[] args) {
        // stdout carries the protocol: Hadoop's console logging goes to stderr instead
        PRO = new PrintWriter(new OutputStreamWriter(new java.io.FileOutputStream(java.io.FileDescriptor.out), StandardCharsets.UTF_8), true);
        System.setOut(System.err);
        try {
            serve(args);
        } catch (Throwable t) {
            t.printStackTrace();
            PRO.println("error " + String.valueOf(t).replaceAll("\\s+", " "));
            Runtime.getRuntime().halt(1);
        }
        Runtime.getRuntime().halt(0);
    }

    private static void serve(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Path.of(args[0]).toAbsolutePath().toString());
        for (String k : new String[] {"dfs.namenode.rpc-address", "dfs.namenode.http-address", "dfs.datanode.address", "dfs.datanode.http.address",
            "dfs.datanode.ipc.address"}) {
            conf.set(k, "127.0.0.1:0");
        }
        conf.setBoolean("dfs.permissions.enabled", false);
        // no WebHDFS: the tests speak RPC, and its JAX-RS classes are not Spark 4's
        conf.setBoolean("dfs.webhdfs.enabled", false);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).format(true).build();
        cluster.waitActive();
        FileSystem fs = cluster.getFileSystem();
        String url = "hdfs://127.0.0.1:" + cluster.getNameNodePort();
        PrintWriter o = PRO;
        o.println(url);
        o.flush();
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            String[] c = line.split(" ", 3);
            try {
                if (c[0].equals("put")) {
                    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(c[1]), new org.apache.hadoop.fs.Path(c[2]));
                } else if (c[0].equals("read")) {
                    org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path(c[1]);
                    if (fs.exists(f)) {
                        try (java.io.InputStream is = fs.open(f)) {
                            o.println("data " + java.util.Base64.getEncoder().encodeToString(is.readAllBytes()));
                        }
                    }
                } else if (c[0].equals("list")) {
                    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(c[1]);
                    if (fs.exists(base)) {
                        String prefix = fs.getFileStatus(base).getPath().toUri().getPath() + "/";
                        RemoteIterator<LocatedFileStatus> it = fs.listFiles(base, true);
                        List<String> lines = new ArrayList<>();
                        while (it.hasNext()) {
                            FileStatus st = it.next();
                            lines.add("file " + st.getPath().toUri().getPath().substring(prefix.length()) + " " + st.getLen() + " " + st.getModificationTime());
                        }
                        lines.forEach(o::println);
                    }
                }
            } catch (IOException | RuntimeException e) {
                o.println("error " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
            }
            o.println("end");
        }
        cluster.shutdown(true);
    }
}
