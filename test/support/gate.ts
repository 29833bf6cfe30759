/**
 * A gate for the fake model server: requests it answers are held open until the test releases them, so a
 * test can wait for a number of requests to be in flight at once and prove a concurrency peak without
 * timing (`server.route(gate.rule(...))`).
 */
import type { RecordedRequest, RouteRule, StepData } from "./fake-model/index.ts";

export class Gate {
	readonly #held: Array<{ request: RecordedRequest; release: () => void }> = [];
	readonly #waiters = new Set<() => void>();

	/**
	 * A route rule that holds every request whose last user text starts with `prefix`, then answers it with
	 * `answer(request)`; other requests fall through to the next source.
	 */
	rule(prefix: string, answer: (request: RecordedRequest) => StepData): RouteRule {
		return (request) => {
			if (!request.lastUserText.startsWith(prefix)) return undefined;
			return new Promise<StepData>((resolve) => {
				this.#held.push({ request, release: () => resolve(answer(request)) });
				for (const waiter of [...this.#waiters]) waiter();
			});
		};
	}

	/** Requests held now. */
	get held(): number {
		return this.#held.length;
	}

	/** Answers the request held longest; throws when none is held. */
	releaseOne(): void {
		const held = this.#held.shift();
		if (!held) throw new Error("gate: no request is held");
		held.release();
	}

	/** Answers the held request whose last user text is `text` (the longest held of them); throws when none is. */
	releaseText(text: string): void {
		const index = this.#held.findIndex((held) => held.request.lastUserText === text);
		if (index < 0) throw new Error(`gate: no request with the text ${JSON.stringify(text)} is held`);
		const [held] = this.#held.splice(index, 1);
		held.release();
	}

	/** Resolves once `count` requests are held at the same time; rejects after `timeoutMs` (default 20 000). */
	waitHeld(count: number, timeoutMs = 20_000): Promise<void> {
		return new Promise((resolve, reject) => {
			const check = () => {
				if (this.#held.length < count) return;
				done();
				resolve();
			};
			const timer = setTimeout(() => {
				done();
				reject(
					new Error(`gate: ${count} requests were not held at once within ${timeoutMs} ms (${this.#held.length} held)`),
				);
			}, timeoutMs);
			const done = () => {
				clearTimeout(timer);
				this.#waiters.delete(check);
			};
			this.#waiters.add(check);
			check();
		});
	}

	/**
	 * Releases `total` held requests one at a time, each only once `limit` of them (or all that are left) are
	 * held at the same time: the limit is reached, and throws if it is ever exceeded while the releases go on.
	 */
	async releaseAll(total: number, limit: number): Promise<void> {
		for (let released = 0; released < total; released++) {
			await this.waitHeld(Math.min(limit, total - released));
			if (this.#held.length > limit) {
				throw new Error(`gate: ${this.#held.length} requests held at once, over the limit of ${limit}`);
			}
			this.releaseOne();
		}
	}
}
