/**
 * Where the package keeps its state under the agent dir: pi children's sessions, the live parents' holds on
 * them and the launch records that name them on a parent's branch (docs/rules.md §Child sessions), and graph runs
 * (docs/graphs.md §Durability).
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
 * start applies the child-session retention, at most once an hour (docs/rules.md §Child sessions).
 */
export function hasChildSessions(agentDir: string): boolean {
	return existsSync(childSessionsDir(agentDir)) || existsSync(holdsDir(agentDir));
}

/** The child-session retention without a settings file (docs/settings.md, `child_sessions`): days, bytes (1 GiB). */
export const CHILD_SESSION_DEFAULTS = { max_age_days: 30, max_total_bytes: 1024 * 1024 * 1024 } as const;

/** `customType` of the launch records this package appends to a parent's branch (src/sessions/launch-record.ts). */
export const LAUNCH_RECORD_TYPE = "pi-native-subagents.launch";

/**
 * Whether `branch` holds a launch record: its session may resume those children, so a session start loads the
 * runtime, whose load holds them (docs/rules.md §Child sessions).
 */
export function hasLaunchRecords(branch: ReadonlyArray<{ type: string; customType?: string }>): boolean {
	return branch.some((entry) => entry.type === "custom" && entry.customType === LAUNCH_RECORD_TYPE);
}

/** `<agent dir>/pi-native-subagents/graphs`: one directory per durable graph run (docs/graphs.md §Durability). */
export const graphRunsDir = (agentDir: string) => join(agentDir, "pi-native-subagents", "graphs");

/** Whether graph runs were ever recorded under `agentDir`: then a session start restores or prunes them. */
export function hasGraphRuns(agentDir: string): boolean {
	return existsSync(graphRunsDir(agentDir));
}
