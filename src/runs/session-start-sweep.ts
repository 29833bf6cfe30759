/** The upkeep at a session start, when it is due (imported then, not at extension load). */
import { basename } from "node:path";
import { artifactRoot } from "./artifact-root.ts";
import { artifactDir, pruneArtifactsWhenDue } from "./artifacts.ts";
import { sweepLeftovers } from "./leftovers.ts";

/**
 * What goes at a session start when the last prune of the artifact root is an hour old (docs/tools.md
 * §Artifacts): old and excess artifact directories (this session's stays), then the run and tmux directories
 * that killed parents left (SECURITY.md "Data"). src/index.ts imports this module only when `artifactPruneDue`
 * says so; a start within the hour does neither.
 */
export function sweepAtSessionStart(sessionId: string, root = artifactRoot()): void {
	if (pruneArtifactsWhenDue(root, { keep: basename(artifactDir(root, sessionId)) }) === undefined) return;
	sweepLeftovers();
}
