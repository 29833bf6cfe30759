/**
 * Stage 2b, input: the open stdin of a child started with `openStdin` (e.g. `pi --mode rpc` or
 * `claude --input-format stream-json`, which read JSON commands line by line). Closing stdin is the
 * orderly end of such a child's input.
 */
import type { Writable } from "node:stream";
import type { ProcessInput } from "./types.ts";

/** Wraps the child's stdin; writes after `end()`, or after the pipe broke (EPIPE), are refused, never thrown. */
export function childInput(stdin: Writable): ProcessInput {
	let open = true;
	const close = (): void => {
		open = false;
	};
	stdin.on("error", close);
	stdin.once("close", close);
	return {
		writeLine(line) {
			if (!open || !stdin.writable) return false;
			stdin.write(`${line}\n`);
			return true;
		},
		end() {
			if (!open) return;
			open = false;
			stdin.end();
		},
		get open() {
			return open && stdin.writable;
		},
	};
}
