/**
 * Actions for the scripted pi stand-in (test/support/fault-cli/pi-script.mjs): the pi `--mode json`
 * records run tests play, so each test names only what is special about its child.
 */
import { resolve } from "node:path";

/** The stand-in's path; run it as `node <PI_SCRIPT> '<actions as JSON>'`. */
export const PI_SCRIPT = resolve(import.meta.dirname, "fault-cli/pi-script.mjs");

/** pi's first record: the session header with id `scripted-session`. */
export const session = { emit: { type: "session", id: "scripted-session" } };

/** pi's terminal record of a settled run. */
export const settled = { emit: { type: "agent_settled", aborted: false } };

/** A complete assistant message with `text` (10 input, 5 output tokens, USD 0.001). */
export const answer = (text: string) => ({
	emit: {
		type: "message_end",
		message: {
			role: "assistant",
			content: [{ type: "text", text }],
			provider: "fake",
			model: "fake-model",
			usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.001 } },
			stopReason: "stop",
		},
	},
});

/** A streamed text delta of an unfinished assistant message. */
export const delta = (text: string) => ({
	emit: { type: "message_update", assistantMessageEvent: { type: "text_delta", delta: text } },
});
