package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ServerFsException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One caller field parsed once from its raw text: the typed value, or the refusal its check reports. A refusal waits
 * for its place in the contract's check order (submit refuses an unknown workdir before an unknown runtime, and a
 * missing directory before a bad {@code correlation_id}), so the use case calls {@link #get} where that check stands.
 */
public sealed interface Parsed<T> {

    /** The value, or the refusal as its {@code ServerFsException}. */
    T get();

    /** The value, or empty when the field was refused. */
    Optional<T> valid();

    /** The field's value mapped by {@code ifValid}, or the caller's raw text mapped by {@code ifRefused}. */
    <R> R fold(Function<? super T, ? extends R> ifValid, Function<String, ? extends R> ifRefused);

    /** Parses {@code raw} with {@code parse}; a {@code ServerFsException} it throws becomes the refusal. */
    static <T> Parsed<T> of(String raw, Supplier<T> parse) {
        try {
            return new Valid<>(parse.get());
        } catch (ServerFsException e) {
            return new Refused<>(raw, e);
        }
    }

    /** An optional field: absent is valid and empty, a present one is parsed with {@code parse}. */
    static <T> Parsed<Optional<T>> optional(Optional<String> raw, Function<Optional<String>, Optional<T>> parse) {
        return raw.isEmpty() ? new Valid<>(Optional.empty()) : of(raw.get(), () -> parse.apply(raw));
    }

    /** A field that parsed. */
    record Valid<T>(T value) implements Parsed<T> {
        public Valid {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public T get() {
            return value;
        }

        @Override
        public Optional<T> valid() {
            return Optional.of(value);
        }

        @Override
        public <R> R fold(Function<? super T, ? extends R> ifValid, Function<String, ? extends R> ifRefused) {
            return ifValid.apply(value);
        }
    }

    /** A field that did not parse: the caller's raw text (forwarded as is to a Bridge) and the refusal. */
    record Refused<T>(String raw, ServerFsException refusal) implements Parsed<T> {
        public Refused {
            Objects.requireNonNull(raw, "raw");
            Objects.requireNonNull(refusal, "refusal");
        }

        @Override
        public T get() {
            throw refusal;
        }

        @Override
        public Optional<T> valid() {
            return Optional.empty();
        }

        @Override
        public <R> R fold(Function<? super T, ? extends R> ifValid, Function<String, ? extends R> ifRefused) {
            return ifRefused.apply(raw);
        }

        @Override
        public String toString() {
            return "Refused[" + refusal.code() + "]";
        }
    }
}
