/**
 * The line-size guard in front of the splitter (see framing.ts). Pure: no I/O.
 *
 * Holds the current unterminated line as a list of chunks (never more than `maxLineBytes` in total) and
 * joins them once, when the line's LF arrives, so the cost of a line is linear in its size whatever the
 * chunking. An over-long line is skipped up to its LF and counted.
 */

const LF = 0x0a;

export interface LineGuard {
	/**
	 * Splits a chunk into the pieces the splitter may see: complete lines (LF included) within the limit,
	 * in order. A piece may hold several lines. O(chunk length) plus one join per completed long line.
	 */
	take(chunk: Buffer): Buffer[];
	/** At the end of the stream: the unterminated last line (within the limit), or nothing. */
	rest(): Buffer[];
}

/**
 * @param maxLineBytes longest line accepted, bytes, without its LF.
 * @param overLong called once per skipped line with its size in bytes; `cutOff` when the stream ended inside it.
 */
export function createLineGuard(maxLineBytes: number, overLong: (bytes: number, cutOff: boolean) => void): LineGuard {
	/** Chunks of the current unterminated line, joined once its LF arrives (≤ maxLineBytes in total). */
	let held: Buffer[] = [];
	let heldBytes = 0;
	/** Inside an over-long line: its bytes are counted and dropped until the next LF. */
	let skipping = false;
	let skippedBytes = 0;

	const dropHeld = (): void => {
		held = [];
		heldBytes = 0;
	};

	const take = (chunk: Buffer): Buffer[] => {
		const out: Buffer[] = [];
		/** Start of the run of complete lines in this chunk not yet handed out; -1 when none. */
		let runStart = -1;
		let runEnd = -1;
		const flushRun = (): void => {
			if (runStart >= 0) out.push(chunk.subarray(runStart, runEnd));
			runStart = -1;
		};
		let start = 0;
		while (start < chunk.length) {
			const lf = chunk.indexOf(LF, start);
			const size = (lf === -1 ? chunk.length : lf) - start;
			if (skipping) {
				skippedBytes += size;
				if (lf === -1) break;
				overLong(skippedBytes, false);
				skipping = false;
				start = lf + 1;
				continue;
			}
			if (heldBytes + size > maxLineBytes) {
				flushRun();
				// Re-enter the loop in skipping mode, which counts this piece's bytes.
				skipping = true;
				skippedBytes = heldBytes;
				dropHeld();
				continue;
			}
			if (lf === -1) {
				flushRun();
				held.push(chunk.subarray(start));
				heldBytes += size;
				break;
			}
			if (heldBytes > 0) {
				// The one join of a line that spanned chunks.
				out.push(Buffer.concat([...held, chunk.subarray(start, lf + 1)], heldBytes + size + 1));
				dropHeld();
			} else {
				if (runStart < 0) runStart = start;
				runEnd = lf + 1;
			}
			start = lf + 1;
		}
		flushRun();
		return out;
	};

	return {
		take,
		rest() {
			if (skipping) overLong(skippedBytes, true);
			skipping = false;
			const last = heldBytes > 0 ? [Buffer.concat(held, heldBytes)] : [];
			dropHeld();
			return last;
		},
	};
}
