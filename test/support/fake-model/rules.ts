/**
 * Fallback answers for requests no scripted step or route claimed.
 *
 * - `"echo"` (default): `echo: <last user text>`.
 * - `"rules"`: the built-in demo rules of {@link demoRules}.
 * - a function: compute the step from the request.
 */
import type { RecordedRequest, StepData, TextStep } from "./types.ts";

/** How the server answers when nothing was scripted for a request. */
export type Fallback = "echo" | "rules" | ((request: RecordedRequest) => StepData | Promise<StepData>);

/** `echo: <last user text>`. */
export function echoStep(request: RecordedRequest): TextStep {
	return { text: `echo: ${request.lastUserText}` };
}

/**
 * Built-in rules for manual runs and demos, checked in this order:
 * 1. the last message is a tool result → text `Tool said: <trimmed output>`;
 * 2. the last user text contains `TOOL:<name>:<args>` → one call of tool `<name>`; `<args>` (to the end
 *    of the line) is a JSON object, or else becomes `{"command": <args>}` (fits pi's `bash` tool);
 * 3. it contains `ERROR:<status>` → that HTTP error with message `fake model error <status>`;
 * 4. otherwise echo, delayed by `<ms>` when it contains `SLEEP:<ms>`.
 */
export function demoRules(request: RecordedRequest): StepData {
	if (request.lastToolOutput !== undefined) return { text: `Tool said: ${request.lastToolOutput.trim()}` };
	const text = request.lastUserText;
	const tool = /TOOL:([\w.-]+):(.*)/.exec(text);
	if (tool) {
		const [, name = "", rawArguments = ""] = tool;
		return { toolCalls: [{ name, arguments: toolArguments(rawArguments.trim()) }] };
	}
	const error = /ERROR:(\d{3})/.exec(text);
	if (error) {
		const status = Number(error[1]);
		return { error: { status, message: `fake model error ${status}` } };
	}
	const sleep = /SLEEP:(\d+)/.exec(text);
	return { ...echoStep(request), delayMs: sleep ? Number(sleep[1]) : 0 };
}

function toolArguments(raw: string): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(raw);
		if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
			return parsed as Record<string, unknown>;
		}
	} catch {
		// Not JSON: treat it as a shell command.
	}
	return { command: raw };
}

/** Resolve a {@link Fallback} setting to a step for this request. */
export function fallbackStep(fallback: Fallback, request: RecordedRequest): StepData | Promise<StepData> {
	if (fallback === "echo") return echoStep(request);
	if (fallback === "rules") return demoRules(request);
	return fallback(request);
}
