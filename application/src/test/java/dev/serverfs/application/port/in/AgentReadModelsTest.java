package dev.serverfs.application.port.in;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.Task;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Agent in-ports hand out read models only (issue 26 item 1): no type reachable from what the nine use cases
 * return is the {@link Task} aggregate or its provider-native ids, so no adapter can render or rebuild either.
 */
class AgentReadModelsTest {

    @Test
    void nothing_the_agent_use_cases_return_reaches_the_task_aggregate() {
        Set<Type> seen = new HashSet<>();
        List<String> leaks = new ArrayList<>();
        for (RecordComponent useCase : AgentUseCases.class.getRecordComponents()) {
            for (Method method : useCase.getType().getDeclaredMethods()) {
                if (!Modifier.isStatic(method.getModifiers())) {
                    walk(method.getGenericReturnType(), useCase.getName(), seen, leaks);
                }
            }
        }
        assertEquals(List.of(), leaks);
        assertTrue(seen.contains(TaskView.class) && seen.contains(TaskHandle.class), seen.toString());
    }

    private static void walk(Type type, String path, Set<Type> seen, List<String> leaks) {
        if (type == Task.class || type == NativeIds.class) {
            leaks.add(path + " → " + ((Class<?>) type).getSimpleName());
            return;
        }
        if (!seen.add(type)) {
            return;
        }
        if (type instanceof ParameterizedType p) {
            walk(p.getRawType(), path, seen, leaks);
            for (Type argument : p.getActualTypeArguments()) {
                walk(argument, path, seen, leaks);
            }
            return;
        }
        if (!(type instanceof Class<?> c)) {
            return;
        }
        if (c.isRecord()) {
            for (RecordComponent component : c.getRecordComponents()) {
                walk(component.getGenericType(), path + "." + component.getName(), seen, leaks);
            }
        }
        if (c.isSealed()) {
            for (Class<?> permitted : c.getPermittedSubclasses()) {
                walk(permitted, path + "." + permitted.getSimpleName(), seen, leaks);
            }
        }
    }
}
