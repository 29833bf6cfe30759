import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/config-error.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { CODEX_COMMAND_ENV, resolveNativeCommand } from "../../src/harness/native-command.ts";
import { launchSpec, validationProblems } from "../support/launch-spec.ts";

describe("native command overrides", () => {
	it("starts the CLI from PATH without an override, and from the JSON array with one", () => {
		expect(resolveNativeCommand(CODEX_COMMAND_ENV, "codex", {})).toEqual({ file: "codex", args: [] });
		expect(resolveNativeCommand(CODEX_COMMAND_ENV, "codex", { [CODEX_COMMAND_ENV]: '["node","/x/codex.js"]' })).toEqual(
			{ file: "node", args: ["/x/codex.js"] },
		);
	});

	it("refuses launches, not the extension's load, when an override is malformed", () => {
		const env = { [CODEX_COMMAND_ENV]: "codex --fast" };
		expect(() => resolveNativeCommand(CODEX_COMMAND_ENV, "codex", env)).toThrow(ConfigError);
		const adapter = createCodexAdapter({
			command: () => resolveNativeCommand(CODEX_COMMAND_ENV, "codex", env),
			codexHome: "/unused",
		});
		expect(
			validationProblems(adapter, launchSpec({ harness: "codex", task: "t", cwd: "/w", allowedTools: ["read"] })),
		).toEqual([
			`${CODEX_COMMAND_ENV} must be a JSON array of non-empty strings, e.g. ["/usr/local/bin/codex"]; got "codex --fast"`,
			"codex harness: allowed_tools cannot be enforced: codex exec has no tool allow list (use the sandbox instead)",
		]);
	});
});
