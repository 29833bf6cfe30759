/**
 * Where pi children keep their sessions and where live parents hold them (docs/rules.md §Child sessions).
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
