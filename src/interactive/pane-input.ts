/**
 * The input channel of an interactive child (docs/interactive.md; docs/background-jobs.md §Talking to running children):
 * text is typed into the harness's own TUI in its tmux pane, only once the TUI takes it into its turn (for
 * pi, once its records show its first prompt under way: text pi gets before that becomes its next prompt,
 * sent only after the turn the run ends at) and reads keystrokes (its terminal is in raw mode, which the
 * TUI sets itself when its input loop starts), never into a pane whose process has exited, and never
 * after the run has ended.
 */
import type { ChildInputChannel, SendMode, SendReceipt, SentInput, StopReceipt } from "../core/child-input.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { RunReport } from "../core/run-result.ts";
import { MAX_SENT_TEXT_CHARS } from "../runs/child-channel.ts";
import { withoutPasteMarkers } from "./pane-boundary.ts";
import type { TmuxHost } from "./tmux-host.ts";

/** ms between two looks at a starting TUI. */
const READY_POLL_MS = 100;

/** Types sends into one tmux session's pane. `result` is the live run result (its `inputs` are kept here). */
export class PaneInputChannel implements ChildInputChannel {
	readonly harness: Harness;
	readonly #host: TmuxHost;
	readonly #session: string;
	readonly #result: RunReport;
	readonly #onChange: () => void;
	#count = 0;
	#ended: string | undefined;
	/** The pane was created: from now on, no pane means the child has gone. */
	#paneStarted = false;
	/** The TUI takes typed text into its turn (see the file); until then a send waits. */
	#takesInput = false;
	/** Sends type one after the other: two texts never interleave in the editor. */
	#queue: Promise<unknown> = Promise.resolve();

	constructor(harness: Harness, host: TmuxHost, session: string, result: RunReport, onChange: () => void) {
		this.harness = harness;
		this.#host = host;
		this.#session = session;
		this.#result = result;
		this.#onChange = onChange;
	}

	/** The tmux session of the pane exists now (until then, a send waits for it). */
	paneStarted(): void {
		this.#paneStarted = true;
	}

	/** The TUI takes typed text into its turn now (`InteractiveRunOptions.onTakesInput`). */
	takesInput(): void {
		this.#takesInput = true;
	}

	/** The run has ended: later and waiting sends are refused. */
	end(reason = "the child's run has ended; resume it to continue"): void {
		this.#ended ??= reason;
	}

	send(text: string, mode: SendMode): Promise<SendReceipt> {
		// What is typed is the text without paste markers (see TmuxHost.sendText): nothing left is nothing to send.
		if (withoutPasteMarkers(text).trim() === "")
			return Promise.resolve({ status: "refused", reason: "empty_text", message: "the text is empty" });
		const receipt = this.#queue.then(() => this.#type(text, mode));
		this.#queue = receipt;
		return receipt;
	}

	async stop(): Promise<StopReceipt> {
		return {
			status: "refused",
			reason: "no_input_channel",
			message: `an interactive ${this.harness} child is stopped by cancelling its call or job, or in its own TUI`,
		};
	}

	async #type(text: string, mode: SendMode): Promise<SendReceipt> {
		const refused = await this.#untilReady();
		if (refused) return { status: "refused", reason: "exited", message: refused };
		try {
			await this.#host.sendText(this.#session, text);
		} catch (error) {
			return { status: "refused", reason: "exited", message: (error as Error).message };
		}
		const id = `input-${++this.#count}`;
		const ack = `${this.harness} TUI: typed into its editor once it was ready for input (as if typed by the user)`;
		const sent: SentInput = {
			id,
			mode,
			text: text.length > MAX_SENT_TEXT_CHARS ? `${text.slice(0, MAX_SENT_TEXT_CHARS)}…` : text,
			status: "queued",
			ack,
		};
		this.#result.inputs = [...(this.#result.inputs ?? []), sent];
		this.#onChange();
		return { status: "queued", inputId: id, ack };
	}

	/** Waits until the TUI reads keystrokes; resolves with why nothing can be sent, or undefined when ready. */
	async #untilReady(): Promise<string | undefined> {
		for (;;) {
			if (this.#ended) return this.#ended;
			const pane = await this.#host.pane(this.#session);
			if (!pane && !this.#paneStarted) {
				await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
				continue;
			}
			if (!pane || pane.dead) {
				return `the child in tmux session ${this.#session} has exited; nothing was sent`;
			}
			if (this.#takesInput && (await this.#host.readsKeystrokes(this.#session))) return undefined;
			await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
		}
	}
}
