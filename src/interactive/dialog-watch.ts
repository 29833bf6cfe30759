/**
 * Watching an interactive child's screen for its harness's first-run dialogs (docs/interactive.md
 * "First-run dialogs"): while one shows, the run result says so (`interactive.waitingOn`, with the
 * dialog's line; the attach command is already there), and a dialog still shown after
 * `interactive.dialog_timeout_ms` ends the run, unless the session is kept open (`stay_open`). A cursor or
 * spinner that changes meanwhile is no progress: only the dialog going away is.
 */
import type { Harness } from "../core/launch-spec.ts";
import type { InteractiveInfo } from "../core/run-result.ts";
import { shownDialog } from "../harness/first-run-dialogs.ts";

/** Most characters of the screen kept in the error of a run ended on a dialog. */
const MAX_SCREEN_CHARS = 4000;

/** Why the watch ends a run: the dialog's description and the screen it left. */
export interface DialogEnding {
	kind: "dialog";
	waitingOn: string;
	idleMs: number;
	screen: string;
}

export class DialogWatch {
	readonly #harness: Harness;
	readonly #timeoutMs: number | null;
	readonly #info: InteractiveInfo;
	/** When the dialog shown now first showed, ms since the epoch. */
	#since = 0;

	/** @param timeoutMs null: a dialog never ends the run (`stay_open`). */
	constructor(harness: Harness, timeoutMs: number | null, info: InteractiveInfo) {
		this.#harness = harness;
		this.#timeoutMs = timeoutMs;
		this.#info = info;
	}

	/**
	 * Looks at one screen, seen at `now` (ms since the epoch). Returns whether `waitingOn` changed, and the
	 * ending once one dialog has shown for the timeout.
	 */
	look(screen: string, now: number): { changed: boolean; ending?: DialogEnding } {
		const dialog = shownDialog(this.#harness, screen);
		const waitingOn = dialog && `its ${this.#harness} ${dialog.what} dialog: "${dialog.line}"`;
		const changed = waitingOn !== this.#info.waitingOn;
		if (changed) this.#since = now;
		if (waitingOn) this.#info.waitingOn = waitingOn;
		else delete this.#info.waitingOn;
		const idleMs = now - this.#since;
		if (!waitingOn || this.#timeoutMs === null || idleMs < this.#timeoutMs) return { changed };
		return { changed, ending: { kind: "dialog", waitingOn, idleMs, screen: screenText(screen) } };
	}
}

/** The screen's non-blank lines, right-trimmed, bounded to {@link MAX_SCREEN_CHARS}. */
function screenText(screen: string): string {
	const text = screen
		.split("\n")
		.map((line) => line.trimEnd())
		.filter((line) => line !== "")
		.join("\n");
	return text.length > MAX_SCREEN_CHARS ? `${text.slice(0, MAX_SCREEN_CHARS - 1)}…` : text;
}
