/**
 * Talking to a running child (docs/background-jobs.md §Talking to running children): one input channel per child,
 * whatever runs it (a headless process today, an interactive pane later), and receipts decided by what
 * the child itself acknowledged, never assumed.
 */
import type { Harness } from "./launch-spec.ts";

/** `steer`: reach the child during its current turn; `follow_up`: a new turn once the current one ends. */
export type SendMode = "steer" | "follow_up";

/**
 * Why a send or a stop was refused. `not_started`: the child is queued for a slot or still starting and
 * has no input channel yet (nothing was sent; send again once it runs). `not_found`: no job, call or child
 * has that id or name, or the reference matches several children (nothing was sent; the message names
 * the children there are).
 */
export type RefusalReason =
	| "exited"
	| "not_found"
	| "not_started"
	| "no_input_channel"
	| "empty_text"
	| "rejected"
	| "unacknowledged";

/**
 * The answer to one send.
 * - `delivered`: the child acknowledged the text as part of its conversation;
 * - `queued`: the child acknowledged it and will deliver it at its next turn boundary (`ack` quotes how);
 * - `refused`: nothing was written, or the child rejected it, or (`unacknowledged`) the text was written but
 *   the child did not acknowledge it in time, so whether it arrives is unknown (`reason`, `message`).
 */
export type SendReceipt =
	| { status: "delivered" | "queued"; inputId: string; ack: string }
	| { status: "refused"; reason: RefusalReason; message: string };

/** The answer to a stop request: the harness acknowledged the abort, or it cannot be asked. */
export type StopReceipt =
	| { status: "requested"; ack: string }
	| { status: "refused"; reason: RefusalReason; message: string };

/**
 * One message sent to a running child, kept in its run result. `status` moves from `queued` to `delivered`
 * when the child echoes the text as a user message of its conversation, or to `undelivered` when the run
 * ended first.
 */
export interface SentInput {
	id: string;
	mode: SendMode;
	/** The text sent (bounded to 2,000 characters here). */
	text: string;
	status: "queued" | "delivered" | "undelivered";
	/** The child's acknowledgement, in words (e.g. `pi: steer queued`). */
	ack: string;
	/** For a delivered `follow_up`: the child's answer before the follow-up (the previous turn's answer). */
	answerBefore?: string;
}

/** The input side of one running child. Implemented per kind of child (headless process, tmux pane). */
export interface ChildInputChannel {
	readonly harness: Harness;
	/** Sends `text`; resolves with the receipt once the child has acknowledged (or refused). Never rejects. */
	send(text: string, mode: SendMode): Promise<SendReceipt>;
	/** Asks the harness to abort its current turn (the caller kills after a grace period). Never rejects. */
	stop(): Promise<StopReceipt>;
}

/** What a harness's acknowledgement and echo records say about input sent to it. */
export type InputSignal =
	/** The harness answered the line with this id (pi RPC `response`, claude `control_response`). */
	| { kind: "ack"; id: string; ok: boolean; detail: string }
	/** A user message entered the conversation (pi `message_end` of role user, claude's replay). */
	| { kind: "echo"; text: string }
	/** A line the harness needs answered at once (pi's extension dialogs are dismissed, as in json mode). */
	| { kind: "reply"; line: string };

/** A line to write and whether the harness answers it with an `ack` signal of the same id. */
export interface EncodedInput {
	line: string;
	awaitsAck: boolean;
}

/**
 * A harness's stdin protocol for a conversation kept open (pi `--mode rpc`, claude `--input-format
 * stream-json`). Implemented under `harness/`, driven by the run layer.
 */
export interface InputCodec {
	/** Lines written when the child starts (the task, and any set-up command). */
	startLines(): string[];
	encodeSend(id: string, text: string, mode: SendMode): EncodedInput;
	encodeStop(id: string): EncodedInput;
	/**
	 * A line that starts a new turn once the current one has ended (pi: a `prompt` command; claude: a user
	 * message): the structured result's repair turn (docs/structured-output.md).
	 */
	encodeTurn(text: string): string;
	/** The acknowledgements and echoes one stdout record carries. */
	read(record: unknown): InputSignal[];
	/** The receipt status of an acknowledged send in this mode, and how the harness handles it, in words. */
	accepted(mode: SendMode, detail: string): { status: "delivered" | "queued"; ack: string };
	/**
	 * True when input still unechoed at the end of a turn is taken up by a further turn (claude starts one
	 * per queued user message); false when the end of a run drops it (pi's queue dies with its run).
	 */
	queuedSurvivesTurnEnd: boolean;
}
