package dev.serverfs.archfixture.bad.application.port.out;

import java.io.IOException;
import java.sql.SQLException;

public interface LeakyStore {
    String load(String id) throws IOException;

    void save(String id) throws SQLException;
}
