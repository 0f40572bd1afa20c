package dev.serverfs.bootstrap.serve;

import java.util.Map;

/** {@link AgentScenarios} against one {@code serverfs serve} child process hosting the Agent service (embedded). */
class AgentServeIT extends AgentScenarios {

    @Override
    ServeProcess startDeployment() throws Exception {
        return ServeProcess.start(env(port));
    }

    @Override
    Map<String, String> env(int listenPort) {
        Map<String, String> env = super.env(listenPort);
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        return env;
    }
}
