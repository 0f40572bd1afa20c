package dev.serverfs.application.testing;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A seeded source of test inputs and a runner of properties over them: {@link #forAll} draws {@code tries} inputs
 * from one {@link SplittableRandom} and, on the first failing one, fails with the seed, the try and the input. The
 * seed is fresh per run unless {@code -Dfuzz.seed=N} replays one; {@code -Dfuzz.tries=N} changes the tries. Shared by
 * the property tests of every module (the JSON-RPC envelope, the tools, the glob dialects).
 */
public final class Fuzz {

    /** A check of one input; any throwable fails the property. */
    @FunctionalInterface
    public interface Check<T> {
        void accept(T input) throws Exception;
    }

    private static final int SHOWN_INPUT_CHARS = 4_000;

    private final SplittableRandom random;

    private Fuzz(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /**
     * Runs {@code check} on {@code tries} inputs drawn by {@code generate} (or {@code -Dfuzz.tries}), printing the
     * seed first; the first failure is rethrown with the seed, the try and the input in its message.
     */
    public static <T> void forAll(String property, int tries, Function<Fuzz, T> generate, Check<T> check) {
        forAll(property, seed(), tries, generate, check);
    }

    /** The seed of this run: {@code -Dfuzz.seed} when given, else a fresh one. */
    public static long seed() {
        String fixed = System.getProperty("fuzz.seed", "");
        return fixed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(fixed.strip());
    }

    /** A source drawing from {@code seed} (for fixtures generated once per run, before the properties). */
    public static Fuzz of(long seed) {
        return new Fuzz(seed);
    }

    /** As {@link #forAll(String, int, Function, Check)} with a seed the caller already drew ({@link #seed}). */
    public static <T> void forAll(String property, long seed, int tries, Function<Fuzz, T> generate, Check<T> check) {
        int count = Integer.getInteger("fuzz.tries", tries);
        System.out.printf("fuzz: %s: %d tries, seed %d (replay: -Dfuzz.seed=%d)%n", property, count, seed, seed);
        Fuzz fuzz = new Fuzz(seed);
        for (int i = 1; i <= count; i++) {
            T input = generate.apply(fuzz);
            try {
                check.accept(input);
            } catch (Exception | AssertionError failure) {
                String message = "%s failed at try %d of %d, seed %d (replay: -Dfuzz.seed=%d); input: %s"
                        .formatted(property, i, count, seed, seed, shown(input));
                System.out.println("fuzz: " + message);
                throw new AssertionError(message, failure);
            }
        }
    }

    private static String shown(Object input) {
        String text = String.valueOf(input);
        return text.length() <= SHOWN_INPUT_CHARS
                ? text
                : text.substring(0, SHOWN_INPUT_CHARS) + "... (" + text.length() + " chars; the seed replays all)";
    }

    /** An int in {@code [min, max]}. */
    public int between(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** True with probability {@code p}. */
    public boolean chance(double p) {
        return random.nextDouble() < p;
    }

    @SafeVarargs
    public final <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }

    public <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    /** One of the generators, chosen uniformly, then run. */
    @SafeVarargs
    public final <T> T oneOf(Supplier<? extends T>... generators) {
        return generators[random.nextInt(generators.length)].get();
    }

    /** {@code first} {@code firstWeight} times in {@code firstWeight + secondWeight}, {@code second} otherwise. */
    public <T> T weighted(
            int firstWeight, Supplier<? extends T> first, int secondWeight, Supplier<? extends T> second) {
        return random.nextInt(firstWeight + secondWeight) < firstWeight ? first.get() : second.get();
    }

    /** Any long, with the boundary values drawn often, as a fuzzer's edge cases. */
    public long anyLong() {
        return chance(0.2) ? pick(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE) : random.nextLong();
    }

    /**
     * Any string of at most {@code maxLength} chars, often empty: ASCII, the characters JSON, paths and globs give a
     * meaning to, control characters, any UTF-16 unit (lone surrogates included) and supplementary code points.
     */
    public String anyString(int maxLength) {
        int length = chance(0.1) ? 0 : between(0, maxLength);
        StringBuilder text = new StringBuilder(length + 1);
        while (text.length() < length) {
            int kind = random.nextInt(20);
            if (kind < 9) {
                text.append((char) between(0x20, 0x7e));
            } else if (kind < 12) {
                text.append(pick('"', '\\', '/', '.', '*', '?', '[', ']', '{', '}', ',', ':', '%', '\u0000'));
            } else if (kind < 14) {
                text.append((char) between(0, 0x1f));
            } else if (kind < 18) {
                text.append((char) random.nextInt(Character.MAX_VALUE + 1));
            } else if (length - text.length() >= 2) {
                text.appendCodePoint(between(Character.MIN_SUPPLEMENTARY_CODE_POINT, Character.MAX_CODE_POINT));
            } else {
                text.append((char) between(0x20, 0x7e));
            }
        }
        return text.toString();
    }
}
