/**
 * Reads a harness's own JSONL record file as it grows (pi session file, claude transcript, codex rollout):
 * only complete lines, each once, from a starting offset. A line that is not JSON is skipped (a harness may
 * be mid-write; the next read sees it whole because only text up to the last LF is consumed).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";

/** Bytes read per poll at most; the rest waits for the next poll. */
const CHUNK_BYTES = 1024 * 1024;

export class RecordTail {
	/** The file once found. */
	file: string | undefined;
	private offset: number;
	private pending = Buffer.alloc(0);
	private readonly locate: () => string | undefined;

	/**
	 * @param locate finds the file; called on each read until it returns a path.
	 * @param fromEnd start after what the file holds now (a resumed session's earlier turns are not this run's).
	 */
	constructor(locate: () => string | undefined, fromEnd: boolean) {
		this.locate = locate;
		this.file = locate();
		this.offset = fromEnd && this.file ? sizeOf(this.file) : 0;
	}

	/** The records appended since the last call (parsed JSON values), in order. */
	read(): unknown[] {
		this.file ??= this.locate();
		if (!this.file) return [];
		let fd: number;
		try {
			fd = openSync(this.file, "r");
		} catch {
			return [];
		}
		try {
			const buffer = Buffer.alloc(CHUNK_BYTES);
			const bytes = readSync(fd, buffer, 0, CHUNK_BYTES, this.offset);
			if (bytes <= 0) return [];
			this.offset += bytes;
			this.pending = Buffer.concat([this.pending, buffer.subarray(0, bytes)]);
		} finally {
			closeSync(fd);
		}
		const end = this.pending.lastIndexOf(0x0a);
		if (end < 0) return [];
		const text = this.pending.subarray(0, end).toString("utf8");
		this.pending = this.pending.subarray(end + 1);
		const records: unknown[] = [];
		for (const line of text.split("\n")) {
			if (line.trim() === "") continue;
			try {
				records.push(JSON.parse(line));
			} catch {
				// Not a record (never expected from these files); nothing to map.
			}
		}
		return records;
	}
}

function sizeOf(file: string): number {
	try {
		return statSync(file).size;
	} catch {
		return 0;
	}
}
