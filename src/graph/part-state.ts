/**
 * The parts of a coordinator node (docs/graphs.md §Fan-out, §Feedback loops): each fan-out item and each
 * feedback round's worker and evaluator is a part with its own status, attempts, child session, usage and
 * output, kept in the node's state so a checkpoint holds them and a restore goes on from them (a completed
 * part never runs again; an interrupted one runs as its next attempt; attempts never reset). A part never
 * admitted is recorded as skipped with zero attempts.
 */
import type { NodeStatus } from "../core/graph-details.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { Usage } from "../core/run-event.ts";
import { emptyUsage } from "../core/run-result.ts";
import { sumUsages } from "../ui/format.ts";

/** A feedback round's two children. */
export type PartRole = "worker" | "evaluator";

/** Where a part sits in its node: a fan-out item's index, or a feedback round (from 1) and role. */
export interface PartPlace {
	index?: number;
	iteration?: number;
	role?: PartRole;
}

/** What a node and a part record of their run: status, attempts, who ran, when, usage and outcome. */
export interface RunRecord {
	status: NodeStatus;
	/** Admissions so far (0: never admitted; the first run is attempt 1). */
	attempts: number;
	harness?: Harness;
	agent?: string;
	model?: string;
	nativeSessionId?: string;
	/** ms since the Unix epoch. */
	startedAt?: number;
	endedAt?: number;
	usage: Usage;
	/** Completed: the validated structured output. */
	output?: unknown;
	/** Failed: the reason (a part's skip: why). */
	error?: string;
}

export interface PartState extends RunRecord, PartPlace {}

/** One change of a part; its node's key and the part's name are on the event. */
export type PartStep =
	| ({ kind: "plan" } & PartPlace)
	| ({ kind: "admit" } & PartPlace)
	| { kind: "start"; at: number; harness: Harness; agent?: string }
	| { kind: "progress"; usage: Usage; model?: string; nativeSessionId?: string }
	| { kind: "end"; at: number; status: "completed" | "failed" | "cancelled"; output?: unknown; error?: string }
	| ({ kind: "skip"; reason: string } & PartPlace);

/** `item 3`, `round 2 worker`: how a part is named (in events, live rows and result lines). */
export function partName(place: PartPlace): string {
	if (place.index !== undefined) return `item ${place.index}`;
	return `round ${place.iteration} ${place.role}`;
}

/**
 * Applies one step to a node's parts (a new object).
 * @throws Error when the step does not fit the part's state (an engine bug, never a user error).
 */
export function applyPartStep(
	parts: Readonly<Record<string, PartState>> | undefined,
	name: string,
	step: PartStep,
): Record<string, PartState> {
	const before = parts?.[name];
	const next = nextPart(before, step);
	if (!next) throw new Error(`part step ${step.kind} does not apply to part "${name}" (${before?.status ?? "absent"})`);
	return { ...parts, [name]: next };
}

function nextPart(part: PartState | undefined, step: PartStep): PartState | undefined {
	switch (step.kind) {
		case "plan": {
			if (part) return undefined;
			const { kind: _k, ...place } = step;
			return { ...place, status: "waiting", attempts: 0, usage: emptyUsage() };
		}
		case "admit": {
			if (part?.status === "completed") return undefined;
			const { kind: _k, ...place } = step;
			const { error: _e, endedAt: _end, output: _o, ...kept } = part ?? { usage: emptyUsage() };
			return { ...kept, ...place, status: "queued", attempts: (part?.attempts ?? 0) + 1 };
		}
		case "skip": {
			if (part && part.status !== "waiting") return undefined;
			const { kind: _k, reason, ...place } = step;
			return { ...place, status: "skipped", attempts: 0, usage: emptyUsage(), error: reason };
		}
		case "start":
			if (part?.status !== "queued") return undefined;
			return { ...part, status: "running", startedAt: step.at, harness: step.harness, agent: step.agent };
		case "progress":
			if (!part) return undefined;
			return {
				...part,
				usage: step.usage,
				model: step.model ?? part.model,
				nativeSessionId: step.nativeSessionId ?? part.nativeSessionId,
			};
		case "end":
			if (part?.status !== "queued" && part?.status !== "running") return undefined;
			return { ...part, status: step.status, endedAt: step.at, output: step.output, error: step.error };
	}
}

/** The usage of every part of a node, summed. */
export function partsUsage(parts: Readonly<Record<string, PartState>>): Usage {
	return sumUsages(Object.values(parts).map((part) => part.usage));
}
