package dev.serverfs.domain.file;

import java.util.Locale;
import java.util.Map;

/**
 * Guesses a MIME type from a file name's extension, like the reference's {@code mimetypes.guess_type}
 * (contract reference §2.6); unknown extensions give {@code application/octet-stream}.
 */
public final class MimeTypes {

    public static final String FALLBACK = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("txt", "text/plain"),
            Map.entry("text", "text/plain"),
            Map.entry("log", "text/plain"),
            Map.entry("conf", "text/plain"),
            Map.entry("c", "text/plain"),
            Map.entry("h", "text/plain"),
            Map.entry("md", "text/markdown"),
            Map.entry("markdown", "text/markdown"),
            Map.entry("html", "text/html"),
            Map.entry("htm", "text/html"),
            Map.entry("css", "text/css"),
            Map.entry("csv", "text/csv"),
            Map.entry("tsv", "text/tab-separated-values"),
            Map.entry("js", "text/javascript"),
            Map.entry("mjs", "text/javascript"),
            Map.entry("py", "text/x-python"),
            Map.entry("xml", "text/xml"),
            Map.entry("rtf", "application/rtf"),
            Map.entry("json", "application/json"),
            Map.entry("yaml", "application/yaml"),
            Map.entry("yml", "application/yaml"),
            Map.entry("toml", "application/toml"),
            Map.entry("sh", "application/x-sh"),
            Map.entry("java", "text/x-java"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"),
            Map.entry("tar", "application/x-tar"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("ico", "image/vnd.microsoft.icon"),
            Map.entry("bmp", "image/bmp"),
            Map.entry("tif", "image/tiff"),
            Map.entry("tiff", "image/tiff"),
            Map.entry("mp3", "audio/mpeg"),
            Map.entry("wav", "audio/x-wav"),
            Map.entry("mp4", "video/mp4"),
            Map.entry("webm", "video/webm"),
            Map.entry("doc", "application/msword"),
            Map.entry("xls", "application/vnd.ms-excel"),
            Map.entry("ppt", "application/vnd.ms-powerpoint"),
            Map.entry("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
            Map.entry("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            Map.entry("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"));

    private MimeTypes() {}

    public static String guess(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot <= 0 || dot == fileName.length() - 1) {
            return FALLBACK;
        }
        String extension = fileName.substring(dot + 1);
        String exact = BY_EXTENSION.get(extension);
        if (exact != null) {
            return exact;
        }
        // mimetypes falls back to a lower-case look-up for unknown mixed-case extensions.
        return BY_EXTENSION.getOrDefault(extension.toLowerCase(Locale.ROOT), FALLBACK);
    }
}
