package org.privacybounds.testing;

import java.io.File;
import java.net.URI;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A Hadoop FileSystem for the made-up scheme {@code pbtest://}, so that tests run the non-local output and input paths
 * (Hadoop's FileSystem, its rename and listing) without a cloud account: {@code pbtest://bucket/a/b} is the local file
 * {@code ROOT/bucket/a/b}, ROOT being the system property {@code pbtest.root}. Registered through
 * {@code spark.hadoop.fs.pbtest.impl}, as a user registers a connector.
 */
public class MadeUpSchemeFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "pbtest";

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public File pathToFile(Path path) {
        checkPath(path);
        URI u = path.toUri();
        String bucket = u.getAuthority() == null ? "" : u.getAuthority();
        return new File(new File(System.getProperty("pbtest.root"), bucket), u.getPath());
    }

    @Override
    protected void checkPath(Path path) {
        String s = path.toUri().getScheme();
        if (s != null && !s.equals(SCHEME)) {
            throw new IllegalArgumentException("Wrong FS: " + path + ", expected: " + SCHEME + "://");
        }
    }

    @Override
    public Path getWorkingDirectory() {
        return new Path(SCHEME + ":///");
    }

    @Override
    public Path getHomeDirectory() {
        return new Path(SCHEME + ":///");
    }

    @Override
    protected Path getInitialWorkingDirectory() {
        return new Path(SCHEME + ":///");
    }
}
