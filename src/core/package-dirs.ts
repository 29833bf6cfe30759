/**
 * Where the package keeps its state under the agent dir: pi children's sessions, the live parents' holds on
 * them (docs/rules.md §Child sessions) and graph runs (docs/graphs.md §Durability).
 * Light on purpose: a session start reads it before anything else of the package loads.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** `<agent dir>/pi-native-subagents/sessions`: pi children's sessions (`--session-dir`). */
export const childSessionsDir = (agentDir: string) => join(agentDir, "pi-native-subagents", "sessions");

/** `<agent dir>/pi-native-subagents/holds`: one file per live extension load, naming what it may resume. */
export const holdsDir = (agentDir: string) => join(agentDir, "pi-native-subagents", "holds");

/**
 * Whether pi children ever ran from `agentDir` (its child session or holds directory exists): then a session
 * start loads the runtime, which applies the child-session retention, also without a settings file or a UI.
 */
export function hasChildSessions(agentDir: string): boolean {
	return existsSync(childSessionsDir(agentDir)) || existsSync(holdsDir(agentDir));
}

/** `<agent dir>/pi-native-subagents/graphs`: one directory per durable graph run (docs/graphs.md §Durability). */
export const graphRunsDir = (agentDir: string) => join(agentDir, "pi-native-subagents", "graphs");

/** Whether graph runs were ever recorded under `agentDir`: then a session start restores or prunes them. */
export function hasGraphRuns(agentDir: string): boolean {
	return existsSync(graphRunsDir(agentDir));
}
