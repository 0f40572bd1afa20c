package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MimeTypesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "notes.txt, text/plain",
        "README.md, text/markdown",
        "data.json, application/json",
        "page.html, text/html",
        "photo.JPG, image/jpeg",
        "archive.tar.gz, application/octet-stream",
        "Makefile, application/octet-stream",
        ".bashrc, application/octet-stream",
        "trailing., application/octet-stream",
        "main.py, text/x-python",
    })
    void guesses_by_extension_with_octet_stream_fallback(String name, String expected) {
        assertEquals(expected, MimeTypes.guess(name));
    }
}
