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
});
