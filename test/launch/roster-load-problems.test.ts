/**
 * A roster file with several problems, met by a call that selects one of its entries: each problem is its own
 * line naming the entry and the file's field (docs/rules.md §Rosters), not one line with the others escaped in it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExtensionState } from "../../src/config/extension-state.ts";
import { ConfigError } from "../../src/core/config-error.ts";
import { usableRosterEntry } from "../../src/launch/resolve-helpers.ts";
import { collect } from "../support/problems.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

function brokenRoster() {
	const dir = tempDir("roster-problems-");
	const file = join(dir, "roster.json");
	const role = (name: string) => ({ name, description: "d", agent_type: "pi", effort: "low" });
	writeFileSync(file, JSON.stringify({ roster: { enabled: true, roles: [role("a"), { ...role("b"), effort: "" }] } }));
	const state = new ExtensionState(dir, { PI_AGENTSHELL_ROSTER_FILE: file }, dir);
	state.reload();
	const expected = [
		`${file}: roster.roles[0] "a": model: is required (a non-empty string)`,
		`${file}: roster.roles[1] "b": model: is required (a non-empty string)`,
		`${file}: roster.roles[1] "b": effort: must not be empty`,
	];
	return { state, expected };
}

describe("a roster that failed to load with several problems", () => {
	it("refuses a call of one of its entries with each problem on its own line, naming the entry", () => {
		const { state, expected } = brokenRoster();
		const { value, problems } = collect((found) => usableRosterEntry(state.toolState().roster, "a", found));
		expect(value).toBeUndefined();
		expect(problems).toEqual(expected.map((line) => `roster entry "a": the roster could not be loaded: ${line}`));
	});

	it("refuses /agentshell-roster with each problem on its own line", () => {
		const { state, expected } = brokenRoster();
		const error = (() => {
			try {
				state.toggleRoster();
			} catch (thrown) {
				return thrown;
			}
		})();
		expect(error).toBeInstanceOf(ConfigError);
		expect((error as ConfigError).problems).toEqual(expected.map((line) => `the roster could not be loaded: ${line}`));
	});
});
