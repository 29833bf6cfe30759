/** The one escaping of names, paths and descriptions from files (core/printable.ts) at each output boundary. */
import { describe, expect, it } from "vitest";
import { LaunchError } from "../../src/core/launch-error.ts";
import { printable } from "../../src/core/printable.ts";
import { childLabel } from "../../src/tools/result-text.ts";
import { formatToolCall, oneLine, sessionLine } from "../../src/ui/format.ts";

const HOSTILE = "evil\u001b[2J\rforged\u202e\u2028x";
const ESCAPED = "evil\\u001b[2J\\u000dforged\\u202e\\u2028x";
const RAW = /[\p{Cc}\u202e\u2028]/u;

describe("escaping text from files and children", () => {
	it("writes control, format and line-separator characters as \\uXXXX, idempotently", () => {
		expect(printable(HOSTILE)).toBe(ESCAPED);
		expect(printable(printable(HOSTILE))).toBe(ESCAPED);
		expect(printable("plain — ünïcode ✓")).toBe("plain — ünïcode ✓");
	});

	it("writes a character above U+FFFF as one escape of its whole code point, and a lone surrogate too", () => {
		// Tag characters (invisible, format) and a musical format character: each its own escape, never half of one.
		const text = "tag:\u{E0041}\u{E0042} beam:\u{1D173} lone:\ud800 x";
		expect(printable(text)).toBe("tag:\\u{e0041}\\u{e0042} beam:\\u{1d173} lone:\\ud800 x");
		expect(printable(printable(text))).toBe(printable(text));
		expect(printable("emoji 😀 stays")).toBe("emoji 😀 stays");
	});

	it("escapes every problem line of a refusal, so a quoted name cannot forge lines", () => {
		const error = new LaunchError([`unknown agent "${HOSTILE}"`, "second\nline"]);
		expect(error.problems).toEqual([`unknown agent "${ESCAPED}"`, "second\\u000aline"]);
		expect(error.message.split("\n")).toHaveLength(3);
	});

	it("escapes agent and task names in result labels and the TUI's lines", () => {
		const label = childLabel({
			index: 0,
			harness: "pi",
			task: "t",
			phase: "completed",
			agent: HOSTILE,
			taskName: HOSTILE,
		});
		expect(label).toBe(`${ESCAPED} "${ESCAPED}"`);
		expect(oneLine(`a\u001b[31m b\n c`, 100)).toBe("a\\u001b[31m b c");
		expect(sessionLine(HOSTILE)).not.toMatch(RAW);
		expect(formatToolCall(HOSTILE, { path: HOSTILE })).not.toMatch(RAW);
	});
});
