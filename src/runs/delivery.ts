/**
 * What the parent model receives for each child (docs/rules.md §Results): the final answer capped at
 * `maxBytes` / `maxLines`, the full text in an artifact when cut (for the model, or for the result's
 * `details` preview), and for failures the reason, exit code or signal, and the stderr tail.
 */
import { truncateHead } from "@earendil-works/pi-coding-agent";
import { printable } from "../core/printable.ts";
import type { RunResult } from "../core/run-result.ts";
import { writeArtifact } from "./artifacts.ts";
import { DETAILS_ANSWER_CHARS } from "./child-details.ts";
import { SCREEN_LINE } from "./run-state.ts";

export interface OutputCaps {
	/** Bytes of answer per child given to the model (default 50 KB). */
	maxBytes: number;
	/** Lines of answer per child given to the model (default 2,000). */
	maxLines: number;
}

export interface Delivery {
	/** Text for the model. */
	text: string;
	/** Set when the artifact could not be written; it is also in `text`. */
	artifactError?: string;
}

/**
 * Caps `result.finalAnswer` and writes the artifact when it was cut, here or in `details` (longer than
 * DETAILS_ANSWER_CHARS). Mutates `result.artifactPath` or, when the write failed, `result.artifactError`.
 * @param artifactName unique per run within `artifactDir`, from ids this package generates (`newArtifactCallId`).
 */
export function deliverAnswer(
	result: RunResult,
	caps: OutputCaps,
	artifactDir: string,
	artifactName: string,
): Delivery {
	const answer = result.finalAnswer;
	const cut = truncateHead(answer, { maxBytes: caps.maxBytes, maxLines: caps.maxLines });
	// truncateHead keeps whole lines only: a first line over the byte cap would leave nothing.
	let text = cut.firstLineExceedsLimit ? sliceUtf8(answer, caps.maxBytes) : cut.content;
	const delivery: Delivery = { text };
	const written =
		cut.truncated || answer.length > DETAILS_ANSWER_CHARS
			? writeArtifact(artifactDir, artifactName, answer)
			: undefined;
	if (written && "path" in written) result.artifactPath = written.path;
	else if (written) result.artifactError = written.error;
	if (written && cut.truncated) {
		const size = cut.totalBytes;
		const shownBytes = Buffer.byteLength(text, "utf8");
		const shownLines = text === "" ? 0 : text.split("\n").length;
		if ("path" in written) {
			text += `\n\n[answer truncated: ${shownLines} of ${cut.totalLines} lines, ${shownBytes} of ${size} bytes shown; full answer in ${written.path}]`;
		} else {
			delivery.artifactError = written.error;
			text += `\n\n[answer truncated: ${shownLines} of ${cut.totalLines} lines, ${shownBytes} of ${size} bytes shown; ${written.error}]`;
		}
	}
	if (result.finalAnswerWarning) text += `\n\n[warning: ${result.finalAnswerWarning}]`;
	// The parent must know the child could not do part of its work, even when it answered.
	const denials = result.permissionDenials ?? [];
	if (denials.length > 0) {
		// Tool names and inputs the child printed: one visible line each (SECURITY.md "Text from files and children").
		const list = denials.map((d) =>
			printable(`${d.toolName}${d.input === undefined ? "" : ` ${JSON.stringify(d.input)}`}`),
		);
		text += `\n\n[permission denied for ${denials.length} tool call(s): ${list.join("; ")}]`;
	}
	delivery.text = text;
	return delivery;
}

/** The first `maxBytes` bytes of `text`, never splitting a character. */
function sliceUtf8(text: string, maxBytes: number): string {
	return Buffer.from(text, "utf8")
		.subarray(0, maxBytes)
		.toString("utf8")
		.replace(/\uFFFD$/, "");
}

/**
 * One paragraph on why a run did not complete (docs/tools.md §Results: name what ran, where, how it ended,
 * what it printed): reason, command and pid with exit code or signal, cwd, stderr tail, an interactive
 * run's last screen lines (a pane has no stderr), protocol faults. The command and cwd hold names files chose (tool
 * names, paths): each is one visible line (SECURITY.md "Text from files and children"); stderr and the screen are
 * the child's output, passed on as they are.
 */
export function describeFailure(result: RunResult): string {
	const lines = [`${result.status}: ${result.error ?? "no reason reported"}`];
	const how =
		result.signal !== null ? `signal ${result.signal}` : result.exitCode !== null ? `exit code ${result.exitCode}` : "";
	lines.push(
		`process: ${printable(result.command)}${result.pid ? ` (pid ${result.pid})` : ""}${how ? `, ended with ${how}` : ""}`,
	);
	lines.push(`cwd: ${printable(result.cwd)}`);
	const stderr = result.stderrTail.trim();
	if (stderr) lines.push(`stderr (tail):\n${stderr.split("\n").slice(-20).join("\n")}`);
	const screen = result.diagnostics.filter((d) => d.startsWith(SCREEN_LINE)).map((d) => d.slice(SCREEN_LINE.length));
	if (screen.length > 0) lines.push(`screen (last lines):\n${screen.join("\n")}`);
	const faults = result.diagnostics.filter((d) => d.startsWith("protocol fault:"));
	if (faults.length > 0) lines.push(faults.join("\n"));
	return lines.join("\n");
}
