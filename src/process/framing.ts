/**
 * stdout → records (docs/design-notes.md §Processes). Pure: no I/O, so it is tested and benchmarked directly.
 *
 * Records are LF-terminated lines. `split2` (the `ndjson` package's splitter) does the splitting and the
 * streaming UTF-8 decode with a plain "\n" matcher, so U+2028/U+2029 inside JSON strings never break a
 * record (Node `readline` would). Our own step strips one trailing CR and runs JSON.parse.
 *
 * The line limit is enforced here, in front of split2, not with split2's `maxLength`:
 * - `maxLength` without `skipOverflow` errors and destroys the stream, so the child would block on a full
 *   pipe and never finish;
 * - with `skipOverflow` it keeps reading but drops the line silently, so we could not report the fault or
 *   its size, and it counts UTF-16 code units, not bytes.
 * So the guard (line-guard.ts) holds the current unterminated line as a list of chunks (never more than
 * `maxLineBytes`) and hands split2 only complete lines within the limit, each joined once: the cost of a
 * line is linear in its size (split2 re-splits everything it holds on every write, so feeding it a long
 * line chunk by chunk would be quadratic). An over-long line is skipped up to its LF, counted, and
 * reported once it ends. split2 therefore never holds a partial line.
 */
import { Writable } from "node:stream";
import split2 from "split2";
import { createLineGuard } from "./line-guard.ts";

export interface FramerOptions {
	/** Longest record accepted, bytes, not counting its LF; a longer one is skipped and reported as a fault. */
	maxLineBytes: number;
	/** One parsed JSON value per line. */
	onRecord(record: unknown): void;
	/** A line that is not JSON (a CR-stripped, non-blank line). */
	onDiagnostic(line: string): void;
	/**
	 * A protocol fault: an over-long record (with its size in bytes) or output that ended mid-record.
	 * Must not throw; if it does, that fault is dropped (there is nowhere left to report it).
	 */
	onFault(fault: string): void;
}

/**
 * Creates a Writable that takes raw stdout bytes (Buffers, any chunking) and calls back once per line, in
 * order, synchronously within each write. `end()` flushes the last unterminated line: valid JSON is still a
 * record, anything else is the fault "output ended mid-record". Blank lines are ignored.
 *
 * Never errors: a throwing callback is reported through `onFault` so one bad handler cannot stop the reading
 * of stdout (keep reading until the child is gone).
 */
export function createFramer(options: FramerOptions): Writable {
	const { maxLineBytes, onRecord, onDiagnostic } = options;
	// A throw escaping into split2 would error the stream and stop the reading of stdout.
	const onFault = (fault: string): void => {
		try {
			options.onFault(fault);
		} catch {}
	};
	let atEnd = false;

	const deliver = (line: string): undefined => {
		const text = line.endsWith("\r") ? line.slice(0, -1) : line;
		if (text.trim() === "") return undefined;
		let record: unknown;
		try {
			record = JSON.parse(text);
		} catch {
			// Only split2's flush runs after `atEnd` is set: this is the last line, which had no LF.
			if (atEnd) onFault(`output ended mid-record (${Buffer.byteLength(text)} bytes without a final LF)`);
			else guarded(onDiagnostic, text);
			return undefined;
		}
		guarded(onRecord, record);
		return undefined;
	};

	const guarded = <T>(callback: (value: T) => void, value: T): void => {
		try {
			callback(value);
		} catch (error) {
			onFault(`record handler threw: ${error instanceof Error ? error.message : String(error)}`);
		}
	};

	// The mapper delivers directly and returns undefined, so split2 pushes nothing and needs no reader.
	const splitter = split2("\n", deliver);
	const guard = createLineGuard(maxLineBytes, (bytes, cutOff) =>
		onFault(
			cutOff
				? `record of at least ${bytes} bytes exceeds maxLineBytes ${maxLineBytes} (output ended mid-record)`
				: `record of ${bytes} bytes exceeds maxLineBytes ${maxLineBytes}`,
		),
	);

	return new Writable({
		write(chunk: Buffer, _encoding, callback) {
			const pieces = guard.take(chunk);
			if (pieces.length === 0) return callback();
			for (let i = 0; i < pieces.length - 1; i++) splitter.write(pieces[i]);
			// split2 processes writes in order; the last write's callback means the whole chunk is framed.
			splitter.write(pieces[pieces.length - 1], (error) => callback(error ?? null));
		},
		final(callback) {
			const rest = guard.rest();
			atEnd = true;
			for (const piece of rest) splitter.write(piece);
			splitter.end(() => callback());
		},
	});
}
