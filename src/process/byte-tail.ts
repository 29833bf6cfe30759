/**
 * A bounded tail of a byte stream: a child's stderr (`limits.stderrTailBytes`, docs/settings.md §Fixed
 * limits), and the stdout of a process read as bytes (`ProcessOptions.stdoutTailBytes`: a command gate's).
 * Pure: no I/O.
 */

/**
 * Keeps the last `maxBytes` bytes of a byte stream. Memory stays within `maxBytes` plus one chunk,
 * however much is pushed.
 */
export class ByteTail {
	readonly #maxBytes: number;
	#chunks: Buffer[] = [];
	#bytes = 0;

	/** @param maxBytes size of the kept tail, bytes; 0 keeps nothing. */
	constructor(maxBytes: number) {
		this.#maxBytes = Math.max(0, maxBytes);
	}

	push(chunk: Buffer): void {
		if (this.#maxBytes === 0 || chunk.length === 0) return;
		this.#chunks.push(chunk);
		this.#bytes += chunk.length;
		// Drop whole chunks that lie entirely before the tail; the partial one is cut in text().
		while (this.#chunks.length > 1 && this.#bytes - this.#chunks[0].length >= this.#maxBytes) {
			this.#bytes -= this.#chunks[0].length;
			this.#chunks.shift();
		}
	}

	/**
	 * The tail decoded as UTF-8. When the cut falls inside a multi-byte character, the tail starts at the
	 * next character, so it never begins with a replacement character made from half a character.
	 */
	text(): string {
		let tail = Buffer.concat(this.#chunks);
		if (tail.length > this.#maxBytes) {
			let start = tail.length - this.#maxBytes;
			// UTF-8 continuation bytes are 0b10xxxxxx; at most three follow a lead byte.
			for (let i = 0; i < 3 && start < tail.length && (tail[start] & 0xc0) === 0x80; i++) start++;
			tail = tail.subarray(start);
		}
		return tail.toString("utf8");
	}
}
