package org.privacybounds.jobs.common;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The lock of one --out folder, held from the first check to the commit: a file {@code .DIR.lock} beside the folder with an
 * operating-system lock on it (released by the OS when the process dies, so a killed run never blocks the next one) and,
 * as its content, who holds it. A second run into the same folder exits 2 at once, naming the holder.
 */
final class RunLock implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    static RunLock take(Path target) {
        Path file = target.resolveSibling("." + target.getFileName() + ".lock");
        FileChannel ch = null;
        try {
            Files.createDirectories(file.getParent());
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
                ch.close();
                throw new UserInputException("--out", target, "is in use by another run (" + (holder.isEmpty() ? "unknown process" : holder)
                        + "); wait for it to finish or choose another folder");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(("process " + ManagementFactory.getRuntimeMXBean().getName() + ", since " + Instant.now()).getBytes(StandardCharsets.UTF_8)));
            ch.force(false);
            return new RunLock(file, ch, l);
        } catch (IOException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // nothing more to release
            }
            throw new UserInputException("--out", target, "cannot take the folder's lock (" + e.getMessage() + ")");
        }
    }

    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the OS releases the lock with the process anyway
        }
    }
}
