package dev.serverfs.application.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.FileIngressContract;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InMemoryFileIngressTest extends FileIngressContract {

    private InMemoryFileIngress fake;

    @Override
    protected FileIngress newIngress() {
        fake = new InMemoryFileIngress(ALLOWED_HOST);
        return fake;
    }

    @Override
    protected void publish(String path, byte[] body) {
        fake.publish("https://" + ALLOWED_HOST + path, body);
    }

    @Test
    void scripted_failures_and_the_fetch_hook_work() {
        AtomicInteger calls = new AtomicInteger();
        fake.fail("https://files.test/dns", ErrorCode.FILE_INGRESS_DNS_FAILED).duringFetch(calls::incrementAndGet);
        ServerFsException e = assertThrows(ServerFsException.class, () -> fake.fetch("https://FILES.test./dns", 10));
        assertEquals(ErrorCode.FILE_INGRESS_DNS_FAILED, e.code());
        assertEquals(1, calls.get());
    }
}
