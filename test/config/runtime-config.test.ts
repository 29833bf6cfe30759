import { describe, expect, it } from "vitest";
import { ExtensionState } from "../../src/config/extension-state.ts";
import { loadRuntimeConfig } from "../../src/config/runtime-config.ts";
import { tempDir, writeTree } from "./helpers.ts";

describe("runtime configuration", () => {
	it("names the roster variable once when its value is a ~ path", () => {
		const agentDir = tempDir("runtime-config-");
		const config = loadRuntimeConfig(agentDir, { PI_AGENTSHELL_ROSTER_FILE: "~/r.json" }, "/");
		expect(config.rosterError?.match(/PI_AGENTSHELL_ROSTER_FILE/g)).toHaveLength(1);
		expect(config.rosterError).toContain("~");
	});

	it("reports a malformed settings file once at load, not again as the personal roster's problem", () => {
		const agentDir = tempDir("runtime-config-");
		writeTree(agentDir, { "extensions/agentshell.json": '{"limits": {"concurrency": 0}}' });
		const state = new ExtensionState(agentDir, {}, "/");
		state.reload();
		expect(state.problems).toHaveLength(1);
		expect(state.problems[0]).toContain("limits.concurrency");
		expect(state.toolState().refusal).toContain("the settings file is malformed");
	});

	it("lists a malformed settings file's roster path problems with its other problems, in one answer", () => {
		const agentDir = tempDir("runtime-config-");
		const roles = [
			{ name: "a", description: "d", agent_type: "pi", model: "m", effort: "low", cwd: "no-such-dir" },
			{ name: "a", description: "d", agent_type: "pi", model: "m", effort: "low" },
		];
		writeTree(agentDir, {
			"extensions/agentshell.json": JSON.stringify({ limits: { concurrency: 0 }, roster: { roles } }),
		});
		const state = new ExtensionState(agentDir, {}, "/");
		state.reload();
		expect(state.problems).toHaveLength(1);
		const [problem] = state.problems;
		expect(problem).toContain("limits.concurrency");
		expect(problem).toMatch(/roster\.roles\[0\] "a": cwd: .*no-such-dir/);
		expect(problem).toMatch(/roster\.roles\[1\] "a": name: duplicate name "a"/);
		expect(state.toolState().refusal).toContain("no-such-dir");
	});

	it("lists each shape problem of a settings file whose roster is malformed in shape once", () => {
		const agentDir = tempDir("runtime-config-");
		writeTree(agentDir, {
			"extensions/agentshell.json": JSON.stringify({ limits: { concurrency: 0 }, roster: { roles: [{ name: "" }] } }),
		});
		const state = new ExtensionState(agentDir, {}, "/");
		state.reload();
		expect(state.problems).toHaveLength(1);
		expect(state.problems[0]).toContain("limits.concurrency");
		expect(state.problems[0]).toContain("roster.roles[0]");
		expect(state.problems[0].match(/limits\.concurrency/g)).toHaveLength(1);
	});
});
