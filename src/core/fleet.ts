/**
 * The fleet: every child of the parent session in one list (docs/background-jobs.md §The fleet view),
 * whatever started it — a foreground `subagent` call, a background job, a graph node. The registry
 * (`runs/fleet.ts`) keeps the calls; the view (`ui/fleet-view.ts`) reads these entries and asks
 * `FleetActions` to act, so neither knows the other.
 */
import type { ChildRun } from "./child-run.ts";

/** What started a call's children. A graph registers its nodes as `graph`. */
export type FleetOrigin = "foreground" | "background" | "graph";

/** One child of the session as the fleet lists it. */
export interface FleetEntry {
	/** `<call id>/<child index>`: stable while the call is kept. */
	key: string;
	origin: FleetOrigin;
	/** Job id, foreground call id or graph id. */
	callId: string;
	/** The call's label (`parallel: scout "a", …`). */
	callLabel: string;
	/** Whether the call still runs (a finished child of a running job is not running, its job is). */
	callRunning: boolean;
	/** The child: live while it runs, its whole in-memory record once it ended. */
	child: ChildRun;
	/** A graph node's child (foreground or background run): the node a stop acts on. */
	graphNode?: FleetGraphNode;
}

/** The graph run and node a node's child belongs to (docs/graphs.md §Controls). */
export interface FleetGraphNode {
	runId: string;
	/** The node's key, as `/graph skip <run_id> <node>` takes it (a fan-out item's or round's node). */
	node: string;
	/** Skips the node through the run's controls (a running node is killed first); the answer, in words. */
	skip(): Promise<string>;
}

/** What the fleet view can do to an entry; each answers with a line to show. */
export interface FleetActions {
	/** The child's session file in its harness's store, when it has one (for the transcript). */
	sessionFile(entry: FleetEntry): string | undefined;
	/** Sends `text` to the running child (steer); the receipt, in words. */
	steer(entry: FleetEntry, text: string): Promise<string>;
	/** What `stop` would do, for the confirmation (`cancel background job 1a2b…`). */
	stopPrompt(entry: FleetEntry): string;
	/**
	 * Stops the child: a graph node is skipped through its run's controls, a background job is cancelled, a
	 * foreground child asked to end its turn.
	 */
	stop(entry: FleetEntry): Promise<string>;
	/** The text the parent model got for the child's call (or the child's answer so far). */
	result(entry: FleetEntry): string;
}
