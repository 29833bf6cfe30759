/**
 * `/subagents`, the fleet view (docs/background-jobs.md §The fleet view): every child of the session in one
 * keyboard-driven list, drawn from Pi's TUI components and redrawn every second; no model turn is involved.
 * ↑↓ select, Enter the child's transcript (scrollable), `s` steer, `x` stop, cancel or (a graph node) skip
 * (confirmed), `a` attach (interactive children), `r` the result, Esc back or close.
 */
import type { Theme } from "@earendil-works/pi-coding-agent";
import { type Component, Input, matchesKey, truncateToWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import type { FleetActions, FleetEntry } from "../core/fleet.ts";
import { attachLine } from "./card.ts";
import { fleetRow, transcriptLines } from "./fleet-lines.ts";
import { Ticker } from "./ticker.ts";

/** What closing the view asks the command to do next: attach to an interactive child. */
export interface FleetOutcome {
	attach?: FleetEntry;
}

/** The TUI as the view uses it. */
export interface FleetHost {
	requestRender(): void;
	/** Terminal rows, for the height of a scrolled page. */
	rows(): number;
}

type Mode =
	| { kind: "list" }
	| { kind: "page"; key: string; title: string; lines: () => string[]; top: number }
	| { kind: "steer"; key: string; input: Input }
	| { kind: "confirm"; key: string; prompt: string };

export const FLEET_HELP =
	"↑↓ select · enter transcript · s steer · x stop/cancel/skip · a attach · r result · esc close";

export class FleetView implements Component {
	#mode: Mode = { kind: "list" };
	#selected = 0;
	/** The last action's answer, shown under the list. */
	#notice = "";
	readonly #ticker: Ticker;
	private readonly entries: () => FleetEntry[];
	private readonly actions: FleetActions;
	private readonly theme: Theme;
	private readonly host: FleetHost;
	private readonly done: (outcome: FleetOutcome) => void;

	constructor(
		entries: () => FleetEntry[],
		actions: FleetActions,
		theme: Theme,
		host: FleetHost,
		done: (outcome: FleetOutcome) => void,
	) {
		this.entries = entries;
		this.actions = actions;
		this.theme = theme;
		this.host = host;
		this.done = done;
		this.#ticker = new Ticker(() => host.requestRender());
		this.#ticker.set(true);
	}

	invalidate(): void {}

	render(width: number): string[] {
		const lines = this.#mode.kind === "page" ? this.#renderPage(this.#mode, width) : this.#renderList(width);
		return lines.map((line) => truncateToWidth(line, width));
	}

	handleInput(data: string): void {
		const mode = this.#mode;
		if (mode.kind === "page") this.#pageInput(mode, data);
		else if (mode.kind === "steer") this.#steerInput(mode, data);
		else if (mode.kind === "confirm") this.#confirmInput(mode, data);
		else this.#listInput(data);
		this.host.requestRender();
	}

	/** Stops the redraws; the view is gone. */
	dispose(): void {
		this.#ticker.stop();
	}

	#current(): FleetEntry | undefined {
		const entries = this.entries();
		this.#selected = Math.min(this.#selected, Math.max(0, entries.length - 1));
		return entries[this.#selected];
	}

	#find(key: string): FleetEntry | undefined {
		return this.entries().find((entry) => entry.key === key);
	}

	#renderList(width: number): string[] {
		const { theme } = this;
		const entries = this.entries();
		const now = Date.now();
		const lines = [theme.fg("accent", "─".repeat(width)), theme.bold(`Sub-agents of this session (${entries.length})`)];
		if (entries.length === 0) lines.push(theme.fg("muted", "  No sub-agent has run in this session yet."));
		for (const [i, entry] of entries.entries()) {
			const pointer = i === this.#selected ? theme.fg("accent", "› ") : "  ";
			lines.push(pointer + fleetRow(entry, now, theme));
		}
		const mode = this.#mode;
		if (mode.kind === "steer")
			lines.push("", theme.fg("accent", "steer (enter sends, esc cancels):"), ...mode.input.render(width));
		else if (mode.kind === "confirm") lines.push("", theme.fg("warning", `${mode.prompt}? (y/n)`));
		else if (this.#notice) lines.push("", ...wrapTextWithAnsi(this.#notice, width));
		lines.push(theme.fg("dim", FLEET_HELP), theme.fg("accent", "─".repeat(width)));
		return lines;
	}

	#renderPage(mode: Extract<Mode, { kind: "page" }>, width: number): string[] {
		const { theme } = this;
		const body = mode.lines().flatMap((line) => (line === "" ? [""] : wrapTextWithAnsi(line, width)));
		const height = Math.max(5, this.host.rows() - 6);
		mode.top = Math.max(0, Math.min(mode.top, body.length - height));
		const end = Math.min(body.length, mode.top + height);
		return [
			theme.fg("accent", "─".repeat(width)),
			theme.bold(mode.title),
			...body.slice(mode.top, end),
			theme.fg("dim", `lines ${mode.top + 1}-${end} of ${body.length} · ↑↓ pgup pgdn home end scroll · esc back`),
			theme.fg("accent", "─".repeat(width)),
		];
	}

	#listInput(data: string): void {
		const count = this.entries().length;
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.#close({});
			return;
		}
		if (matchesKey(data, "up")) this.#selected = Math.max(0, this.#selected - 1);
		else if (matchesKey(data, "down")) this.#selected = Math.min(Math.max(0, count - 1), this.#selected + 1);
		const entry = this.#current();
		if (!entry) return;
		if (matchesKey(data, "enter")) this.#openTranscript(entry);
		else if (data === "r") this.#openResult(entry);
		else if (data === "s") this.#startSteer(entry);
		else if (data === "x") this.#startStop(entry);
		else if (data === "a") this.#attach(entry);
	}

	#openTranscript(entry: FleetEntry): void {
		const sessionFile = entry.child.result?.nativeSessionId ? this.actions.sessionFile(entry) : undefined;
		this.#mode = {
			kind: "page",
			key: entry.key,
			title: "Transcript",
			top: 0,
			lines: () => transcriptLines(this.#find(entry.key) ?? entry, sessionFile, this.theme),
		};
	}

	#openResult(entry: FleetEntry): void {
		const text = this.actions.result(entry);
		this.#mode = { kind: "page", key: entry.key, title: "Result", top: 0, lines: () => text.split("\n") };
	}

	#startSteer(entry: FleetEntry): void {
		if (entry.child.phase !== "running") {
			this.#notice = this.theme.fg(
				"warning",
				`${entry.key} is ${entry.child.phase}: only a running child can be steered`,
			);
			return;
		}
		const input = new Input();
		input.focused = true;
		this.#mode = { kind: "steer", key: entry.key, input };
	}

	#startStop(entry: FleetEntry): void {
		if (!entry.callRunning) {
			this.#notice = this.theme.fg("warning", `${entry.key} has ended: nothing to stop`);
			return;
		}
		this.#mode = { kind: "confirm", key: entry.key, prompt: this.actions.stopPrompt(entry) };
	}

	#attach(entry: FleetEntry): void {
		if (!attachLine(entry.child)) {
			this.#notice = this.theme.fg(
				"warning",
				`${entry.key} has no tmux session to attach to (not interactive, or gone)`,
			);
			return;
		}
		this.#close({ attach: entry });
	}

	#pageInput(mode: Extract<Mode, { kind: "page" }>, data: string): void {
		const page = Math.max(5, this.host.rows() - 6);
		if (matchesKey(data, "escape") || data === "q") this.#mode = { kind: "list" };
		else if (matchesKey(data, "up")) mode.top -= 1;
		else if (matchesKey(data, "down")) mode.top += 1;
		else if (matchesKey(data, "pageUp")) mode.top -= page;
		else if (matchesKey(data, "pageDown") || data === " ") mode.top += page;
		else if (matchesKey(data, "home")) mode.top = 0;
		else if (matchesKey(data, "end")) mode.top = Number.MAX_SAFE_INTEGER;
		mode.top = Math.max(0, mode.top);
	}

	#steerInput(mode: Extract<Mode, { kind: "steer" }>, data: string): void {
		if (matchesKey(data, "escape")) {
			this.#mode = { kind: "list" };
			return;
		}
		if (!matchesKey(data, "enter")) {
			mode.input.handleInput(data);
			return;
		}
		const text = mode.input.getValue().trim();
		const entry = this.#find(mode.key);
		this.#mode = { kind: "list" };
		if (!text || !entry) return;
		this.#notice = this.theme.fg("muted", `steering ${entry.key}…`);
		this.#report(this.actions.steer(entry, text));
	}

	#confirmInput(mode: Extract<Mode, { kind: "confirm" }>, data: string): void {
		const entry = this.#find(mode.key);
		this.#mode = { kind: "list" };
		if ((data !== "y" && data !== "Y") || !entry) {
			this.#notice = this.theme.fg("muted", "not stopped");
			return;
		}
		this.#notice = this.theme.fg("muted", `${mode.prompt}…`);
		this.#report(this.actions.stop(entry));
	}

	#report(answer: Promise<string>): void {
		answer
			.then((line) => {
				this.#notice = line;
			})
			.catch((error: unknown) => {
				this.#notice = this.theme.fg("error", (error as Error).message);
			})
			.finally(() => this.host.requestRender());
	}

	#close(outcome: FleetOutcome): void {
		this.dispose();
		this.done(outcome);
	}
}
