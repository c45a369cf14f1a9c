/**
 * How long a browser step (a click, a wait for an element) may take before it
 * fails. Generous: the suite runs several files side by side on two cores, so
 * a message that shows in a second on an idle machine can take many under load;
 * a step that passes never waits for it.
 */
export const STEP_DEADLINE_MS = 30_000;
