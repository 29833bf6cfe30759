/**
 * The input channel of a headless child (docs/background-jobs.md §Talking to running children): writes the harness's
 * stdin protocol through the process layer's open stdin, and turns the harness's own acknowledgements
 * and echoes into receipts and into the run result's `inputs`.
 */
import type {
	ChildInputChannel,
	InputCodec,
	InputSignal,
	SendMode,
	SendReceipt,
	SentInput,
	StopReceipt,
} from "../core/child-input.ts";
import { ACK_TIMEOUT_MS } from "../core/graces.ts";
import type { Harness } from "../core/launch-spec.ts";
import type { RunReport } from "../core/run-result.ts";
import { timer as clampedTimer } from "../process/deadlines.ts";
import type { ProcessInput } from "../process/types.ts";

/** Characters of a sent text kept in the run result. */
export const MAX_SENT_TEXT_CHARS = 2_000;

type Ack = { ok: boolean; detail: string } | { ended: string } | { timedOut: true };

/** A channel over a harness codec. `result` is the live run result (its `inputs` are kept here). */
export class HeadlessInputChannel implements ChildInputChannel {
	readonly harness: Harness;
	readonly #input: ProcessInput;
	readonly #codec: InputCodec;
	readonly #result: RunReport;
	readonly #onChange: () => void;
	readonly #waiting = new Map<string, (ack: Ack) => void>();
	/** Full texts of inputs not yet echoed, by id (the result keeps bounded copies). */
	readonly #unechoed = new Map<string, string>();
	#count = 0;
	#endedBecause: string | undefined;
	#stopAck: string | undefined;
	#stopPending = false;
	readonly #ackTimeoutMs: number;

	/** @param ackTimeoutMs how long a send waits for its acknowledgement, ms. */
	constructor(
		harness: Harness,
		input: ProcessInput,
		codec: InputCodec,
		result: RunReport,
		onChange: () => void,
		ackTimeoutMs = ACK_TIMEOUT_MS,
	) {
		this.harness = harness;
		this.#ackTimeoutMs = ackTimeoutMs;
		this.#input = input;
		this.#codec = codec;
		this.#result = result;
		this.#onChange = onChange;
	}

