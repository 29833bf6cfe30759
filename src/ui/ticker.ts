/**
 * Redraws a live view once a second while it shows a running child, so elapsed times and "last activity
 * N s ago" tick between the child's events (docs/tools.md §How results are shown). One ticker per view:
 * a tool row (kept in Pi's per-row renderer state), the fleet view, a graph node's row.
 */
import type { Component } from "@earendil-works/pi-tui";

/** ms between two redraws. */
export const TICK_MS = 1_000;

export class Ticker {
	#timer: ReturnType<typeof setInterval> | undefined;
	#live = false;
	#drawn = true;
	readonly #redraw: () => void;
	readonly #intervalMs: number;

	/** @param redraw asks for the view to be drawn again (Pi's `context.invalidate`, `tui.requestRender`). */
	constructor(redraw: () => void, intervalMs = TICK_MS) {
		this.#redraw = redraw;
		this.#intervalMs = intervalMs;
	}

	/**
	 * Whether the view shows something that ticks; call on every render of the view. Ticking starts at
	 * once and stops when `live` is false, or when the view was not drawn since the last tick (it left the
	 * screen; drawing it again, through `watch`, restarts the ticker).
	 */
	set(live: boolean): void {
		this.#live = live;
		if (live) this.#start();
		else this.stop();
	}

	/** `component`, drawn as is, telling the ticker each time it is drawn. */
	watch(component: Component): Component {
		return {
			render: (width) => {
				this.#drawn = true;
				if (this.#live) this.#start();
				return component.render(width);
			},
			invalidate: () => component.invalidate?.(),
			...(component.handleInput ? { handleInput: (data: string) => component.handleInput?.(data) } : {}),
		};
	}

	/** True while the timer runs. */
	get ticking(): boolean {
		return this.#timer !== undefined;
	}

	stop(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = undefined;
	}

	#start(): void {
		if (this.#timer) return;
		this.#drawn = true;
		this.#timer = setInterval(() => {
			if (!this.#drawn) return this.stop();
			this.#drawn = false;
			this.#redraw();
		}, this.#intervalMs);
		this.#timer.unref?.();
	}
}

/** The ticker kept in a tool row's renderer state (Pi's `context.state`), made on first use. */
export function rowTicker(context: { state?: unknown; invalidate?: () => void } | undefined): Ticker | undefined {
	if (!context?.invalidate || typeof context.state !== "object" || context.state === null) return undefined;
	const state = context.state as { ticker?: Ticker };
	const invalidate = context.invalidate;
	state.ticker ??= new Ticker(() => invalidate());
	return state.ticker;
}
