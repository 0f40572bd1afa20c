package dev.serverfs.application.port.out;

import java.util.Objects;

/** What one {@link HttpsFetcher#get} produced: the body of a 200 response or a redirect to follow. */
public sealed interface HttpsResponse {

    /** A complete 200 body, never longer than the limit it was fetched with. */
    record Body(byte[] bytes) implements HttpsResponse {
        public Body {
            Objects.requireNonNull(bytes, "bytes");
        }

        @Override
        public String toString() {
            return "Body[" + bytes.length + " bytes]";
        }
    }

    /** A redirect status with its raw {@code Location} header, not yet resolved or validated. */
    record Redirect(String location) implements HttpsResponse {
        public Redirect {
            Objects.requireNonNull(location, "location");
        }

        @Override
        public String toString() {
            return "Redirect[redacted]";
        }
    }
}
