package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.time.DateTimeException;
import org.jooq.impl.AbstractConverter;

/**
 * A TEXT column read and written as a domain value: SQL NULL is Java null both ways, and stored text the domain
 * rejects (a row no ServerFS wrote) is a storage failure ({@code AGENT_RESULT_STORAGE_ERROR}), never a raw
 * exception; the text itself is not echoed.
 */
abstract class TextColumnConverter<U> extends AbstractConverter<String, U> {
    private final String what;

    TextColumnConverter(Class<U> type, String what) {
        super(String.class, type);
        this.what = what;
    }

    /** The domain value of {@code stored}; throws {@link IllegalArgumentException} for text it does not accept. */
    abstract U decode(String stored);

    abstract String encode(U value);

    @Override
    public final U from(String stored) {
        if (stored == null) {
            return null;
        }
        try {
            return decode(stored);
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new ServerFsException(
                    ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the task store holds an unreadable " + what);
        }
    }

    @Override
    public final String to(U value) {
        return value == null ? null : encode(value);
    }
}
