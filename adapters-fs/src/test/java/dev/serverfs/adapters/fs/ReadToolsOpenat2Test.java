package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.ReadTextFileUseCase.ReadTextFileQuery;
import dev.serverfs.application.port.in.StatFileUseCase.StatFileQuery;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The read suite with {@code openat2} resolution (the kernel here supports it; the test fails otherwise). */
class ReadToolsOpenat2Test extends ReadToolsContract {

    @Override
    LinuxWorkdirFileSystem.Resolution resolution() {
        return LinuxWorkdirFileSystem.Resolution.AUTO;
    }

    @Test
    void openat2_is_in_use() {
        assertTrue(fs.usesOpenat2(), "openat2 unavailable: the suite would silently test the fallback twice");
    }

    /**
     * One read per carrier, each skipping a gigabyte of (sparse) lines before its start line, on virtual threads as
     * the MCP server runs calls: a stat started after them still finishes before any of them. Before the reads let
     * other calls run, the stat waited for a whole read (every carrier held to the end of one).
     */
    @Test
    void long_reads_on_every_carrier_do_not_hold_up_a_stat() throws Exception {
        java.nio.file.Path big = write("sparse.txt", "hello\n".repeat(400));
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(1L << 30);
        }
        write("small.txt", "x\n");
        AtomicLong firstReadDone = new AtomicLong(Long.MAX_VALUE);
        List<String> pages = new CopyOnWriteArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            readers.add(Thread.ofVirtual().start(() -> {
                var page = read.readTextFile(new ReadTextFileQuery("wd", "sparse.txt", 1_000_000L, 10));
                firstReadDone.accumulateAndGet(System.nanoTime(), Math::min);
                pages.add(page.content());
            }));
        }
        AtomicLong statDone = new AtomicLong();
        Thread stat = Thread.ofVirtual().start(() -> {
            this.stat.statFile(new StatFileQuery("wd", "small.txt"));
            statDone.set(System.nanoTime());
        });
        stat.join();
        for (Thread reader : readers) {
            reader.join();
        }
        assertEquals(readers.size(), pages.size(), "every read answered");
        assertTrue(pages.stream().allMatch(String::isEmpty), "past the end: empty pages");
        assertTrue(statDone.get() > 0, "the stat answered");
        assertTrue(statDone.get() < firstReadDone.get(), "the stat waited for a whole read");
    }
}
