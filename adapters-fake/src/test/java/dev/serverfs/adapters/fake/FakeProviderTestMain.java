package dev.serverfs.adapters.fake;

/** Child-process entry point for the tests (production launches the same code through a hidden sub-command). */
public final class FakeProviderTestMain {
    private FakeProviderTestMain() {}

    public static void main(String[] args) {
        System.exit(FakeProvider.run(System.in, System.out));
    }
}
