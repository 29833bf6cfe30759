/**
 * The adapters as the extension builds them (src/harness/adapters.ts): pi at once, codex and claude only when
 * a load names them (docs/design-notes.md §Start-up cost); test/package/startup.test.ts proves a real pi call
 * imports neither module.
 */
import { describe, expect, it } from "vitest";
import { createAdapters } from "../../src/harness/adapters.ts";
import { claudeBypassRefusal } from "../../src/harness/claude/command.ts";
import { launchSpec, validationProblems } from "../support/launch-spec.ts";

describe("the harness adapters", () => {
	it("makes the pi adapter at once and the codex and claude adapters only when a load names their harness", async () => {
		const adapters = createAdapters("/nonexistent-agent-dir", {}, 1000);
		expect(Object.keys(adapters.loaded)).toEqual(["pi"]);
		await adapters.load(["pi", "codex"]);
		expect(Object.keys(adapters.loaded).sort()).toEqual(["codex", "pi"]);
		expect(adapters.loaded.codex?.harness).toBe("codex");
		const all = await adapters.all();
		expect(Object.keys(all).sort()).toEqual(["claude_code", "codex", "pi"]);
		expect(all.claude_code.harness).toBe("claude_code");
	});

	it("makes one adapter per harness when two calls load it at once", async () => {
		const adapters = createAdapters("/nonexistent-agent-dir", {}, 1000);
		await Promise.all([adapters.load(["claude_code"]), adapters.load(["claude_code", "codex"])]);
		const claude = adapters.loaded.claude_code;
		await adapters.load(["claude_code"]);
		expect(adapters.loaded.claude_code).toBe(claude);
	});

	it("refuses claude's auto_approve as root by the environment as it was when the adapters were made", async () => {
		const env: NodeJS.ProcessEnv = {};
		const adapters = createAdapters("/nonexistent-agent-dir", env, 0);
		// Set after the adapters were made, before claude's was: as before, when all three were made at once.
		env.IS_SANDBOX = "1";
		const { claude_code: claude } = await adapters.all();
		const spec = launchSpec({ harness: "claude_code", cwd: "/work/tree", autoApprove: true });
		expect(validationProblems(claude, spec)).toEqual([
			`claude_code harness: auto_approve: ${claudeBypassRefusal({}, 0)}`,
		]);
	});
});
