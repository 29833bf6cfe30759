/**
 * What a run in a TUI learns from the harness's own records (docs/harness-support.md "Interactive runs"):
 * RunEvents, with `done` once the records show that the turn ended. Never from the screen.
 */
import type { RunEvent } from "../core/run-event.ts";

export interface TuiRecordReader {
	/** The RunEvents of records written since the last call; includes `done` when the turn has ended. */
	poll(): RunEvent[];
}
