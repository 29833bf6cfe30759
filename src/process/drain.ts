/**
 * Stages 2 and 4, reading and drain: stdout goes through the framer into records, stderr into a bounded
 * tail. The output is drained when both pipes reached EOF, or cut when the drain window after the leader's
 * exit passes (a process outside the group may hold a pipe forever).
 */
import type { Readable } from "node:stream";
import { createFramer } from "./framing.ts";
import { StderrTail } from "./stderr-tail.ts";
import type { ProcessCallbacks } from "./types.ts";

export class OutputReader {
	/** Framing problems: over-long records, output cut off mid-record. */
	readonly protocolFaults: string[] = [];
	/** Resolves once stdout is framed to its end and stderr has closed (or the drain was cut). */
	readonly drained: Promise<void>;
	readonly #stdout: Readable;
	readonly #stderr: Readable;
	readonly #framer;
	readonly #stderrTail: StderrTail;
	#cut = false;

	/**
	 * @param maxLineBytes longest record, bytes; @param stderrTailBytes size of the kept stderr tail, bytes.
	 */
	constructor(
		stdout: Readable,
		stderr: Readable,
		limits: { maxLineBytes: number; stderrTailBytes: number },
		callbacks: ProcessCallbacks,
	) {
		this.#stdout = stdout;
		this.#stderr = stderr;
		this.#stderrTail = new StderrTail(limits.stderrTailBytes);
		this.#framer = createFramer({
			maxLineBytes: limits.maxLineBytes,
			onRecord: callbacks.onRecord,
			onDiagnostic: callbacks.onDiagnostic,
			onFault: (fault) => {
				this.protocolFaults.push(fault);
				callbacks.onFault?.(fault);
			},
		});
		const stdoutDone = new Promise<void>((resolve) => this.#framer.once("finish", resolve));
		const stderrDone = new Promise<void>((resolve) => stderr.once("close", resolve));
		this.drained = Promise.all([stdoutDone, stderrDone]).then(() => {});
		stdout.pipe(this.#framer);
		stderr.on("data", (chunk: Buffer) => this.#stderrTail.push(chunk));
	}

	/** The stderr tail decoded as UTF-8. */
	stderrText(): string {
		return this.#stderrTail.text();
	}

	/**
	 * Stops reading. Bytes Node has already read are still framed; then the streams are destroyed, which
	 * releases our end of pipes a stray process may keep open. Idempotent.
	 */
	cut(): void {
		if (this.#cut) return;
		this.#cut = true;
		const stdout = this.#stdout;
		if (!stdout.readableEnded) {
			stdout.unpipe(this.#framer);
			for (let chunk = stdout.read() as Buffer | null; chunk !== null; chunk = stdout.read() as Buffer | null) {
				this.#framer.write(chunk);
			}
			this.#framer.end();
		}
		stdout.destroy();
		this.#stderr.destroy();
	}
}
