package dev.serverfs.domain.workdir;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The configured workdirs in slot order, with alias look-up. Aliases are unique (reference §9.2). */
public record Workdirs(List<Workdir> all) {

    public Workdirs {
        all = List.copyOf(all);
        Set<String> aliases = new HashSet<>();
        Set<Integer> slots = new HashSet<>();
        int previous = 0;
        for (Workdir w : all) {
            if (!aliases.add(w.alias().value()) || !slots.add(w.slot())) {
                throw new IllegalArgumentException("duplicate workdir alias or slot");
            }
            if (w.slot() <= previous) {
                throw new IllegalArgumentException("workdirs must be in slot order");
            }
            previous = w.slot();
        }
    }

    /** The workdir with this alias, or {@code WORKDIR_NOT_FOUND}. */
    public Workdir require(String alias) {
        for (Workdir w : all) {
            if (w.alias().value().equals(alias)) {
                return w;
            }
        }
        throw new ServerFsException(
                ErrorCode.WORKDIR_NOT_FOUND, "'" + AgentText.printable(alias) + "' is not a configured workdir");
    }

    public boolean anyBinaryTransfer() {
        return all.stream().anyMatch(w -> w.policy().binaryTransferEnabled());
    }

    /** The MCP request-body floor: the SDK default of 4 MiB (reference §1.4). */
    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 4L * 1024 * 1024;

    /** JSON envelope allowance on top of a base64 payload (reference §1.4, v0.5). */
    public static final long REQUEST_JSON_OVERHEAD_BYTES = 64L * 1024;

    /**
     * The largest MCP request body to accept (reference §1.4 [v0.5]): 4 MiB when no workdir enables binary
     * transfer; otherwise {@code max(4 MiB, 4*ceil(maxRaw/3) + 64 KiB)}, where {@code maxRaw} is the largest
     * {@code max_binary_transfer_bytes} among binary-enabled workdirs, so a whole base64 upload fits.
     */
    public long maxRequestBodyBytes() {
        long maxRaw = all.stream()
                .filter(w -> w.policy().binaryTransferEnabled())
                .mapToLong(w -> w.policy().maxBinaryTransferBytes())
                .max()
                .orElse(0);
        if (maxRaw == 0) {
            return DEFAULT_MAX_REQUEST_BODY_BYTES;
        }
        long base64 = Math.multiplyExact(4, Math.addExact(maxRaw, 2) / 3);
        return Math.max(DEFAULT_MAX_REQUEST_BODY_BYTES, Math.addExact(base64, REQUEST_JSON_OVERHEAD_BYTES));
    }

    public boolean anyAgentEnabled() {
        return all.stream().anyMatch(w -> w.policy().agentMode() != AgentMode.DISABLED);
    }
}
