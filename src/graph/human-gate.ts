/**
 * The `human` gate (docs/graphs.md §Human gates): a question asked through Pi's UI (a select over
 * `choices`, else an input), the answer validated (one of the choices, or the `output_schema` through ajv)
 * and made the node's output; Escape refuses (`failed (declined)`). With no UI the gate fails closed, or
 * with `on_headless: "park"` the run stays unfinished until a session with a UI resumes it. Every request
 * carries a unique id; an answer to a request that is no longer open (late, or a second one) is refused.
 */
import { randomUUID } from "node:crypto";
import { validateStructuredOutput } from "../runs/structured-output.ts";
import type { HumanNode } from "./definition.ts";
import type { NodeExecution, NodeOutcome } from "./execution.ts";
import type { HumanReply, HumanRequest } from "./gate-hosts.ts";
import { fillTemplate } from "./value-refs.ts";

/** Times an answer that does not validate is asked for again before the gate fails. */
export const HUMAN_ASKS = 3;

/** The requests that wait for an answer, by id: each is answered at most once, and only while open. */
export class HumanRequests {
	readonly #open = new Map<string, (reply: HumanReply) => void>();

	/** Opens `request`; the promise settles with its one accepted answer. */
	open(request: HumanRequest): Promise<HumanReply> {
		return new Promise((resolve) => this.#open.set(request.id, resolve));
	}

	/**
	 * Answers request `id`.
	 * @returns `accepted`, or why not: an unknown id, or a request already answered or closed.
	 */
	answer(id: string, reply: HumanReply): { accepted: true } | { accepted: false; reason: string } {
		const resolve = this.#open.get(id);
		if (!resolve) return { accepted: false, reason: `request ${id} is not open (answered already, closed or unknown)` };
		this.#open.delete(id);
		resolve(reply);
		return { accepted: true };
	}

	/** Closes request `id` unanswered (its run was cancelled): a later answer is refused. */
	close(id: string): void {
		this.#open.delete(id);
	}

	get size(): number {
		return this.#open.size;
	}
}

/** Every human request of this extension load. */
export const humanRequests = new HumanRequests();

/**
 * The answer as the node's output: a choice as it is; with an `output_schema`, text that parses as JSON is
 * that value (else the text itself), validated against the schema; otherwise the text.
 * @returns the output, or why the answer is refused.
 */
export function humanOutput(node: HumanNode, answer: string): { output: unknown } | { invalid: string } {
	if (node.choices) {
		return node.choices.includes(answer)
			? { output: answer }
			: { invalid: `"${answer}" is not one of: ${node.choices.join(", ")}` };
	}
	if (!node.output_schema) return answer.trim() ? { output: answer } : { invalid: "the answer is empty" };
	let value: unknown = answer;
	try {
		value = JSON.parse(answer);
	} catch {
		// Not JSON: the text itself, checked as a string.
	}
	const check = validateStructuredOutput(node.output_schema, value);
	return check.ok ? { output: value } : { invalid: `the answer does not match output_schema: ${check.errors}` };
}

export async function runHumanNode(execution: NodeExecution): Promise<NodeOutcome> {
	const node = execution.compiled.node as HumanNode;
	const filled = fillTemplate(execution.compiled.templates.question, execution.scope);
	if ("missing" in filled) return { status: "failed", error: `question: no value for ${filled.missing.join(", ")}` };
	const host = execution.gates.human;
	if (!host?.hasUI()) {
		if (node.on_headless === "park") {
			return { status: "parked", requestId: randomUUID(), question: filled.text };
		}
		return { status: "failed", error: "declined: no UI to ask (headless); set on_headless: park to wait for one" };
	}
	if (execution.noMoreStarts.aborted) return { status: "not_started" };
	execution.onStart();
	let invalid: string | undefined;
	for (let ask = 0; ask < HUMAN_ASKS; ask++) {
		const request: HumanRequest = {
			id: randomUUID(),
			node: execution.compiled.key,
			question: filled.text,
			choices: node.choices,
			schema: node.output_schema,
			invalid,
		};
		const reply = await askOnce(execution, request);
		if (reply === "cancelled") return { status: "cancelled" };
		if ("declined" in reply) return { status: "failed", error: "declined" };
		const checked = humanOutput(node, reply.answer);
		if ("output" in checked) return { status: "completed", output: checked.output };
		invalid = checked.invalid;
	}
	return { status: "failed", error: `no valid answer after ${HUMAN_ASKS} asks: ${invalid}` };
}

/** One request: open under its id, asked in the UI, answered once; closed when the run is cancelled. */
async function askOnce(execution: NodeExecution, request: HumanRequest): Promise<HumanReply | "cancelled"> {
	const host = execution.gates.human;
	if (!host) return { declined: true };
	const answered = humanRequests.open(request);
	const cancelled = new Promise<"cancelled">((resolve) => {
		if (execution.signal.aborted) resolve("cancelled");
		execution.signal.addEventListener("abort", () => resolve("cancelled"), { once: true });
	});
	void host.ask(request, execution.signal).then(
		(reply) => humanRequests.answer(request.id, reply),
		() => humanRequests.answer(request.id, { declined: true }),
	);
	const reply = await Promise.race([answered, cancelled]);
	humanRequests.close(request.id);
	return reply;
}
