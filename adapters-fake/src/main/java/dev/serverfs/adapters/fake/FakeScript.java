package dev.serverfs.adapters.fake;

/**
 * A fake prompt split into its test modifiers and the script that follows them ({@code hold:wait:} is modifier
 * {@code hold:} and script {@code wait:}). Both sides read it: the child ({@link FakeProvider}) for how it answers
 * {@code CANCEL} and a closed stdin, the parent ({@link FakeAgentRuntime}) for how it cancels and stops the child.
 */
record FakeScript(boolean hold, boolean unstoppable, boolean stallCancel, boolean resultOnCancel, String script) {
    static final String HOLD = "hold:";
    static final String UNSTOPPABLE = "unstoppable:";
    static final String STALL_CANCEL = "stall-cancel:";
    static final String RESULT_ON_CANCEL = "result-on-cancel:";

    static FakeScript parse(String prompt) {
        boolean hold = false;
        boolean unstoppable = false;
        boolean stallCancel = false;
        boolean resultOnCancel = false;
        String rest = prompt;
        while (true) {
            if (rest.startsWith(HOLD)) {
                hold = true;
                rest = rest.substring(HOLD.length());
            } else if (rest.startsWith(UNSTOPPABLE)) {
                unstoppable = true;
                rest = rest.substring(UNSTOPPABLE.length());
            } else if (rest.startsWith(STALL_CANCEL)) {
                stallCancel = true;
                rest = rest.substring(STALL_CANCEL.length());
            } else if (rest.startsWith(RESULT_ON_CANCEL)) {
                resultOnCancel = true;
                rest = rest.substring(RESULT_ON_CANCEL.length());
            } else {
                return new FakeScript(hold, unstoppable, stallCancel, resultOnCancel, rest);
            }
        }
    }

    /** The child neither stops on {@code CANCEL} nor on a closed stdin: only a signal ends it. */
    boolean ignoresStop() {
        return hold || unstoppable;
    }
}
