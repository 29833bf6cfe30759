/** The sweep at each session start (imported then, not at extension load). */
import { basename } from "node:path";
import { artifactDir, artifactRoot, pruneArtifactsWhenDue } from "./artifacts.ts";
import { sweepLeftovers } from "./leftovers.ts";

/**
 * What goes at a session start: old and excess artifact directories when the last prune is an hour old
 * (docs/tools.md §Artifacts; this session's stays), and the run and tmux directories a killed parent left (SECURITY.md "Data").
 */
export function sweepAtSessionStart(sessionId: string): void {
	const root = artifactRoot();
	pruneArtifactsWhenDue(root, { keep: basename(artifactDir(root, sessionId)) });
	sweepLeftovers();
}
