/**
 * `/subagent-send [<call>:]<child> <text>`: the user talks to a child of a foreground `subagent` call while
 * the parent model waits for it (README.md "Talking to running children"). The text steers the child; the
 * receipt is shown as a notification.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { SendReceipt } from "../core/child-input.ts";
import { findChild, type LiveInputs } from "../runs/live-inputs.ts";
import { describeReceipt } from "./jobs-tool.ts";

export const SEND_COMMAND = "subagent-send";

/**
 * Sends `args` (`<child> <text>`; `<child>` is an index, task_name or agent name, or `-` for the only
 * child) to the running foreground calls' children. A child is looked up in the newest call that has it.
 */
export async function sendFromCommand(inputs: LiveInputs, args: string): Promise<SendReceipt> {
	const match = /^\s*(\S+)\s+([\s\S]*)$/.exec(args);
	if (!match) {
		return { status: "refused", reason: "empty_text", message: `usage: /${SEND_COMMAND} <child> <text>` };
	}
	const [, ref = "", text = ""] = match;
	const calls = inputs.foreground().reverse();
	if (calls.length === 0) {
		return { status: "refused", reason: "exited", message: "no subagent call is running in the foreground" };
	}
	let lastError = "";
	for (const call of calls) {
		const found = findChild(call, ref === "-" ? undefined : ref);
		if ("channel" in found) return found.channel.send(text, "steer");
		lastError = found.error;
	}
	return { status: "refused", reason: "exited", message: lastError };
}

/** Registers the command; the receipt is shown with `ctx.ui.notify` (an error for a refusal). */
export function registerSendCommand(pi: ExtensionAPI, inputs: LiveInputs): void {
	pi.registerCommand(SEND_COMMAND, {
		description: "Steer a child of the running subagent call: /subagent-send <child index | task_name | -> <text>",
		handler: async (args, ctx) => {
			const receipt = await sendFromCommand(inputs, args);
			ctx.ui.notify(`subagent-send: ${describeReceipt(receipt)}`, receipt.status === "refused" ? "error" : "info");
		},
	});
}
