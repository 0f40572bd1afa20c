package dev.serverfs.adapters.fs;

import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * A seeded source of test inputs and a runner of properties over them, the same approach as the bootstrap
 * module's {@code Fuzz}: {@link #forAll} draws {@code tries} inputs from one {@link SplittableRandom} and, on the first
 * failing one, fails with the seed, the try and the input. The seed is fresh per run unless {@code -Dfuzz.seed=N}
 * replays one; {@code -Dfuzz.tries=N} changes the tries.
 */
final class Fuzz {

    /** A check of one input; any throwable fails the property. */
    @FunctionalInterface
    interface Check<T> {
        void accept(T input) throws Exception;
    }

    private final SplittableRandom random;

    private Fuzz(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** The seed of this run: {@code -Dfuzz.seed} when given, else a fresh one. */
    static long seed() {
        String fixed = System.getProperty("fuzz.seed", "");
        return fixed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(fixed.strip());
    }

    /** A source drawing from {@code seed} (for fixtures generated once per run, before the properties). */
    static Fuzz of(long seed) {
        return new Fuzz(seed);
    }

    /**
     * Runs {@code check} on {@code tries} inputs drawn by {@code generate} (or {@code -Dfuzz.tries}), printing the
     * seed first; the first failure is rethrown with the seed, the try and the input in its message.
     */
    static <T> void forAll(String property, long seed, int tries, Function<Fuzz, T> generate, Check<T> check) {
        int count = Integer.getInteger("fuzz.tries", tries);
        System.out.printf("fuzz: %s: %d tries, seed %d (replay: -Dfuzz.seed=%d)%n", property, count, seed, seed);
        Fuzz fuzz = new Fuzz(seed);
        for (int i = 1; i <= count; i++) {
            T input = generate.apply(fuzz);
            try {
                check.accept(input);
            } catch (Exception | AssertionError failure) {
                String message = "%s failed at try %d of %d, seed %d (replay: -Dfuzz.seed=%d); input: %s"
                        .formatted(property, i, count, seed, seed, input);
                System.out.println("fuzz: " + message);
                throw new AssertionError(message, failure);
            }
        }
    }

    /** An int in {@code [min, max]}. */
    int between(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** True with probability {@code p}. */
    boolean chance(double p) {
        return random.nextDouble() < p;
    }

    @SafeVarargs
    final <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }
}
