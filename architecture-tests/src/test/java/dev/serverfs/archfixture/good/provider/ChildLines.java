package dev.serverfs.archfixture.good.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.archfixture.good.application.port.in.ReadFileUseCase;
import dev.serverfs.archfixture.good.domain.Revision;

/** The shared provider library may use the JDK, Jackson, SLF4J, the domain and the ports. */
public final class ChildLines {
    private final ObjectMapper json = new ObjectMapper();

    public String line(ReadFileUseCase useCase) throws Exception {
        Revision revision = useCase.read("c");
        return json.writeValueAsString(revision.at().toString());
    }
}
