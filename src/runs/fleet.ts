/**
 * The fleet registry (docs/background-jobs.md §The fleet view): the calls of this extension load whose
 * children the user can watch and steer — foreground calls, background jobs and, once they register,
 * graph nodes. A call is tracked from its start; once it ends its children are kept as they ended (the
 * whole in-memory records, not the bounded `details` copies) for the last MAX_FINISHED_CALLS calls.
 */
import type { ChildRun } from "../core/child-run.ts";
import type { FleetEntry, FleetGraphNode, FleetOrigin } from "../core/fleet.ts";

/** Finished calls kept for the fleet view; older ones are forgotten first. */
export const MAX_FINISHED_CALLS = 20;

/** What a source tells the fleet about one call. */
export interface FleetCallSource {
	id: string;
	origin: FleetOrigin;
	label: string;
	/** The call's children now (live while it runs). */
	children(): ChildRun[];
	/** Whether the call still runs; default: until `end`. */
	running?(): boolean;
	/** A graph run's: the node `child` belongs to (absent: not a graph, or no node at that position). */
	graphNode?(child: ChildRun): FleetGraphNode | undefined;
}

interface Tracked {
	source: FleetCallSource;
	/** ms since the Unix epoch. */
	startedAt: number;
	/** Set by `end`: the children as they ended. */
	ended?: ChildRun[];
}

/** The handle of a tracked call. */
export interface FleetTrack {
	/** The call has ended with `children` (whole records); kept for the view until pruned. */
	end(children: ChildRun[]): void;
}

export class Fleet {
	readonly #calls: Tracked[] = [];

	/** Lists `source`'s children from now on. */
	track(source: FleetCallSource): FleetTrack {
		const tracked: Tracked = { source, startedAt: Date.now() };
		this.#calls.push(tracked);
		return {
			end: (children) => {
				tracked.ended = children;
				this.#prune();
			},
		};
	}

	/** Every child of every kept call, newest call first, children in call order. */
	entries(): FleetEntry[] {
		return [...this.#calls].reverse().flatMap((call) => {
			const running = call.ended === undefined && (call.source.running?.() ?? true);
			const children = call.ended ?? call.source.children();
			return children.map((child) => {
				const graphNode = call.source.graphNode?.(child);
				return {
					key: `${call.source.id}/${child.index}`,
					origin: call.source.origin,
					callId: call.source.id,
					callLabel: call.source.label,
					callRunning: running,
					child,
					...(graphNode ? { graphNode } : {}),
				};
			});
		});
	}

	#prune(): void {
		const finished = this.#calls.filter((call) => call.ended !== undefined);
		for (const call of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_CALLS))) {
			this.#calls.splice(this.#calls.indexOf(call), 1);
		}
	}
}
