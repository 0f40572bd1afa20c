package dev.serverfs.provider;

import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The filesystem view of a provider child (issue 25), built with bubblewrap ({@code bwrap}): a fresh mount, pid, IPC,
 * UTS and network namespace in a user namespace of its own, in which the child and everything it runs sees
 *
 * <ul>
 *   <li>the system's programs and configuration read-only ({@code /usr}, {@code /etc} and the merged-usr links),
 *       with {@code /etc/shadow} and {@code /etc/gshadow} concealed, and when root serves everything in {@code /etc}
 *       that only root could read;
 *   <li>an empty {@code /tmp} and an empty home (the {@code HOME} path, so tools find it where they expect), in
 *       which the provider's configuration directory is the workdir's own ({@link Grants}): kept beneath the state
 *       directory per workdir, so what a task of one workdir saw (transcripts, history) never reaches a task of
 *       another; a copy of the operator's login taken as the child starts is shown in it read-only, its refresh
 *       token blanked ({@link ProviderLogin}), the operator's settings read-only;
 *   <li>the provider's installation and the operator's extra paths read-only;
 *   <li>its workdir at its real path, writable only for {@code workspace-write}, with the deny-listed entries of
 *       {@link ProviderView#concealed} hidden (an empty read-only directory, an empty file), and those whose name is
 *       not valid UTF-8;
 *   <li>nothing of ServerFS: the state, lock and socket directories, the environment file and the other workdirs
 *       are concealed wherever they would show through one of the paths above, by name; inside the workdir also
 *       wherever a task moved them, which the submit found by identity ({@link ProviderView#concealed}).
 * </ul>
 *
 * <p>Why bubblewrap: it is the maintained tool made for exactly this (unprivileged namespaces, one process per
 * sandbox, {@code --die-with-parent}), the one Codex itself uses on Linux, and it nests (Codex's own sandbox and the
 * offline shell of {@link #offlineShell} run inside it). Landlock could narrow reads but cannot hide a name inside
 * an allowed tree, give a private home or a private {@code /tmp}. The network namespace has loopback only: the
 * provider reaches its model endpoint through the {@link EgressRelay} on the host, which admits what its {@link
 * EgressPolicy} allows and never ServerFS' own listeners, by way of the {@link EgressForwarder} that runs first in
 * the view (the proxy variables point at it); whatever the provider process starts gets no more. Its commands are
 * kept offline by the provider's own sandbox (Codex) or by {@link #offlineShell} (Claude), which hides the relay's
 * socket too.
 *
 * <p>Where the view cannot be built (no bubblewrap, no user namespaces), {@link #unavailableReason} says so and the
 * runtime is unavailable, unless the operator opted out ({@link #unconfined}): no silent fallback.
 */
public final class ProviderSandbox {
    /** The merged-usr names: a link into {@code /usr} on current distributions, a directory on older ones. */
    private static final List<String> SYSTEM_LINKS = List.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");
    /** Read by nobody but root (and its group): concealed all the same; when root serves, see {@link #concealRootOnly}. */
    private static final List<String> SYSTEM_SECRETS = List.of("/etc/shadow", "/etc/gshadow", "/etc/sudoers");
    /** The system's configuration, shown read-only to every child. */
    private static final Path SYSTEM_CONFIGURATION = Path.of("/etc");
    /** Where the offline shell appears in the view. */
    private static final Path OFFLINE_SHELL = Path.of("/run/serverfs/offline-shell");
    /** Where the egress relay's socket directory appears in the view (hidden again from the offline shell). */
    private static final Path EGRESS_DIR = Path.of("/run/serverfs/egress");
    /** The relay's socket, in its directory. */
    private static final String EGRESS_SOCKET = "egress.sock";
    /** The loopback port in the view's own network namespace where {@link EgressForwarder} listens. */
    static final int EGRESS_PORT = 3128;
    /** The variables the providers read their proxy from (Codex's reqwest and Claude Code read both cases). */
    static final List<String> PROXY_VARIABLES =
            List.of("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy");
    /** Set to nothing in the child: no target bypasses the relay. */
    static final List<String> NO_PROXY_VARIABLES = List.of("NO_PROXY", "no_proxy");
    /**
     * The forwarder is a small JVM; it needs little. Its stdout is the provider's (Codex's protocol stream): whatever
     * the JVM has to say goes to stderr.
     */
    private static final List<String> FORWARDER_JVM_OPTIONS = List.of(
            "-XX:+UseSerialGC",
            "-Xmx32m",
            "-XX:TieredStopAtLevel=1",
            "-XX:-UsePerfData",
            "-Xshare:auto",
            "-Xlog:disable",
            "-Xlog:all=warning:stderr");
    /** The uid and gid a root server's child runs as inside its user namespace (root there would have no caps). */
    private static final String UNPRIVILEGED_ID = "65534";

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    private static final FileAttribute<?> OWNER_ONLY_DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    private static final FileAttribute<?> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private final boolean unconfined;
    private final Optional<Path> bwrap;
    private final List<Path> readOnly;
    private final List<Path> serverPaths;
    private final Optional<Path> homes;
    private final boolean root;
    private final EgressPolicy egress;
    /** How {@link ProcessBuilder} spells a child's argv, so the workdir's path in the view: {@code sun.jnu.encoding}. */
    private final Charset argvCharset;
    /** The egress relays, by workdir (a few: one per workdir a task ran in). */
    private final Map<Path, EgressRelay> relays = new HashMap<>();

    private volatile Path offlineShellScript;
    private volatile Path argumentsDir;
    private volatile boolean probed;

    private ProviderSandbox(
            boolean unconfined,
            Optional<Path> bwrap,
            List<Path> readOnly,
            List<Path> serverPaths,
            Optional<Path> homes,
            EgressPolicy egress,
            Charset argvCharset) {
        this.unconfined = unconfined;
        this.egress = Objects.requireNonNull(egress, "egress");
        this.argvCharset = Objects.requireNonNull(argvCharset, "argvCharset");
        this.bwrap = bwrap;
        this.readOnly = List.copyOf(readOnly);
        this.serverPaths = List.copyOf(serverPaths);
        this.homes = homes;
        this.root = isRootUid();
    }

    /**
     * Confined children: {@code bwrap} is the bubblewrap executable (a name is looked up on {@code path}, the
     * server's {@code PATH}); {@code readOnly} are the operator's extra read-only paths (language toolchains outside
     * {@code /usr}); {@code serverPaths} are ServerFS' own files and directories and every workdir root, concealed
     * wherever they would show through; {@code homes} is the directory (in the state directory) that holds each
     * workdir's provider configuration, created owner-only when first needed. The view's network admits nothing
     * ({@link EgressPolicy#none}); this JVM spells a child's argv in UTF-8 (as under a UTF-8 locale).
     */
    public static ProviderSandbox confined(
            String bwrap, String path, List<Path> readOnly, List<Path> serverPaths, Path homes) {
        return confined(bwrap, path, readOnly, serverPaths, homes, EgressPolicy.none(), StandardCharsets.UTF_8);
    }

    /**
     * {@link #confined(String, String, List, List, Path)} whose children reach, through the {@link EgressRelay}, what
     * {@code egress} admits and nothing else: the view has a network namespace of its own. {@code argvCharset} is how
     * {@link ProcessBuilder} spells a child's argv, this JVM's {@code sun.jnu.encoding}: the concealed entries, which
     * reach bubblewrap as bytes, must name the workdir as the argv does.
     */
    public static ProviderSandbox confined(
            String bwrap,
            String path,
            List<Path> readOnly,
            List<Path> serverPaths,
            Path homes,
            EgressPolicy egress,
            Charset argvCharset) {
        return new ProviderSandbox(
                false, executable(bwrap, path), readOnly, serverPaths, Optional.of(homes), egress, argvCharset);
    }

    /** The operator's opt-out ({@code SERVERFS_AGENT_ALLOW_UNCONFINED=true}): children see what the server sees. */
    public static ProviderSandbox unconfined() {
        return new ProviderSandbox(
                true,
                Optional.empty(),
                List.of(),
                List.of(),
                Optional.empty(),
                EgressPolicy.none(),
                StandardCharsets.UTF_8);
    }

    /**
     * Why confined children cannot start here, in words for an operator (no host path); empty when they can (or when
     * the operator opted out). The first success is remembered; a failure is probed again next time.
     */
    public Optional<String> unavailableReason() {
        if (unconfined || probed) {
            return Optional.empty();
        }
        if (bwrap.isEmpty()) {
            return Optional.of("bubblewrap (bwrap) is not installed, so the provider's filesystem view cannot be built;"
                    + " install bubblewrap or set SERVERFS_AGENT_ALLOW_UNCONFINED=true");
        }
        List<String> argv = new ArrayList<>(namespaces());
        system(argv);
        List<String> check = new ArrayList<>(argv);
        argv.addAll(List.of("--", "/usr/bin/true"));
        if (!exitsCleanly(argv)) {
            return Optional.of("bubblewrap cannot build the provider's filesystem view here (are unprivileged user"
                    + " namespaces disabled, or is this a container without them?); set"
                    + " SERVERFS_AGENT_ALLOW_UNCONFINED=true to run providers without it");
        }
        // The check every child runs before its provider (verified), on a directory the view shows as it is.
        Path usr = Path.of("/usr");
        check.addAll(List.of("--chdir", usr.toString(), "--"));
        check.addAll(verified(usr, identity(usr) + "\n" + identity(usr)));
        check.add("/usr/bin/true");
        if (!exitsCleanly(check)) {
            return Optional.of("the provider's filesystem view cannot check which directory it shows: it needs"
                    + " /bin/sh and /usr/bin/stat (coreutils); install them or set"
                    + " SERVERFS_AGENT_ALLOW_UNCONFINED=true to run providers without it");
        }
        probed = true;
        return Optional.empty();
    }

    /**
     * {@code command} run inside the view: the same environment (less {@code TMPDIR}, plus the offline shell's
     * variable), started in the same held directory, which the view shows beneath its workdir's root. Unconfined:
     * {@code command} as it is. A working directory outside the view's held root → {@code AGENT_PROVIDER_ERROR}.
     *
     * <p>The workdir shown is the held root ({@link ProviderView#heldRoot}), never the root by name, which a task of
     * an outer workdir may have swapped for a symlink (to {@code /}, say) since the submit. bubblewrap can only bind
     * by name (it resolves even {@code --bind-fd} to a name, and cannot resolve this process's descriptors from
     * its user namespace), so it binds the held root's current name, and the child, before {@code command}, checks
     * that the directory shown and the one it starts in are the held ones ({@link #verified}): a name swapped in
     * the meantime makes it exit with {@link #VIEW_MISMATCH} instead.
     *
     * <p>The view's concealed entries ({@link ProviderView#concealed}) reach bubblewrap as bytes, not in the argv
     * ({@link Descriptors}): a name that is not valid UTF-8 is concealed as exactly that name. So does the login's
     * copy ({@link Grants#login}), which never touches a file the view shows. A command that conceals entries or shows
     * a login starts once: the files it reads them from are removed as it starts.
     */
    public ProviderCommand wrap(ProviderCommand command, ProviderView view, Grants grants) {
        if (unconfined) {
            return command;
        }
        Map<String, String> environment = new LinkedHashMap<>(command.environment());
        environment.remove("TMPDIR");
        Path workdir = view.root();
        Path heldRoot = real(view.heldRoot());
        Path heldCwd = real(command.workingDirectory());
        if (!heldCwd.startsWith(heldRoot)) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the task's directory left its workdir");
        }
        Path cwd = workdir.resolve(heldRoot.relativize(heldCwd));
        String identities = identity(view.heldRoot()) + "\n" + identity(command.workingDirectory());
        List<String> argv = new ArrayList<>(namespaces());
        List<Path> visible = new ArrayList<>(system(argv));
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run"));
        // DNS, where resolv.conf points into /run
        argv.addAll(List.of("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve"));
        Optional<Path> home = Optional.ofNullable(environment.get("HOME"))
                .map(Path::of)
                .filter(Path::isAbsolute)
                .filter(h -> h.getNameCount() > 0);
        home.ifPresent(h -> argv.addAll(List.of("--tmpfs", h.toString())));
        for (Path p : concat(grants.readOnly(), readOnly)) {
            if (Files.exists(p)) {
                Path real = real(p);
                argv.addAll(List.of("--ro-bind", real.toString(), real.toString()));
                visible.add(real);
            }
        }
        grants.offlineShell().ifPresent(variable -> {
            argv.addAll(List.of("--ro-bind", offlineShell().toString(), OFFLINE_SHELL.toString()));
            environment.put(variable, OFFLINE_SHELL.toString());
        });
        List<String> forwarder = egress(argv, environment, visible, workdir);
        argv.addAll(List.of(view.writable() ? "--bind" : "--ro-bind", heldRoot.toString(), workdir.toString()));
        visible.add(workdir);
        concealProjectConfiguration(argv, grants.projectConfiguration(), workdir, cwd);
        Descriptors descriptors = new Descriptors();
        if (!view.concealed().isEmpty()) { // the view's concealed entries
            argv.addAll(List.of("--args", descriptors.add(concealed(workdir, view.concealed()))));
        }
        // after the workdir and the read-only paths: a workdir or a read-only path that holds the home (a workdir at
        // $HOME) would otherwise show the operator's own configuration over the workdir's, its settings writable
        bindConfiguration(argv, grants, homeOf(workdir), descriptors);
        for (Path p : serverPaths) {
            concealServerPath(argv, p, workdir, visible);
        }
        if (root) {
            concealRootOnly(argv, SYSTEM_CONFIGURATION);
        } else {
            for (String secret : SYSTEM_SECRETS) {
                if (Files.isRegularFile(Path.of(secret), LinkOption.NOFOLLOW_LINKS)) {
                    conceal(argv, Path.of(secret), false);
                }
            }
        }
        argv.addAll(List.of("--chdir", cwd.toString(), "--"));
        argv.addAll(verified(workdir, identities));
        argv.addAll(forwarder);
        argv.addAll(command.argv());
        return descriptors.launching(
                new ProviderCommand(argv, command.workingDirectory(), environment, command.maxLineBytes()));
    }

    /**
     * The options that conceal the workdir's {@code entries} (at {@code workdir}, their names as the file system
     * spells them: a name that is not valid UTF-8 too), NUL-separated as bubblewrap's {@code --args} reads them. An
     * argv cannot carry such a name: Java writes a child's argv from strings. The workdir is spelt as in the argv.
     */
    private byte[] concealed(Path workdir, List<ProviderView.Concealed> entries) {
        byte[] root = workdir.toString().getBytes(argvCharset);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ProviderView.Concealed entry : entries) {
            byte[] name = entry.path();
            byte[] path = Arrays.copyOf(root, root.length + 1 + name.length);
            path[root.length] = '/';
            System.arraycopy(name, 0, path, root.length + 1, name.length);
            for (byte[] argument : concealment(path, entry.directory(), w -> w.getBytes(StandardCharsets.US_ASCII))) {
                out.writeBytes(argument);
                out.write(0);
            }
        }
        return out.toByteArray();
    }

    /**
     * What bubblewrap reads on descriptors of its own ({@code --args}, {@code --ro-bind-data}) rather than from its
     * argv: Java gives a child no descriptor beyond the standard three, so {@code /bin/sh} opens each from an
     * owner-only file (in an owner-only directory), removes the files and becomes bubblewrap (the same process: the
     * pid the recovery guard records is bubblewrap's). When a file cannot be opened it removes them all the same, and
     * runs nothing.
     */
    private final class Descriptors {
        /** The first descriptor after the standard three. */
        private static final int FIRST = 3;

        private final List<byte[]> contents = new ArrayList<>();

        /** The descriptor, as bubblewrap's options spell it, on which bubblewrap will read {@code content}. */
        String add(byte[] content) {
            contents.add(content);
            return Integer.toString(FIRST + contents.size() - 1);
        }

        /**
         * {@code command} as it starts: through {@code /bin/sh} when it reads any descriptor, the files that shell
         * removes as its {@link ProviderCommand#launchFiles}; else as it is.
         */
        ProviderCommand launching(ProviderCommand command) {
            if (contents.isEmpty()) {
                return command;
            }
            List<String> files = new ArrayList<>();
            try {
                for (byte[] content : contents) {
                    Path file = Files.createTempFile(argumentsDirectory(), "args-", "", OWNER_ONLY_FILE);
                    files.add(file.toString());
                    Files.write(file, content);
                }
            } catch (IOException e) {
                files.forEach(f -> new java.io.File(f).delete());
                throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the provider's view could not be built");
            }
            StringBuilder opens = new StringBuilder("command exec");
            StringBuilder removes = new StringBuilder("rm -f --");
            for (int i = 1; i <= files.size(); i++) {
                opens.append(' ')
                        .append(FIRST + i - 1)
                        .append("<\"${")
                        .append(i)
                        .append("}\"");
                removes.append(" \"${").append(i).append("}\"");
            }
            // `command exec`: a file that cannot be opened fails the redirection without ending the shell, so every
            // file is removed whatever happened, and then nothing runs
            String script = opens + "; s=$?; " + removes + "; [ \"$s\" = 0 ] || exit \"$s\"; shift " + files.size()
                    + " && exec \"$@\"";
            List<String> launch = new ArrayList<>(List.of("/bin/sh", "-c", script, "serverfs-view-arguments"));
            launch.addAll(files);
            launch.addAll(command.argv());
            return new ProviderCommand(
                    launch,
                    command.workingDirectory(),
                    command.environment(),
                    command.maxLineBytes(),
                    files.stream().map(Path::of).toList());
        }
    }

    /** Where {@link Descriptors} writes its files, created owner-only on first use. */
    private synchronized Path argumentsDirectory() throws IOException {
        if (argumentsDir == null) {
            Path dir = Files.createTempDirectory("serverfs-view-", OWNER_ONLY_DIRECTORY);
            dir.toFile().deleteOnExit();
            argumentsDir = dir;
        }
        return argumentsDir;
    }

    /** The exit status of a child whose view does not show the held workdir (a name was swapped): nothing ran. */
    static final int VIEW_MISMATCH = 125;

    /**
     * What runs the command in the view, after checking that {@code workdir} and the working directory are the
     * directories whose {@link #identity} are {@code identities} (the root's, a newline, the working directory's).
     */
    private static List<String> verified(Path workdir, String identities) {
        return List.of(
                "/bin/sh",
                "-c",
                "[ \"$(/usr/bin/stat -L -c %d:%i -- \"$1\" .)\" = \"$2\" ] || { echo 'ServerFS: the view shows another"
                        + " directory than the workdir held for the task' >&2; exit " + VIEW_MISMATCH
                        + "; }; shift 2; exec \"$@\"",
                "serverfs-view",
                workdir.toString(),
                identities);
    }

    /** {@code held}'s device and inode (through its magic link: the held directory itself), as stat(1) prints them. */
    private static String identity(Path held) {
        try {
            Map<String, Object> attributes = Files.readAttributes(held, "unix:dev,ino");
            return attributes.get("dev") + ":" + attributes.get("ino");
        } catch (IOException | UnsupportedOperationException e) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "a path of the provider's view is gone");
        }
    }

    /**
     * The provider's configuration as {@link Grants} asks, from {@code own} (the workdir's): its directories and files
     * read-write (created when missing), then over them a copy of the operator's login read-only, taken now (where
     * the operator has one; {@link ProviderLogin}) and the operator's settings read-only (else the default), so no
     * task can plant a setting the provider would act on later or change the login of another workdir's tasks; last
     * the {@link Grants#emptied} names, empty and read-only (a subagent, a skill, an exec-policy rule, instructions), or
     * fresh for this child alone (a global configuration the provider rewrites, a session's environment scripts).
     */
    private static void bindConfiguration(List<String> argv, Grants grants, Path own, Descriptors descriptors) {
        for (Path p : grants.directories()) {
            argv.addAll(List.of("--bind", createOwnerOnly(own.resolve(name(p))).toString(), p.toString()));
        }
        grants.settings().keySet().forEach(p -> clearMountPoint(grants, own, p, false));
        grants.emptied().forEach(e -> clearMountPoint(grants, own, e.path(), e.directory()));
        for (Map.Entry<Path, String> file : grants.files().entrySet()) {
            Path mine = createOnce(own.resolve(name(file.getKey())), file.getValue());
            argv.addAll(List.of("--bind", mine.toString(), file.getKey().toString()));
        }
        grants.login()
                .ifPresent(login -> login.forView()
                        .ifPresent(copy -> argv.addAll(List.of(
                                "--ro-bind-data",
                                descriptors.add(copy),
                                login.file().toString()))));
        for (Map.Entry<Path, String> setting : grants.settings().entrySet()) {
            Path p = setting.getKey();
            Path source = Files.isRegularFile(p)
                    ? real(p)
                    : createOnce(createOwnerOnly(own.resolve("defaults")).resolve(name(p)), setting.getValue());
            argv.addAll(List.of("--ro-bind", source.toString(), p.toString()));
        }
        for (Grants.Emptied e : grants.emptied()) {
            if (!e.fresh()) {
                conceal(argv, e.path(), e.directory());
            } else if (e.directory()) {
                argv.addAll(List.of("--perms", "0700", "--tmpfs", e.path().toString()));
            } else {
                argv.addAll(List.of(
                        "--perms",
                        "0600",
                        "--bind-data",
                        descriptors.add(e.content().getBytes(StandardCharsets.UTF_8)),
                        e.path().toString()));
            }
        }
    }

    /**
     * Makes the workdir's directory fit for a mount at {@code path} (a name the view mounts over, inside one of {@link
     * Grants#directories}): what it holds there, or at a name on the way, that is a symbolic link or not of the type
     * mounted ({@code directory}) is removed. bubblewrap would otherwise mount at the link's target (over the
     * workdir's own files, say) or fail, at every task of the workdir. Only a task of a version that did not protect
     * the name yet can have left one: inside a view, a mounted name cannot be replaced.
     */
    private static void clearMountPoint(Grants grants, Path own, Path path, boolean directory) {
        for (Path d : grants.directories()) {
            if (!path.startsWith(d) || path.equals(d)) {
                continue;
            }
            Path at = own.resolve(name(d));
            Path relative = d.relativize(path);
            for (int i = 0; i < relative.getNameCount(); i++) {
                at = at.resolve(relative.getName(i));
                boolean last = i == relative.getNameCount() - 1;
                boolean isDirectory = Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS);
                if (Files.isSymbolicLink(at)
                        || (Files.exists(at, LinkOption.NOFOLLOW_LINKS) && isDirectory != (!last || directory))) {
                    removeTree(at);
                }
            }
            return;
        }
    }

    /** {@code path} and, when it is a directory (not a link to one), everything beneath it. */
    private static void removeTree(Path path) {
        try (var all = Files.walk(path)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROVIDER_ERROR, "the provider's configuration directory could not be prepared");
        }
    }

    /**
     * The provider's project configuration ({@link Grants#projectConfiguration}) in each directory from the task's
     * directory up to the workdir's root, where the provider looks for it: concealed, since any task can write it and
     * the provider acts on what it names (a probing session had Codex start an MCP server a workdir's {@code
     * .codex/config.toml} named, with the provider's network and without approval).
     */
    private static void concealProjectConfiguration(List<String> argv, List<String> names, Path workdir, Path cwd) {
        for (Path d = cwd; d != null && d.startsWith(workdir); d = d.getParent()) {
            for (String name : names) {
                Path p = d.resolve(name);
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    conceal(argv, p, Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS));
                }
            }
        }
    }

    /**
     * Where {@code workdir}'s own copy of {@code directory}, one of {@link Grants#directories}, is kept: outside every
     * view, so a runtime can read and correct what an earlier task left there before the next child starts (a Claude or
     * Codex transcript, probes Q and R); {@code directory} itself when children are unconfined and see it as it is.
     * Every task of the workdir can write there: what is read there must not be followed through a link.
     */
    public Path configurationOf(Path workdir, Path directory) {
        return ownConfigurationOf(workdir, directory).orElse(directory);
    }

    /**
     * As {@link #configurationOf}, but empty when children are unconfined: then {@code directory} is the operator's
     * own, which no task has a copy of, and what ServerFS would correct in a workdir's copy is the operator's business.
     */
    public Optional<Path> ownConfigurationOf(Path workdir, Path directory) {
        return unconfined || homes.isEmpty()
                ? Optional.empty()
                : Optional.of(homeOf(workdir).resolve(name(directory)));
    }

    /** The workdir's own directory of provider configuration: named by a digest of its root, so no path shows. */
    private Path homeOf(Path workdir) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(workdir.toString().getBytes(StandardCharsets.UTF_8));
            return createOwnerOnly(
                    createOwnerOnly(homes.orElseThrow()).resolve(HexFormat.of().formatHex(digest, 0, 16)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String name(Path p) {
        return p.getFileName() == null ? "root" : p.getFileName().toString();
    }

    /** {@code file}, written owner-only with {@code content} when it does not exist yet. */
    private static Path createOnce(Path file, String content) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.writeString(
                        file, content, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (FileAlreadyExistsException e) {
                // another task of the workdir made it first
            } catch (IOException e) {
                throw new ServerFsException(
                        ErrorCode.AGENT_PROVIDER_ERROR, "the provider's configuration could not be prepared");
            }
        }
        return file;
    }

    /**
     * When root serves, its child reads what root reads: beneath {@code dir}, every file others may not read and every
     * directory others may not enter (the backups {@code /etc/shadow-} and {@code /etc/gshadow-}, {@code
     * /etc/sudoers.d}, SSH host keys, {@code /etc/ssl/private}, ...) is concealed, so the child sees {@code dir} as an
     * unprivileged user would. Symbolic links are not followed; what cannot be read is left as it is.
     */
    static void concealRootOnly(List<String> argv, Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    if (!d.equals(dir) && !othersMay(d, PosixFilePermission.OTHERS_EXECUTE)) {
                        conceal(argv, d, true);
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile() && !othersMay(f, PosixFilePermission.OTHERS_READ)) {
                        conceal(argv, f, false);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the provider's view could not be built");
        }
    }

    /** Whether others have {@code permission} on {@code p} (not followed); a path that cannot be read: no. */
    private static boolean othersMay(Path p, PosixFilePermission permission) {
        try {
            return Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .permissions()
                    .contains(permission);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** A ServerFS path that lies beneath something the view shows, and is not the workdir or above it, is hidden. */
    private static void concealServerPath(List<String> argv, Path p, Path workdir, List<Path> visible) {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path real = real(p);
        if (workdir.startsWith(real)) {
            return; // the task's own workdir, or a directory above it: the view is built from it
        }
        if (visible.stream().anyMatch(real::startsWith)) {
            conceal(argv, real, Files.isDirectory(real));
        }
    }

    private static void conceal(List<String> argv, Path path, boolean directory) {
        argv.addAll(concealment(path.toString(), directory, w -> w));
    }

    /**
     * The options that conceal {@code path}: an empty read-only directory over a directory, an empty file over
     * anything else; {@code word} spells the options as {@code path} is spelt.
     */
    private static <T> List<T> concealment(T path, boolean directory, Function<String, T> word) {
        return directory
                ? List.of(
                        word.apply("--perms"),
                        word.apply("0555"),
                        word.apply("--tmpfs"),
                        path,
                        word.apply("--remount-ro"),
                        path)
                : List.of(word.apply("--ro-bind"), word.apply("/dev/null"), path);
    }

    /**
     * The namespaces and identity: all of them, the network included; the provider reaches its model endpoint through
     * the egress relay ({@link #egress}).
     */
    private List<String> namespaces() {
        List<String> argv = new ArrayList<>(List.of(
                bwrap.orElseThrow().toString(),
                "--die-with-parent",
                "--unshare-user",
                "--unshare-pid",
                "--unshare-ipc",
                "--unshare-uts",
                "--unshare-net",
                "--unshare-cgroup-try",
                "--cap-drop",
                "ALL"));
        if (root) {
            argv.addAll(List.of("--uid", UNPRIVILEGED_ID, "--gid", UNPRIVILEGED_ID));
        }
        return argv;
    }

    /** {@code /usr} and {@code /etc} read-only, the merged-usr links as they are; returns the bound roots. */
    private static List<Path> system(List<String> argv) {
        List<Path> bound = new ArrayList<>();
        for (String dir : List.of("/usr", "/etc")) {
            argv.addAll(List.of("--ro-bind", dir, dir));
            bound.add(Path.of(dir));
        }
        for (String name : SYSTEM_LINKS) {
            Path p = Path.of(name);
            if (Files.isSymbolicLink(p)) {
                try {
                    argv.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), name));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            } else if (Files.isDirectory(p)) {
                argv.addAll(List.of("--ro-bind", name, name));
                bound.add(p);
            }
        }
        return bound;
    }

    /**
     * The script Claude's shell commands run through ({@code CLAUDE_CODE_SHELL_PREFIX}): bubblewrap again, with a
     * network namespace of its own (loopback only) over the same view. Written once, owner-only, read-only.
     */
    private synchronized Path offlineShell() {
        if (offlineShellScript == null) {
            try {
                Path dir = Files.createTempDirectory("serverfs-sandbox-", OWNER_ONLY_DIRECTORY);
                Path script = dir.resolve("offline-shell");
                Files.writeString(script, """
                        #!/bin/sh
                        # ServerFS (issue 25): one shell command of the provider, in a network namespace of its own.
                        exec '%s' --unshare-user --unshare-net --die-with-parent --dev-bind / / --tmpfs '%s' \\
                          -- /bin/sh -c "$1"
                        """.formatted(bwrap.orElseThrow(), EGRESS_DIR), StandardCharsets.UTF_8);
                Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("r-x------"));
                dir.toFile().deleteOnExit();
                script.toFile().deleteOnExit();
                offlineShellScript = script;
            } catch (IOException e) {
                throw new ServerFsException(
                        ErrorCode.AGENT_PROVIDER_ERROR, "the provider's sandbox could not be set up");
            }
        }
        return offlineShellScript;
    }

    /**
     * The way out of the view's network namespace (its only one): the relay's socket directory, the JVM and the
     * {@link EgressForwarder}'s class read-only, the proxy variables pointing at the forwarder (and no {@code
     * NO_PROXY}); returns the argv that runs the forwarder, to go before the provider's own.
     */
    private List<String> egress(List<String> argv, Map<String, String> environment, List<Path> visible, Path workdir) {
        Path socketDir = relay(workdir).socket().getParent();
        Path javaHome = javaHome();
        Path classes = forwarderClasses();
        argv.addAll(List.of("--ro-bind", socketDir.toString(), EGRESS_DIR.toString()));
        for (Path p : List.of(javaHome, classes)) {
            argv.addAll(List.of("--ro-bind", p.toString(), p.toString()));
            visible.add(p);
        }
        String proxy = "http://127.0.0.1:" + EGRESS_PORT;
        PROXY_VARIABLES.forEach(v -> environment.put(v, proxy));
        NO_PROXY_VARIABLES.forEach(environment::remove);
        List<String> forwarder = new ArrayList<>();
        forwarder.add(javaHome.resolve("bin").resolve("java").toString());
        forwarder.addAll(FORWARDER_JVM_OPTIONS);
        forwarder.addAll(List.of("-cp", classes.toString(), EgressForwarder.class.getName()));
        forwarder.addAll(List.of(EGRESS_DIR.resolve(EGRESS_SOCKET).toString(), Integer.toString(EGRESS_PORT), "--"));
        return forwarder;
    }

    /**
     * The relay of the children of {@code workdir}'s tasks, started on first use on an owner-only socket directory of
     * its own: one per workdir, so that a task holding every connection its relay admits ({@link
     * EgressRelay#MAX_CONNECTIONS}) cuts off no other workdir's tasks from their model.
     */
    private EgressRelay relay(Path workdir) {
        synchronized (relays) {
            EgressRelay relay = relays.get(workdir);
            if (relay == null) {
                try {
                    Path dir = Files.createTempDirectory("serverfs-egress-", OWNER_ONLY_DIRECTORY);
                    relay = EgressRelay.open(dir.resolve(EGRESS_SOCKET), egress);
                    dir.toFile().deleteOnExit();
                    relay.socket().toFile().deleteOnExit();
                } catch (IOException e) {
                    throw new ServerFsException(
                            ErrorCode.AGENT_PROVIDER_ERROR, "the provider's egress relay could not be set up");
                }
                relays.put(workdir, relay);
            }
            return relay;
        }
    }

    /**
     * The installation of the JVM this process runs on (the forwarder runs on it too): the directory above the {@code
     * bin/java} this process was started as.
     */
    private static Path javaHome() {
        Path java = ProcessHandle.current()
                .info()
                .command()
                .map(Path::of)
                .map(ProviderSandbox::real)
                .filter(p -> p.getFileName().toString().equals("java"))
                .orElseThrow(() -> new ServerFsException(
                        ErrorCode.AGENT_PROVIDER_ERROR, "the provider's egress relay is unavailable"));
        Path bin = java.getParent();
        if (bin == null || bin.getParent() == null) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the provider's egress relay is unavailable");
        }
        return bin.getParent();
    }

    /** The jar or class directory {@link EgressForwarder} is loaded from. */
    private static Path forwarderClasses() {
        try {
            return real(Path.of(EgressForwarder.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()));
        } catch (java.net.URISyntaxException | NullPointerException | SecurityException e) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the provider's egress relay is unavailable");
        }
    }

    /**
     * What one provider needs beyond the common view. Its configuration, each workdir's own: {@code directories}
     * (created owner-only when missing) and {@code files} (created with the given content when missing), shown
     * read-write at these paths. Inside them, the operator's: the {@code login}, a read-only copy taken as the child
     * starts ({@link ProviderLogin#forView}) where the operator has one;
     * {@code settings} files, bound read-only (where the operator has none, the given content). Its installation
     * read-only, the environment variable that takes the offline shell when its commands are not kept offline by a
     * sandbox of its own, and the names of the provider's project configuration, which the view conceals in the
     * task's directory and each one above it up to the workdir's root. Last, the {@code emptied} names inside the
     * configuration: shown empty and read-only whatever the workdir's directory holds there, because the provider acts
     * on what they say (grants itself permissions, follows instructions, runs programs) and any task could have
     * written them; or, where the provider must write them itself, fresh for each child and gone with it.
     */
    public record Grants(
            List<Path> directories,
            Map<Path, String> files,
            Optional<ProviderLogin> login,
            Map<Path, String> settings,
            List<Path> readOnly,
            Optional<String> offlineShell,
            List<String> projectConfiguration,
            List<Emptied> emptied) {
        public Grants {
            directories = List.copyOf(directories);
            files = Map.copyOf(files);
            Objects.requireNonNull(login, "login");
            settings = Map.copyOf(settings);
            readOnly = List.copyOf(readOnly);
            Objects.requireNonNull(offlineShell, "offlineShell");
            projectConfiguration = List.copyOf(projectConfiguration);
            emptied = List.copyOf(emptied);
        }

        /** Nothing of a provider's own: installation paths and the offline shell's variable only. */
        public static Grants none(List<Path> readOnly, Optional<String> offlineShell) {
            return new Grants(
                    List.of(), Map.of(), Optional.empty(), Map.of(), readOnly, offlineShell, List.of(), List.of());
        }

        /**
         * A name the view shows as an empty read-only directory ({@code directory}) or an empty read-only file; or,
         * {@code fresh}, as a new one each child may write and none after it sees: an empty directory, or a file
         * holding {@code content}, gone with the child (what the provider must be able to write at every start, but
         * acts on when it finds it there at the next).
         */
        public record Emptied(Path path, boolean directory, boolean fresh, String content) {
            public Emptied {
                Objects.requireNonNull(path, "path");
                Objects.requireNonNull(content, "content");
                if (!content.isEmpty() && (directory || !fresh)) {
                    throw new IllegalArgumentException("only a fresh file has content");
                }
            }

            public static Emptied directory(Path path) {
                return new Emptied(path, true, false, "");
            }

            public static Emptied file(Path path) {
                return new Emptied(path, false, false, "");
            }

            /** A new empty directory in each view, writable, gone with the child. */
            public static Emptied freshDirectory(Path path) {
                return new Emptied(path, true, true, "");
            }

            /** A new file holding {@code content} in each view, writable, gone with the child. */
            public static Emptied freshFile(Path path, String content) {
                return new Emptied(path, false, true, content);
            }
        }
    }

    /**
     * What of a provider's installation is shown read-only: the {@code node_modules} its executable lies in (an npm
     * package needs its sibling packages), else the directory of the resolved executable, found on {@code
     * environment}'s {@code PATH}; the executable alone when that directory is the home ({@code HOME}) or above it,
     * which the view keeps private. Empty when {@code bin} cannot be found.
     */
    public static Optional<Path> installation(String bin, Map<String, String> environment) {
        Optional<Path> home = Optional.ofNullable(environment.get("HOME"))
                .filter(h -> !h.isBlank())
                .map(Path::of)
                .filter(Path::isAbsolute)
                .map(h -> Files.exists(h) ? real(h) : h);
        return executable(bin, environment.get("PATH"))
                .map(ProviderSandbox::real)
                .map(exe -> {
                    Path shown = exe.getParent();
                    for (Path p = exe.getParent(); p != null; p = p.getParent()) {
                        if (p.getFileName() != null
                                && p.getFileName().toString().equals("node_modules")) {
                            shown = p;
                            break;
                        }
                    }
                    return home.isPresent() && home.get().startsWith(shown) ? exe : shown;
                });
    }

    /** {@code bin} as an absolute path: itself when it has a slash, else the first match on {@code path}. */
    static Optional<Path> executable(String bin, String path) {
        if (bin.contains("/")) {
            Path p = Path.of(bin).toAbsolutePath();
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        for (String dir : (path == null ? "" : path).split(":")) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, bin);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "a path of the provider's view is gone");
        }
    }

    /** {@code dir}, created owner-only when missing (with its parents). */
    private static Path createOwnerOnly(Path dir) {
        if (Files.isDirectory(dir)) {
            return dir;
        }
        try {
            return Files.createDirectories(dir, OWNER_ONLY_DIRECTORY);
        } catch (IOException e) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROVIDER_ERROR, "the provider's configuration directory is missing");
        }
    }

    private static List<Path> concat(Collection<Path> a, Collection<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private boolean exitsCleanly(List<String> argv) {
        ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
        builder.environment().clear();
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        try {
            Process p = builder.start();
            if (!p.waitFor(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean isRootUid() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Where the offline shell appears in a confined child's view (what {@link Grants#offlineShell} names is set to);
     * empty unconfined, where there is none.
     */
    public Optional<Path> offlineShellPath() {
        return unconfined ? Optional.empty() : Optional.of(OFFLINE_SHELL);
    }

    @Override
    public String toString() {
        return unconfined ? "ProviderSandbox[unconfined]" : "ProviderSandbox[bwrap]";
    }
}
