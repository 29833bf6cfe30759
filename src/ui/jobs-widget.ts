/**
 * The background jobs line (docs/background-jobs.md §Background jobs): while any job runs, a widget above the editor
 * lists the oldest three running jobs with their elapsed time and `+N more`, refreshed every second, also
 * while the session is idle. The `silent` setting turns it off. Reads only what it is given.
 */
import { printable } from "../core/printable.ts";
import { formatElapsed } from "./format.ts";

/** What the widget needs of a job. */
export interface JobView {
	id: string;
	label: string;
	status: string;
	/** ms since the Unix epoch. */
	startedAt: number;
}

/** Where the widget goes: Pi's `ctx.ui.setWidget` (string lines; `undefined` removes it). */
export type SetWidget = (key: string, lines: string[] | undefined) => void;

export const JOBS_WIDGET_KEY = "pi-native-subagents.jobs";
/** How many running jobs the widget names; the rest are counted. */
export const JOBS_SHOWN = 3;
const REFRESH_MS = 1_000;

/** The widget's lines for `jobs` at `now` (ms epoch), oldest first; `undefined` when none runs. */
export function jobsWidgetLines(jobs: readonly JobView[], now: number): string[] | undefined {
	const running = jobs.filter((job) => job.status === "running").sort((a, b) => a.startedAt - b.startedAt);
	if (running.length === 0) return undefined;
	const shown = running
		.slice(0, JOBS_SHOWN)
		.map((job) => `${job.id} ${printable(job.label)} · ${formatElapsed(now - job.startedAt)}`);
	const more = running.length > JOBS_SHOWN ? ` · +${running.length - JOBS_SHOWN} more` : "";
	return [`⏳ background: ${shown.join(" · ")}${more}`];
}

/** Keeps the widget in step with the jobs: call `refresh()` when a job starts or ends. */
export class JobsWidget {
	#timer: ReturnType<typeof setInterval> | undefined;
	#shown = false;
	readonly #jobs: () => readonly JobView[];
	readonly #silent: () => boolean;
	#setWidget: SetWidget | undefined;

	constructor(jobs: () => readonly JobView[], silent: () => boolean) {
		this.#jobs = jobs;
		this.#silent = silent;
	}

	/** The UI to draw in (from the session's context); `undefined` when there is none. */
	attach(setWidget: SetWidget | undefined): void {
		this.#setWidget = setWidget;
		this.refresh();
	}

	/** Redraws now, and keeps redrawing every second while a job runs. */
	refresh(): void {
		const lines = this.#silent() ? undefined : jobsWidgetLines(this.#jobs(), Date.now());
		if (lines || this.#shown) this.#setWidget?.(JOBS_WIDGET_KEY, lines);
		this.#shown = lines !== undefined;
		if (lines && !this.#timer) {
			this.#timer = setInterval(() => this.refresh(), REFRESH_MS);
			this.#timer.unref();
		} else if (!lines && this.#timer) {
			clearInterval(this.#timer);
			this.#timer = undefined;
		}
	}

	/** Removes the widget and stops refreshing. */
	close(): void {
		if (this.#timer) clearInterval(this.#timer);
		this.#timer = undefined;
		if (this.#shown) this.#setWidget?.(JOBS_WIDGET_KEY, undefined);
		this.#shown = false;
	}
}
