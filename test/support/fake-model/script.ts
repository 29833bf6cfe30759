/**
 * Which step answers a request. Pure bookkeeping, no I/O.
 *
 * Order of sources for each request (the first that yields a step wins):
 * 1. marker queues, in the order they were first scripted: a queue applies when its marker occurs in the
 *    request's system prompt or in any user message (so a child's whole conversation stays on its
 *    queue, including the turns after tool results), and is used up one step per request;
 * 2. route rules, in the order they were added (never used up);
 * 3. the shared queue from `script(...)`;
 * 4. the fallback.
 * An exhausted marker queue falls through to 2–4.
 */
import { type Fallback, fallbackStep } from "./rules.ts";
import type { RecordedRequest, RouteRule, Step, StepData } from "./types.ts";

export class Script {
	readonly #shared: Step[] = [];
	readonly #byMarker = new Map<string, Step[]>();
	readonly #routes: RouteRule[] = [];
	readonly #fallback: Fallback;

	constructor(fallback: Fallback) {
		this.#fallback = fallback;
	}

	/** Append steps to the shared queue. */
	push(steps: Step[]): void {
		this.#shared.push(...steps);
	}

	/** Append steps to the queue of `marker` (a plain substring, case-sensitive). */
	pushFor(marker: string, steps: Step[]): void {
		const queue = this.#byMarker.get(marker) ?? [];
		queue.push(...steps);
		this.#byMarker.set(marker, queue);
	}

	/** Add a route rule; the returned function removes it. */
	addRoute(rule: RouteRule): () => void {
		this.#routes.push(rule);
		return () => {
			const at = this.#routes.indexOf(rule);
			if (at >= 0) this.#routes.splice(at, 1);
		};
	}

	/** Number of queued steps not yet used (shared and marker queues together). */
	pending(): number {
		let count = this.#shared.length;
		for (const queue of this.#byMarker.values()) count += queue.length;
		return count;
	}

	/** The step for this request; consumes one queued step when a queue supplies it. */
	async next(request: RecordedRequest): Promise<StepData> {
		for (const [marker, queue] of this.#byMarker) {
			const step = queue[0];
			if (step !== undefined && mentions(request, marker)) {
				queue.shift();
				return typeof step === "function" ? step(request) : step;
			}
		}
		for (const rule of [...this.#routes]) {
			const step = await rule(request);
			if (step !== undefined) return step;
		}
		const step = this.#shared.shift();
		if (step !== undefined) return typeof step === "function" ? step(request) : step;
		return fallbackStep(this.#fallback, request);
	}
}

function mentions(request: RecordedRequest, marker: string): boolean {
	return request.systemPrompt.includes(marker) || request.userTexts.some((text) => text.includes(marker));
}
