/**
 * Stage 3, deadlines: the wall-clock timeout, the grace after the harness's terminal event, and the drain
 * window after the leader's exit. Each fires at most once; `clear…` disarms.
 */

/** setTimeout fires at once for delays above 2^31-1 ms; a "generous" timeout must not end a run early. */
const MAX_TIMER_MS = 2_147_483_647;

/** `setTimeout(fire, ms)` with `ms` clamped to 0 … 2^31-1 (about 24.8 days), so a longer delay never fires at once. */
export function timer(ms: number, fire: () => void): NodeJS.Timeout {
	return setTimeout(fire, Math.min(Math.max(0, ms), MAX_TIMER_MS));
}

export class Deadlines {
	#timeout: NodeJS.Timeout | undefined;
	#terminalGrace: NodeJS.Timeout | undefined;
	#drain: NodeJS.Timeout | undefined;

	/** Arms the run's timeout, `ms` from now. */
	startTimeout(ms: number, fire: () => void): void {
		this.#timeout = timer(ms, fire);
	}

	/** Arms the terminal grace once; false if it was already armed. */
	startTerminalGrace(ms: number, fire: () => void): boolean {
		if (this.#terminalGrace !== undefined) return false;
		this.#terminalGrace = timer(ms, fire);
		return true;
	}

	/** Arms the drain window (after the leader's exit). */
	startDrain(ms: number, fire: () => void): void {
		this.#drain = timer(ms, fire);
	}

	/** Disarms the deadlines of a running child (timeout and terminal grace). */
	clearRunning(): void {
		clearTimeout(this.#timeout);
		clearTimeout(this.#terminalGrace);
	}

	clearAll(): void {
		this.clearRunning();
		clearTimeout(this.#drain);
	}
}
