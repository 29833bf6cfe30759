/**
 * Stages 2 and 4, reading and drain: stdout goes through the framer into records (or, read as bytes, into a
 * bounded tail), stderr into a bounded tail. The output is drained when both pipes reached EOF, or cut when
 * the drain window after the leader's exit passes (a process outside the group may hold a pipe forever).
 */
import type { Readable, Writable } from "node:stream";
import { ByteTail } from "./byte-tail.ts";
import { createFramer } from "./framing.ts";
import type { ProcessCallbacks, RawStdout } from "./types.ts";

export class OutputReader {
	/** Framing problems: over-long records, output cut off mid-record. */
	readonly protocolFaults: string[] = [];
	/** Resolves once stdout is framed to its end (or, read as bytes, has closed) and stderr has closed (or the drain was cut). */
	readonly drained: Promise<void>;
	readonly #stdout: Readable;
	readonly #stderr: Readable;
	/** stdout's framer when it is read as records; else `#stdoutTail` keeps its bytes. */
	readonly #framer: Writable | undefined;
	readonly #stdoutTail: ByteTail | undefined;
	readonly #stderrTail: ByteTail;
	#cut = false;

	/**
	 * @param maxLineBytes longest record, bytes; @param stderrTailBytes size of the kept stderr tail, bytes.
	 * @param reading where stdout goes: records to the callbacks, or a raw tail (`RawStdout`).
	 */
	constructor(
		stdout: Readable,
		stderr: Readable,
		limits: { maxLineBytes: number; stderrTailBytes: number },
		reading: ProcessCallbacks | RawStdout,
	) {
		this.#stdout = stdout;
		this.#stderr = stderr;
		this.#stderrTail = new ByteTail(limits.stderrTailBytes);
		let stdoutDone: Promise<void>;
		if ("stdoutTailBytes" in reading) {
			const tail = new ByteTail(reading.stdoutTailBytes);
			this.#stdoutTail = tail;
			stdoutDone = new Promise<void>((resolve) => stdout.once("close", resolve));
			stdout.on("data", (chunk: Buffer) => tail.push(chunk));
		} else {
			const framer = this.#framerFor(limits.maxLineBytes, reading);
			this.#framer = framer;
			stdoutDone = new Promise<void>((resolve) => framer.once("finish", resolve));
			stdout.pipe(framer);
		}
		const stderrDone = new Promise<void>((resolve) => stderr.once("close", resolve));
		this.drained = Promise.all([stdoutDone, stderrDone]).then(() => {});
		stderr.on("data", (chunk: Buffer) => this.#stderrTail.push(chunk));
	}

	#framerFor(maxLineBytes: number, callbacks: ProcessCallbacks): Writable {
		return createFramer({
			maxLineBytes,
			onRecord: callbacks.onRecord,
			onDiagnostic: callbacks.onDiagnostic,
			onFault: (fault) => {
				this.protocolFaults.push(fault);
				callbacks.onFault?.(fault);
			},
		});
	}

	/** The stderr tail decoded as UTF-8. */
	stderrText(): string {
		return this.#stderrTail.text();
	}

	/** The stdout tail decoded as UTF-8 when stdout is read as bytes; else `undefined`. */
	stdoutText(): string | undefined {
		return this.#stdoutTail?.text();
	}

	/**
	 * Stops reading. Bytes Node has already read are still framed (or kept in the tail); then the streams are
	 * destroyed, which releases our end of pipes a stray process may keep open. Idempotent.
	 */
	cut(): void {
		if (this.#cut) return;
		this.#cut = true;
		const stdout = this.#stdout;
		const framer = this.#framer;
		if (!stdout.readableEnded) {
			if (framer) stdout.unpipe(framer);
			// Each chunk read is a `data` event too, which the raw tail takes.
			for (let chunk = stdout.read() as Buffer | null; chunk !== null; chunk = stdout.read() as Buffer | null) {
				framer?.write(chunk);
			}
			framer?.end();
		}
		stdout.destroy();
		this.#stderr.destroy();
	}
}
