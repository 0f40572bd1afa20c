package dev.serverfs.bootstrap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.service.agent.AgentService;
import dev.serverfs.application.service.agent.TestAgentWiring;
import dev.serverfs.application.testing.FakeWorkingDirectories;
import dev.serverfs.application.testing.InMemoryResultSpool;
import dev.serverfs.application.testing.InMemoryTaskStore;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.application.testing.ManualTimers;
import dev.serverfs.application.testing.ScriptedRuntime;
import dev.serverfs.application.testing.SequentialIds;
import dev.serverfs.domain.task.AgentLimits;
import dev.serverfs.domain.workdir.Workdirs;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The application modules' tests build the Agent service with {@code TestAgentWiring} (they cannot depend on
 * bootstrap); this proves it is the same graph as {@link AgentServiceWiring}'s: the same class at every reachable
 * field of the service's own objects, and the same objects shared between them.
 */
class AgentServiceWiringParityTest {

    @Test
    void the_test_wiring_builds_the_graph_bootstrap_builds() {
        try (ExecutorService runners = Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> production = shape(build(true, runners));
            List<String> tests = shape(build(false, runners));
            assertTrue(production.size() > 20, "the walk reached the service's collaborators: " + production);
            assertEquals(production, tests);
        }
    }

    private static AgentService build(boolean production, ExecutorService runners) {
        Clock clock = Clock.systemUTC();
        List<AgentRuntime> runtimes = List.of(new ScriptedRuntime("fake"));
        AgentService.Settings settings =
                new AgentService.Settings(AgentLimits.defaults(), Duration.ofSeconds(1), "t", List.of());
        Workdirs workdirs = new Workdirs(List.of());
        return production
                ? AgentServiceWiring.agentService(
                        workdirs,
                        new FakeWorkingDirectories(),
                        runtimes,
                        new InMemoryTaskStore(),
                        new InMemoryResultSpool(),
                        new InMemoryWriterLeases(),
                        new SequentialIds(),
                        new ManualTimers(clock),
                        clock,
                        runners,
                        settings)
                : TestAgentWiring.agentService(
                        workdirs,
                        new FakeWorkingDirectories(),
                        runtimes,
                        new InMemoryTaskStore(),
                        new InMemoryResultSpool(),
                        new InMemoryWriterLeases(),
                        new SequentialIds(),
                        new ManualTimers(clock),
                        clock,
                        runners,
                        settings);
    }

    /**
     * Every field reachable from {@code root} through objects of the application's services and use-case records, in a fixed
     * order, as "path: class" lines; an object met before is named by the path that first reached it, so sharing is
     * part of the shape.
     */
    private static List<String> shape(Object root) {
        List<String> lines = new ArrayList<>();
        walk(root, "service", new IdentityHashMap<>(), lines);
        return lines;
    }

    private static void walk(Object node, String path, Map<Object, String> seen, List<String> lines) {
        String first = seen.putIfAbsent(node, path);
        if (first != null) {
            lines.add(path + " = " + first);
            return;
        }
        lines.add(path + ": " + node.getClass().getName());
        String name = node.getClass().getName();
        if (!name.startsWith("dev.serverfs.application.service.")
                && !name.startsWith("dev.serverfs.application.port.in.")) {
            return;
        }
        for (Class<?> type = node.getClass(); type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                    continue;
                }
                field.setAccessible(true);
                Object value;
                try {
                    value = field.get(node);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                if (value != null) {
                    walk(value, path + "." + field.getName(), seen, lines);
                }
            }
        }
    }
}