	/** Writes the codec's start-up lines (the task). */
	start(): void {
		for (const line of this.#codec.startLines()) this.#input.writeLine(line);
	}

	/** Whether lines can still be written: stdin is open and no end of the conversation was decided. */
	get open(): boolean {
		return this.#closedReason() === undefined;
	}

	/**
	 * Starts a further turn after the current one ended (the structured result's repair turn,
	 * docs/structured-output.md), before stdin is closed. Returns false when the channel is closed.
	 */
	startTurn(text: string): boolean {
		if (!this.open) return false;
		this.#input.writeLine(this.#codec.encodeTurn(text));
		return true;
	}

	/** The harness's acknowledgement of a stop request, once it gave one. */
	get stopAck(): string | undefined {
		return this.#stopAck;
	}

	async send(text: string, mode: SendMode): Promise<SendReceipt> {
		if (text.trim() === "") return { status: "refused", reason: "empty_text", message: "the text is empty" };
		const closed = this.#closedReason();
		if (closed) return { status: "refused", reason: "exited", message: closed };
		const id = `input-${++this.#count}`;
		const encoded = this.#codec.encodeSend(id, text, mode);
		const ack = encoded.awaitsAck ? this.#awaitAck(id, this.#ackTimeoutMs) : undefined;
		this.#input.writeLine(encoded.line);
		const answer = ack ? await ack : { ok: true, detail: "written" };
		if ("ended" in answer) return { status: "refused", reason: "exited", message: answer.ended };
		if ("timedOut" in answer) {
			const seconds = this.#ackTimeoutMs / 1000;
			const message = `${this.harness} did not acknowledge it within ${seconds} s; it was written and may still arrive`;
			return { status: "refused", reason: "unacknowledged", message };
		}
		if (!answer.ok) {
			return { status: "refused", reason: "rejected", message: `${this.harness} rejected it: ${answer.detail}` };
		}
		// Acknowledged after the run ended: a harness whose queue dies with its run will never deliver it.
		if (this.#endedBecause && !this.#codec.queuedSurvivesTurnEnd) {
			return { status: "refused", reason: "exited", message: this.#endedBecause };
		}
		const accepted = this.#codec.accepted(mode, answer.detail);
		const sent: SentInput = {
			id,
			mode,
			text: text.length > MAX_SENT_TEXT_CHARS ? `${text.slice(0, MAX_SENT_TEXT_CHARS)}…` : text,
			status: accepted.status === "delivered" ? "delivered" : "queued",
			ack: accepted.ack,
		};
		if (sent.status === "queued") this.#unechoed.set(id, text);
		this.#result.inputs = [...(this.#result.inputs ?? []), sent];
		this.#onChange();
		return { status: accepted.status, inputId: id, ack: accepted.ack };
	}

	async stop(): Promise<StopReceipt> {
		const closed = this.#closedReason();
		if (closed) return { status: "refused", reason: "exited", message: closed };
		const id = `stop-${++this.#count}`;
		this.#stopPending = true;
		const encoded = this.#codec.encodeStop(id);
		const ack = this.#awaitAck(id);
		this.#input.writeLine(encoded.line);
		const answer = await ack;
		if ("ended" in answer) return { status: "requested", ack: this.#stopAck ?? this.#unansweredStop };
		if ("timedOut" in answer) return { status: "refused", reason: "unacknowledged", message: "no acknowledgement" };
		if (!answer.ok) return { status: "refused", reason: "rejected", message: `${this.harness}: ${answer.detail}` };
		this.#stopAck = `${this.harness}: ${answer.detail}`;
		return { status: "requested", ack: this.#stopAck };
	}

	/** Reads one stdout record for acknowledgements, echoes and lines to answer. */
	observe(record: unknown): void {
		for (const signal of this.#codec.read(record)) this.#apply(signal);
	}

	/**
	 * The harness reported the end of a turn. Closes stdin (an orderly end) unless queued input will start
	 * another turn; returns true when it closed it.
	 */
	turnEnded(): boolean {
		if (this.#codec.queuedSurvivesTurnEnd && this.#unechoed.size > 0) return false;
		// Lines already written are still answered (pi acknowledges an abort once its run has settled).
		this.#end("the child has finished its run and its input is closed; resume it to continue");
		this.#input.end();
		return true;
	}

	/** The process has ended: pending acknowledgements are answered and unechoed input is undelivered. */
	processEnded(): void {
		this.#end("the child has exited");
		// Known before the run result is settled, so the result says the stop went unanswered.
		if (this.#stopPending) this.#stopAck ??= this.#unansweredStop;
		for (const [id, resolve] of this.#waiting) {
			this.#waiting.delete(id);
			resolve({ ended: this.#endedBecause ?? "the child has exited" });
		}
	}

	#end(reason: string): void {
		this.#endedBecause ??= reason;
		if (this.#unechoed.size === 0) return;
		for (const sent of this.#result.inputs ?? []) {
			if (sent.status === "queued" && this.#unechoed.has(sent.id)) sent.status = "undelivered";
		}
		this.#unechoed.clear();
		this.#onChange();
	}

	get #unansweredStop(): string {
		return `${this.harness}: the run ended before it acknowledged the stop`;
	}

	#closedReason(): string | undefined {
		if (this.#endedBecause) return this.#endedBecause;
		return this.#input.open ? undefined : "the child has exited";
	}

	/** The acknowledgement of line `id`; `{ timedOut }` after `timeoutMs` ms when given. */
	#awaitAck(id: string, timeoutMs?: number): Promise<Ack> {
		return new Promise((resolve) => {
			const timer = timeoutMs === undefined ? undefined : clampedTimer(timeoutMs, () => answer({ timedOut: true }));
			const answer = (ack: Ack) => {
				clearTimeout(timer);
				this.#waiting.delete(id);
				resolve(ack);
			};
			this.#waiting.set(id, answer);
		});
	}

	#apply(signal: InputSignal): void {
		switch (signal.kind) {
			case "ack": {
				const resolve = this.#waiting.get(signal.id);
				this.#waiting.delete(signal.id);
				resolve?.({ ok: signal.ok, detail: signal.detail });
				return;
			}
			case "reply":
				this.#input.writeLine(signal.line);
				return;
			case "echo":
				this.#echoed(signal.text);
				return;
		}
	}

	/** The oldest unechoed input with this text is delivered (the task's own echo matches none). */
	#echoed(text: string): void {
		for (const [id, sentText] of this.#unechoed) {
			if (sentText !== text) continue;
			this.#unechoed.delete(id);
			const sent = this.#result.inputs?.find((input) => input.id === id);
			if (!sent) return;
			sent.status = "delivered";
			if (sent.mode === "follow_up") {
				// The follow-up starts a turn of its own: its answer is only what that turn says.
				sent.answerBefore = this.#result.finalAnswer;
				this.#result.finalAnswer = "";
				delete this.#result.finalAnswerWarning;
			}
			this.#onChange();
			return;
		}
	}
}

/** The channel of a child whose harness takes no input once started: every send and stop is refused. */
export class NoInputChannel implements ChildInputChannel {
	readonly harness: Harness;
	readonly #reason: string;

	constructor(harness: Harness, reason: string) {
		this.harness = harness;
		this.#reason = reason;
	}

	async send(text: string): Promise<SendReceipt> {
		if (text.trim() === "") return { status: "refused", reason: "empty_text", message: "the text is empty" };
		return { status: "refused", reason: "no_input_channel", message: this.#reason };
	}

	async stop(): Promise<StopReceipt> {
		return { status: "refused", reason: "no_input_channel", message: this.#reason };
	}
}
