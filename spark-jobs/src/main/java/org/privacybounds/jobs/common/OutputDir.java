package org.privacybounds.jobs.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * An output folder written atomically: everything goes to a hidden sibling folder, which is
 * renamed to the requested name only when the command succeeded, with {@code _SUCCESS} written
 * last. A failed run leaves the requested folder untouched (and removes its temporary folder).
 */
public final class OutputDir implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final boolean overwrite;
    private boolean committed;

    private OutputDir(Path target, boolean overwrite) {
        this.target = target.toAbsolutePath().normalize();
        this.overwrite = overwrite;
        this.temp = this.target.resolveSibling("." + this.target.getFileName() + ".tmp-" + UUID.randomUUID());
    }

    /** Checks the target before any work is done, so bad input fails fast. */
    public static OutputDir open(Path target, boolean overwrite) {
        OutputDir d = new OutputDir(target, overwrite);
        if (Files.exists(d.target) && !overwrite) {
            throw new UserInputException("--out", target, "already exists; choose a new folder or add --overwrite");
        }
        Path parent = d.target.getParent();
        try {
            Files.createDirectories(parent);
            Files.createDirectories(d.temp);
        } catch (IOException e) {
            throw new UserInputException("--out", target, "cannot create the folder (" + e.getMessage() + ")");
        }
        return d;
    }

    /** Where to write a file or a sub-folder of the result. */
    public Path resolve(String name) {
        return temp.resolve(name);
    }

    public void writeString(String name, String content) {
        try {
            Files.writeString(resolve(name), content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code _SUCCESS} and renames the temporary folder to the target. */
    public Path commit() {
        try {
            Files.writeString(temp.resolve("_SUCCESS"), "");
            Path old = null;
            if (Files.exists(target)) {
                old = target.resolveSibling("." + target.getFileName() + ".old-" + UUID.randomUUID());
                Files.move(target, old);
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target);
            }
            if (old != null) {
                deleteTree(old);
            }
            committed = true;
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (!committed) {
            deleteTree(temp);
        }
    }

    /** Deletes a folder and everything in it (nothing if it does not exist). */
    public static void deleteTree(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(q -> {
                try {
                    Files.deleteIfExists(q);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether an existing folder may be replaced (--overwrite). */
    public boolean overwrite() {
        return overwrite;
    }
}
