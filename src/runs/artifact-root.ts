/**
 * Where full-result artifacts live (docs/tools.md §Artifacts) and when a session start prunes them: light on
 * purpose (Node built-ins and the upkeep stamp), so a session start that finds the prune not due loads none
 * of the prune's modules (src/runs/session-start-sweep.ts runs it, with the leftovers sweep, when it is due).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { upkeepDue } from "../core/upkeep-stamp.ts";

/**
 * A session start prunes only when the root's last prune is older than this (ms: 1 hour), so a start costs
 * two `lstat`s (the root's, the stamp's) however many session directories the root holds (docs/tools.md §Artifacts).
 */
export const ARTIFACT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * The stamp of the root's last prune: its mtime is when it ran. The `~` is never in a session directory's
 * name (`artifactDir` turns it into `_`), so no session can own the name.
 */
export const PRUNE_STAMP = ".last-prune~";

/** The per-user artifact root: `<tmpdir>/pi-native-subagents-<uid>` (docs/tools.md §Artifacts). */
export function artifactRoot(): string {
	return join(tmpdir(), `pi-native-subagents-${process.getuid?.() ?? "user"}`);
}

/**
 * Whether a session start prunes `root` at `now` (ms since the epoch): its {@link PRUNE_STAMP} is not trusted or is
 * `intervalMs` old or more ({@link upkeepDue}: a stamp that is a symlink or a hard link, not this user's, writable
 * by others, dated after `now`, or in a root others may write to is not trusted). Never throws.
 */
export function artifactPruneDue(root: string, now = Date.now(), intervalMs = ARTIFACT_PRUNE_INTERVAL_MS): boolean {
	return upkeepDue(root, join(root, PRUNE_STAMP), intervalMs, now);
}
