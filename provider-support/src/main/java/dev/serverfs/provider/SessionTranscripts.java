package dev.serverfs.provider;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A provider's session transcripts (JSON lines) in a workdir's own configuration directory, put right before a
 * provider child starts (Claude: a continuation's own; Codex: every one, which any task can resume): Claude and Codex
 * restore session state from them, not only the conversation, and every task of the workdir can write there (probes
 * Q, R, S). So nothing there is followed through a symbolic link: each
 * directory on the way and the transcript are opened relative to their directory without following one ({@link
 * SecureDirectoryStream}), and a transcript is replaced atomically, by a new owner-only file created exclusively beside
 * it and renamed over it, only when a line changed. What is not a directory, or not a regular file, where one is
 * looked for is left alone, and so is a name swapped for a link meanwhile. So is, where the caller says so, a transcript
 * a process holds open: a provider child running beside the one about to start still writes it, and would go on
 * writing to the replaced file, its records lost (probe S2); a later start puts it right once that child has ended.
 */
public final class SessionTranscripts {

    private SessionTranscripts() {}

    /**
     * Rewrites through {@code edit} every regular file {@code depth} directories beneath {@code home}'s {@code
     * directory} (0: in it) whose name {@code file} accepts. {@code edit} gets each line without its newline (decoded
     * as UTF-8, malformed bytes replaced) and returns the line to write, the same string to keep it as it was (byte for
     * byte), or nothing to leave it out. A file whose name {@code leftWhileHeld} accepts is left as it is while a
     * process holds it open. {@code home} is the caller's own; nothing happens when {@code directory} is not a
     * directory in it.
     *
     * @throws IOException when a transcript that changed cannot be replaced
     */
    public static void rewrite(
            Path home,
            String directory,
            int depth,
            Predicate<String> file,
            Predicate<String> leftWhileHeld,
            Function<String, Optional<String>> edit)
            throws IOException {
        try (DirectoryStream<Path> top = Files.newDirectoryStream(home)) {
            if (!(top instanceof SecureDirectoryStream<Path> secure) || !isDirectory(secure, Path.of(directory))) {
                return; // without *at system calls nothing is read that could be a link
            }
            try (SecureDirectoryStream<Path> dir =
                    secure.newDirectoryStream(Path.of(directory), LinkOption.NOFOLLOW_LINKS)) {
                walk(dir, depth, file, leftWhileHeld, edit, new HeldOpen());
            }
        } catch (DirectoryIteratorException e) {
            // gone meanwhile: nothing to put right
        } catch (IOException e) {
            if (e instanceof NotReplaced) {
                throw e;
            }
            // not a directory (any more): nothing is read there
        }
    }

    private static void walk(
            SecureDirectoryStream<Path> dir,
            int depth,
            Predicate<String> file,
            Predicate<String> leftWhileHeld,
            Function<String, Optional<String>> edit,
            HeldOpen held)
            throws IOException {
        List<Path> names = new ArrayList<>();
        dir.forEach(p -> names.add(p.getFileName()));
        for (Path name : names) {
            Optional<BasicFileAttributes> attributes = attributes(dir, name);
            if (depth > 0 && attributes.map(BasicFileAttributes::isDirectory).orElse(false)) {
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    walk(sub, depth - 1, file, leftWhileHeld, edit, held);
                } catch (NotReplaced e) {
                    throw e;
                } catch (IOException e) {
                    // swapped for a link or gone meanwhile: nothing of it is read
                }
            } else if (depth == 0
                    && attributes.map(BasicFileAttributes::isRegularFile).orElse(false)
                    && file.test(name.toString())) {
                Optional<Object> heldKey = leftWhileHeld.test(name.toString())
                        ? Optional.ofNullable(attributes.get().fileKey())
                        : Optional.empty();
                rewriteFile(dir, name, heldKey, edit, held);
            }
        }
    }

    private static void rewriteFile(
            SecureDirectoryStream<Path> dir,
            Path name,
            Optional<Object> leftWhileHeld,
            Function<String, Optional<String>> edit,
            HeldOpen held)
            throws NotReplaced {
        try (SeekableByteChannel in =
                dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            if (!edit(Channels.newInputStream(in), OutputStream.nullOutputStream(), edit)
                    || leftWhileHeld.filter(held::contains).isPresent()) {
                return; // as it should be, or still being written
            }
            in.position(0);
            Path temporary = Path.of("." + name + "." + UUID.randomUUID() + ".tmp");
            copy(in, dir, temporary, edit);
            try {
                dir.move(temporary, dir, name);
            } catch (IOException e) {
                delete(dir, temporary);
                throw new NotReplaced(e);
            }
        } catch (NotReplaced e) {
            throw e;
        } catch (IOException e) {
            // swapped for a link or gone meanwhile: left as it is
        }
    }

    private static void copy(
            SeekableByteChannel in,
            SecureDirectoryStream<Path> dir,
            Path temporary,
            Function<String, Optional<String>> edit)
            throws NotReplaced {
        try (SeekableByteChannel out = dir.newByteChannel(
                        temporary,
                        Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                OutputStream written = new BufferedOutputStream(Channels.newOutputStream(out))) {
            edit(Channels.newInputStream(in), written, edit);
        } catch (IOException e) {
            delete(dir, temporary);
            throw new NotReplaced(e);
        }
    }

    /** Copies the lines of {@code in} to {@code out} through {@code edit}; whether any changed or was left out. */
    static boolean edit(InputStream in, OutputStream out, Function<String, Optional<String>> edit) throws IOException {
        boolean changed = false;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] chunk = new byte[64 * 1024];
        for (int n = in.read(chunk); n != -1; n = in.read(chunk)) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    line.write(chunk, start, i - start);
                    changed |= editLine(line, true, out, edit);
                    start = i + 1;
                }
            }
            line.write(chunk, start, n - start);
        }
        if (line.size() > 0) {
            changed |= editLine(line, false, out, edit);
        }
        out.flush();
        return changed;
    }

    /** Writes {@code line} (emptied after) through {@code edit}; whether it changed or was left out. */
    private static boolean editLine(
            ByteArrayOutputStream line, boolean ended, OutputStream out, Function<String, Optional<String>> edit)
            throws IOException {
        String text = line.toString(StandardCharsets.UTF_8);
        Optional<String> kept = edit.apply(text);
        boolean same = kept.isPresent() && kept.get() == text;
        if (same) {
            line.writeTo(out);
            if (ended) {
                out.write('\n');
            }
        } else if (kept.isPresent()) {
            out.write(kept.get().getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        line.reset();
        return !same;
    }

    private static boolean isDirectory(SecureDirectoryStream<Path> dir, Path name) {
        return attributes(dir, name).map(BasicFileAttributes::isDirectory).orElse(false);
    }

    private static Optional<BasicFileAttributes> attributes(SecureDirectoryStream<Path> dir, Path name) {
        try {
            return Optional.of(dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void delete(SecureDirectoryStream<Path> dir, Path name) {
        try {
            dir.deleteFile(name);
        } catch (IOException e) {
            // never made, or gone
        }
    }

    /**
     * The files some process holds open, by device and inode ({@link BasicFileAttributes#fileKey}), read from every
     * {@code /proc/PID/fd} this user may read (the provider children are this user's) but this process's own, which
     * reads the transcripts, the first time one is asked for.
     */
    private static final class HeldOpen {
        private static final String SELF = Long.toString(ProcessHandle.current().pid());
        private Set<Object> keys;

        boolean contains(Object fileKey) {
            if (keys == null) {
                keys = new HashSet<>();
                forEach(Path.of("/proc"), process -> {
                    String pid = process.getFileName().toString();
                    if (pid.chars().allMatch(Character::isDigit) && !pid.equals(SELF)) {
                        forEach(process.resolve("fd"), fd -> {
                            try {
                                Object key = Files.readAttributes(fd, BasicFileAttributes.class)
                                        .fileKey();
                                if (key != null) {
                                    keys.add(key);
                                }
                            } catch (IOException e) {
                                // closed meanwhile
                            }
                        });
                    }
                });
            }
            return keys.contains(fileKey);
        }

        private static void forEach(Path directory, Consumer<Path> action) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
                entries.forEach(action);
            } catch (IOException | DirectoryIteratorException e) {
                // another user's process, or gone
            }
        }
    }

    /** A transcript that changed could not be replaced: the continuation cannot be prepared. */
    private static final class NotReplaced extends IOException {
        NotReplaced(IOException cause) {
            super("a session transcript could not be replaced", cause);
        }
    }
}
