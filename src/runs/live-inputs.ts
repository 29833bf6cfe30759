/**
 * The input channels of running children, by call (docs/background-jobs.md §Talking to running children): a
 * background job's id or a foreground call's id, then the child's position. A channel is listed from the
 * child's start until the call ends; a finished child's channel stays and refuses with `exited`; a child
 * with no channel yet (queued for a slot, or starting) is refused with `not_started`.
 */
import type { ChildInputChannel, RefusalReason } from "../core/child-input.ts";
import type { ChildRun } from "../core/child-run.ts";
import { printable } from "../core/printable.ts";

/** One call whose children can be sent input. */
export interface LiveCall {
	/** Job id, or the foreground call's tool call id. */
	id: string;
	background: boolean;
	/** The call's children (live list). */
	children: () => ChildRun[];
	channels: Map<number, ChildInputChannel>;
}

/**
 * What a child reference matched: a channel, or why none was found (and the refusal reason it gives). `noSuchChild`
 * marks the one answer that says the call has no child by that reference (for none, no child at all): the only
 * one after which `/subagent-send` looks in an older call.
 */
export type ChildLookup =
	| { channel: ChildInputChannel; child: ChildRun }
	| { error: string; reason: RefusalReason; noSuchChild?: true };

/** The live calls of one extension load. */
export class LiveInputs {
	readonly #calls = new Map<string, LiveCall>();

	/** Registers a call; returns the function that records a child's channel, and the one that ends the call. */
	open(id: string, background: boolean, children: () => ChildRun[]) {
		const call: LiveCall = { id, background, children, channels: new Map() };
		this.#calls.set(id, call);
		return {
			onInput: (index: number, channel: ChildInputChannel) => call.channels.set(index, channel),
			close: () => this.#calls.delete(id),
		};
	}

	get(id: string): LiveCall | undefined {
		return this.#calls.get(id);
	}

	/** Foreground calls running now, oldest first. */
	foreground(): LiveCall[] {
		return [...this.#calls.values()].filter((call) => !call.background);
	}
}

/**
 * The child `ref` names in `call`: its 0-based index (a number, or digits), or its `task_name`, agent or
 * roster entry name, or (a graph node's child) its node key; digits that are both an index and another child's
 * name are ambiguous. Without `ref`, the call's only child.
 */
export function findChild(call: LiveCall, ref: string | number | undefined): ChildLookup {
	const children = call.children();
	let matches: ChildRun[];
	if (ref === undefined || ref === "") {
		matches = children.length === 1 ? children : [];
		if (matches.length === 0)
			return {
				error: `call ${call.id} has ${children.length} children; name one (index or task_name)${childList(children)}`,
				reason: "not_found",
				...(children.length === 0 ? { noSuchChild: true as const } : {}),
			};
	} else if (typeof ref === "number") {
		matches = children.filter((child) => child.index === ref);
	} else {
		// Digits are an index, and also a name a child may have (`task_name: "2"`): both are looked for.
		const index = /^\d+$/.test(ref) ? Number(ref) : undefined;
		matches = children.filter(
			(child) => child.index === index || child.taskName === ref || child.agent === ref || child.nodeKey === ref,
		);
	}
	// The reference and the children's names (a task name, an agent file's name) are shown as one visible line each.
	const shown = printable(String(ref));
	if (matches.length > 1)
		return {
			error: `"${shown}" names ${matches.length} children of call ${call.id}; use an index${childList(children)}`,
			reason: "not_found",
		};
	const child = matches[0];
	if (!child) {
		return {
			error: `no child "${shown}" in call ${call.id}${childList(children)}`,
			reason: "not_found",
			noSuchChild: true,
		};
	}
	const channel = call.channels.get(child.index);
	if (channel) return { channel, child };
	const where = `child ${child.index} of call ${call.id}`;
	if (child.phase === "pending") {
		return {
			error: `${where} is queued (for a slot or an earlier step) and has not started; nothing was sent`,
			reason: "not_started",
		};
	}
	if (child.phase === "running") {
		return { error: `${where} is still starting and takes no input yet; nothing was sent`, reason: "not_started" };
	}
	return { error: `${where} ended (${child.phase}) without an input channel; nothing was sent`, reason: "exited" };
}

/**
 * The children of a call as a refusal lists them, each by its index and its names shown as one visible line:
 * `; its children are 0 (docs), 1 (work or reviewer)`; nothing for a call with no children.
 */
function childList(children: ChildRun[]): string {
	if (children.length === 0) return "";
	const listed = children.map((c) => {
		const shownNames = childNames(c).map(printable);
		return `${c.index}${shownNames.length > 0 ? ` (${shownNames.join(" or ")})` : ""}`;
	});
	return `; its children are ${listed.join(", ")}`;
}

/** The names a child is listed by: its node key (a graph node's child), then its `task_name`, else its agent. */
function childNames(child: ChildRun): string[] {
	const names = [child.nodeKey, child.taskName || child.agent].filter((name): name is string => !!name);
	return [...new Set(names)];
}
