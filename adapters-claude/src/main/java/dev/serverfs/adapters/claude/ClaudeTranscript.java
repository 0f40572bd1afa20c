package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A Claude session's transcript ({@code projects/<cwd>/<session>.jsonl} in the configuration directory), put right
 * before a continuation resumes it. Claude restores session state from lines of the transcript, not only the
 * conversation: a {@code worktree-state} line made a continuation's working directory whatever directory it named
 * (Claude then read the login's copy there without asking), a {@code mode} line put it in coordinator mode (no Bash
 * any more), and any task can write those lines, the directory being the workdir's own and writable (probes P, Q).
 * So the transcript keeps only the lines whose {@code type} is one of {@link #KEPT}, what Claude 2.1.332 itself wrote
 * in the sessions ServerFS runs, less the attachments that are records of session state ({@link #RECORDS}: a planted
 * {@code prompt_snapshot} became a continuation's system prompt); every other line is removed.
 *
 * <p>Every task of the workdir can write the directory, so nothing there is followed through a symbolic link: {@code
 * projects/}, each directory in it and the transcript are opened relative to their directory and never followed
 * ({@link SecureDirectoryStream}), and the transcript is replaced atomically, by a new file created exclusively beside
 * it and renamed over it. A transcript that is missing, not a regular file or cannot be read is left as it is (the
 * resume then fails as without it). The transcript is looked for in every directory of {@code projects/}, not only the
 * one Claude names after the working directory (its name is the path with every character but ASCII letters and
 * digits replaced by {@code -}, and a hash Claude computes itself past 200 characters): a line in a session's
 * transcript elsewhere must not count either.
 */
final class ClaudeTranscript {
    /**
     * The line types Claude 2.1.332 wrote in the transcripts of sessions run with ServerFS' argv and environment (a
     * plain turn, an approved and a denied Bash, a Write and an Edit, a question, an interrupted turn, an API error,
     * and continuations of each): the conversation ({@code user}, {@code assistant}, {@code attachment}, {@code
     * system}) and its own bookkeeping. Not {@code mode}: Claude wrote {@code normal} there at each resume, which is
     * the mode a session without the line has.
     */
    static final Set<String> KEPT = Set.of(
            "user",
            "assistant",
            "attachment",
            "system",
            "queue-operation",
            "last-prompt",
            "cost-state",
            "atis-latch",
            "tools-used",
            "api-request",
            "api-request-blob",
            "api-request-shape");

    /**
     * The attachments Claude 2.1.332 itself treats as records rather than conversation that carry session state: it
     * writes a {@code prompt_snapshot} at every turn and restores the system prompt from it (a planted one became a
     * continuation's system prompt, probe Q), the others record the tools offered, the prompt's rendering and the
     * organisation the session belongs to. Removed; Claude makes them anew.
     */
    static final Set<String> RECORDS = Set.of(
            "prompt_snapshot", "prompt_render_point", "deferred_tools_record", "tool_offer_record", "credential_org");

    private static final Pattern SESSION = Pattern.compile("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClaudeTranscript() {}

    /**
     * Removes from session {@code sessionId}'s transcript in {@code configurationDirectory} every line Claude did not
     * write itself (see {@link #KEPT}). A session id that is not a UUID names no file: nothing happens. A transcript
     * that needs a rewrite that fails → {@code AGENT_SESSION_NOT_RESUMABLE}.
     */
    static void clean(Path configurationDirectory, String sessionId) {
        if (!SESSION.matcher(sessionId).matches()) {
            return;
        }
        Path name = Path.of(sessionId + ".jsonl");
        try (DirectoryStream<Path> home = Files.newDirectoryStream(configurationDirectory)) {
            if (!(home instanceof SecureDirectoryStream<Path> secureHome)) {
                return; // no *at system calls here: nothing is read that could be a link
            }
            if (!isDirectory(secureHome, Path.of("projects"))) {
                return;
            }
            try (SecureDirectoryStream<Path> projects =
                    secureHome.newDirectoryStream(Path.of("projects"), LinkOption.NOFOLLOW_LINKS)) {
                for (Path entry : directories(projects)) {
                    try (SecureDirectoryStream<Path> project =
                            projects.newDirectoryStream(entry, LinkOption.NOFOLLOW_LINKS)) {
                        clean(project, name);
                    } catch (IOException e) {
                        // swapped for a link or gone meanwhile: nothing of it is read
                    }
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            // no projects/ (no session yet) or not a directory: the resume fails as without it
        }
    }

    /** The names in {@code dir} that are directories, not links to one. */
    private static List<Path> directories(SecureDirectoryStream<Path> dir) {
        List<Path> names = new ArrayList<>();
        for (Path p : dir) {
            Path entry = p.getFileName();
            if (isDirectory(dir, entry)) {
                names.add(entry);
            }
        }
        return names;
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

    /** The transcript {@code name} in {@code dir}, its foreign lines removed; left alone when it is not a file. */
    private static void clean(SecureDirectoryStream<Path> dir, Path name) {
        if (!attributes(dir, name).map(BasicFileAttributes::isRegularFile).orElse(false)) {
            return;
        }
        Path temporary = Path.of("." + name + "." + UUID.randomUUID() + ".tmp");
        boolean removed;
        try (SeekableByteChannel in =
                dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            removed = copy(in, dir, temporary);
        } catch (IOException e) {
            return; // swapped for a link or gone meanwhile: left as it is
        }
        try {
            if (removed) {
                dir.move(temporary, dir, name);
            } else {
                dir.deleteFile(temporary);
            }
        } catch (IOException e) {
            delete(dir, temporary);
            throw notResumable();
        }
    }

    /** What {@link #filter} keeps of {@code in}, into {@code temporary} (made now); whether any line was left out. */
    private static boolean copy(SeekableByteChannel in, SecureDirectoryStream<Path> dir, Path temporary) {
        try (SeekableByteChannel out = dir.newByteChannel(
                        temporary,
                        Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                OutputStream written = new BufferedOutputStream(Channels.newOutputStream(out))) {
            return filter(new BufferedInputStream(Channels.newInputStream(in)), written);
        } catch (IOException e) {
            delete(dir, temporary);
            throw notResumable();
        }
    }

    /** Copies the lines of {@code in} Claude wrote to {@code out}; whether any was left out. */
    static boolean filter(InputStream in, OutputStream out) throws IOException {
        boolean removed = false;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); ; b = in.read()) {
            if (b != -1) {
                line.write(b);
            }
            if (b == '\n' || (b == -1 && line.size() > 0)) {
                if (kept(line.toByteArray())) {
                    line.writeTo(out);
                } else {
                    removed = true;
                }
                line.reset();
            }
            if (b == -1) {
                out.flush();
                return removed;
            }
        }
    }

    /** A JSON object whose {@code type} is one of {@link #KEPT}, and no attachment of the {@link #RECORDS}. */
    static boolean kept(byte[] line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node != null
                    && node.isObject()
                    && KEPT.contains(node.path("type").asText(""))
                    && !RECORDS.contains(node.path("attachment").path("type").asText(""));
        } catch (IOException e) {
            return false;
        }
    }

    private static void delete(SecureDirectoryStream<Path> dir, Path name) {
        try {
            dir.deleteFile(name);
        } catch (IOException e) {
            // never made, or gone
        }
    }

    private static ServerFsException notResumable() {
        return new ServerFsException(
                ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "the Claude session could not be prepared for resuming");
    }
}
