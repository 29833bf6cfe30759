/**
 * `/subagent-send [<call>:]<child> <text>`: the user talks to a child of a foreground `subagent` call while
 * the parent model waits for it (docs/background-jobs.md §Talking to running children). The text steers the child; the
 * receipt is shown as a notification.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { SendReceipt } from "../core/child-input.ts";
import { findChild, type LiveInputs } from "../runs/live-inputs.ts";
import { receiptInWords } from "./fleet-command.ts";
import { SEND_COMMAND } from "./tool-info.ts";

/**
 * Sends `args` (`<child> <text>`; `<child>` is an index, task_name, agent name or node key, or `-` for the only
 * child) to the running foreground calls' children. The lookup stops at the newest call that has a child by that
 * reference (for `-`, any child): its answer, a send or a refusal (queued, ambiguous, ended), is the receipt. Only a
 * call with no such child passes the lookup on to the next older call.
 */
export async function sendFromCommand(inputs: LiveInputs, args: string): Promise<SendReceipt> {
	const match = /^\s*(\S+)\s+([\s\S]*)$/.exec(args);
	if (!match) {
		return { status: "refused", reason: "empty_text", message: `usage: /${SEND_COMMAND.name} <child> <text>` };
	}
	const [, ref = "", text = ""] = match;
	const calls = inputs.foreground().reverse();
	if (calls.length === 0) {
		return { status: "refused", reason: "not_found", message: "no subagent call is running in the foreground" };
	}
	let last: SendReceipt = { status: "refused", reason: "not_found", message: "" };
	for (const call of calls) {
		const found = findChild(call, ref === "-" ? undefined : ref);
		if ("channel" in found) return found.channel.send(text, "steer");
		last = { status: "refused", reason: found.reason, message: found.error };
		if (!found.noSuchChild) break;
	}
	return last;
}

/** The command's handler: sends, and shows the receipt with `ctx.ui.notify` (an error for a refusal). */
export async function handleSendCommand(inputs: LiveInputs, args: string, ctx: ExtensionCommandContext): Promise<void> {
	const receipt = await sendFromCommand(inputs, args);
	ctx.ui.notify(`/${SEND_COMMAND.name}: ${receiptInWords(receipt)}`, receipt.status === "refused" ? "error" : "info");
}
