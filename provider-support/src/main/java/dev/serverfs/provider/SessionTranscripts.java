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
import java.nio.file.NoSuchFileException;
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
 * looked for is left alone, and so is a name swapped for a link meanwhile ({@link #putRight} removes a link instead,
 * and looks at every depth, for a provider that finds a transcript wherever it lies). So is, where the caller says so,
 * a transcript a process holds open: a provider child running beside the one about to start still writes it, and would go on
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
        walkTop(home, directory, new Scope(depth, false, file, name -> false, leftWhileHeld, edit));
    }

    /**
     * Puts right everything of {@code home}'s {@code directory} a provider could resume from, at every depth down to
     * {@code depth} directories beneath it (0: in it alone), where the provider finds a transcript by its name wherever
     * it lies (Codex 0.171, probe U): rewrites through {@code edit}, as {@link #rewrite} does, every regular file whose
     * name {@code file} accepts; removes every file whose name {@code removed} accepts (one the provider reads but that
     * cannot be rewritten) and every symbolic link, {@code directory} itself too, which the provider would follow and
     * this walk does not (only the link goes, never what it names). A directory deeper than {@code depth} is not
     * looked into: it fails, as a transcript that cannot be replaced does, since the provider would look into it.
     *
     * @throws IOException when a transcript that changed cannot be replaced, a name cannot be removed, or a directory
     *     lies deeper than {@code depth}
     */
    public static void putRight(
            Path home,
            String directory,
            int depth,
            Predicate<String> file,
            Predicate<String> removed,
            Predicate<String> leftWhileHeld,
            Function<String, Optional<String>> edit)
            throws IOException {
        walkTop(home, directory, new Scope(depth, true, file, removed, leftWhileHeld, edit));
    }

    /** What a walk looks at and does: at {@code depth} alone or ({@code everyDepth}) down to it, and with what. */
    private record Scope(
            int depth,
            boolean everyDepth,
            Predicate<String> file,
            Predicate<String> removed,
            Predicate<String> leftWhileHeld,
            Function<String, Optional<String>> edit) {
        Scope deeper() {
            return new Scope(depth - 1, everyDepth, file, removed, leftWhileHeld, edit);
        }
    }

    private static void walkTop(Path home, String directory, Scope scope) throws IOException {
        try (DirectoryStream<Path> top = Files.newDirectoryStream(home)) {
            if (!(top instanceof SecureDirectoryStream<Path> secure)) {
                return; // without *at system calls nothing is read that could be a link
            }
            if (scope.everyDepth()
                    && attributes(secure, Path.of(directory))
                            .map(BasicFileAttributes::isSymbolicLink)
                            .orElse(false)) {
                remove(secure, Path.of(directory));
                return;
            }
            if (!isDirectory(secure, Path.of(directory))) {
                return;
            }
            try (SecureDirectoryStream<Path> dir =
                    secure.newDirectoryStream(Path.of(directory), LinkOption.NOFOLLOW_LINKS)) {
                walk(dir, scope, new HeldOpen());
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

    private static void walk(SecureDirectoryStream<Path> dir, Scope scope, HeldOpen held) throws IOException {
        List<Path> names = new ArrayList<>();
        dir.forEach(p -> names.add(p.getFileName()));
        for (Path name : names) {
            Optional<BasicFileAttributes> attributes = attributes(dir, name);
            boolean directory = attributes.map(BasicFileAttributes::isDirectory).orElse(false);
            if (scope.everyDepth()
                    && (attributes.map(BasicFileAttributes::isSymbolicLink).orElse(false)
                            || (!directory && scope.removed().test(name.toString())))) {
                remove(dir, name);
            } else if (directory && scope.depth() > 0) {
                try (SecureDirectoryStream<Path> sub = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
                    walk(sub, scope.deeper(), held);
                } catch (NotReplaced e) {
                    throw e;
                } catch (IOException e) {
                    // swapped for a link or gone meanwhile: nothing of it is read
                }
            } else if (directory && scope.everyDepth()) {
                throw new NotReplaced(new IOException("a directory lies deeper than transcripts are looked for"));
            } else if ((scope.depth() == 0 || scope.everyDepth())
                    && attributes.map(BasicFileAttributes::isRegularFile).orElse(false)
                    && scope.file().test(name.toString())) {
                Optional<Object> heldKey = scope.leftWhileHeld().test(name.toString())
                        ? Optional.ofNullable(attributes.get().fileKey())
                        : Optional.empty();
                rewriteFile(dir, name, heldKey, scope.edit(), held);
            }
        }
    }

    private static void remove(SecureDirectoryStream<Path> dir, Path name) throws NotReplaced {
        try {
            dir.deleteFile(name);
        } catch (NoSuchFileException e) {
            // gone meanwhile
        } catch (IOException e) {
            throw new NotReplaced(e);
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
