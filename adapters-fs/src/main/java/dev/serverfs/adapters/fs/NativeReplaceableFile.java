package dev.serverfs.adapters.fs;

import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.ReplaceableFile;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.Revision;

/** A regular file open for reading plus its parent directory, so the name can be replaced through the parent. */
final class NativeReplaceableFile implements ReplaceableFile {

    private final NativeReadableFile file;
    private final int fd;
    private final int parent;
    private final String name;
    private final String label;
    private final Publication publication;
    private boolean closed;

    NativeReplaceableFile(int parent, String name, int fd, String label, Publication publication) {
        this.file = new NativeReadableFile(fd, label);
        this.fd = fd;
        this.parent = parent;
        this.name = name;
        this.label = label;
        this.publication = publication;
    }

    @Override
    public FileStat stat() {
        return file.stat();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        return file.read(buffer, offset, length);
    }

    @Override
    public FileStat replace(byte[] content, Revision expectedRevision) {
        return publication.replace(parent, name, fd, content, expectedRevision, label);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                file.close();
            } finally {
                Syscalls.close(parent);
            }
        }
    }
}
