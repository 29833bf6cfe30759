/**
 * Spec validation before anything starts (launch/validate-specs.ts): every child's harness is asked, and
 * all refusals come back together, each naming the child and the definition a refused setting came from.
 */
import { describe, expect, it } from "vitest";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { CODEX_COMMAND_ENV, parseCommandOverride } from "../../src/harness/native-command.ts";
import { checkHarnessesAccept } from "../../src/launch/validate-specs.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { collect } from "../support/problems.ts";

const codex = createCodexAdapter({ command: () => ({ file: "codex", args: [] }), codexHome: "/nonexistent" });

describe("checkHarnessesAccept", () => {
	it("accepts specs every harness can honour", () => {
		expect(
			collect((found) => checkHarnessesAccept([launchSpec({ harness: "codex", cwd: "/w" })], [""], { codex }, found)),
		).toEqual({
			value: true,
			problems: [],
		});
	});

	it("lists every refusal of every child, labelled with the child and the agent file or roster entry", () => {
		const specs = [
			launchSpec({
				harness: "codex",
				cwd: "/w",
				allowedTools: ["read"],
				provenance: { kind: "agent", agentName: "scout", agentFile: "/a/agents/scout.md", agentSource: "user" },
			}),
			launchSpec({
				harness: "codex",
				cwd: "/w",
				disallowedTools: ["bash"],
				provenance: { kind: "roster_entry", rosterEntry: "fixer", rosterSource: "settings" },
			}),
			launchSpec({ harness: "claude_code", cwd: "/w" }),
		];
		const { value, problems } = collect((found) =>
			checkHarnessesAccept(specs, ["task 1", "task 2", "task 3"], { codex }, found),
		);
		expect(value).toBe(false);
		expect(problems).toHaveLength(3);
		const message = problems.join("\n");
		expect(message).toContain(
			'task 1: agent "scout" (/a/agents/scout.md): codex harness: allowed_tools cannot be enforced',
		);
		expect(message).toContain(
			'task 2: roster entry "fixer" (settings file): codex harness: disallowed_tools cannot be enforced',
		);
		expect(message).toContain('task 3: harness "claude_code" is not available in this version');
	});

	it("refuses a tool both allowed and disallowed before launch, naming the tool and where the lists came from", () => {
		const specs = [
			launchSpec({ harness: "codex", cwd: "/w", allowedTools: ["read", "bash"], disallowedTools: ["read"] }),
			launchSpec({
				harness: "codex",
				cwd: "/w",
				allowedTools: ["grep"],
				disallowedTools: ["grep", "grep"],
				provenance: { kind: "agent", agentName: "scout", agentFile: "/a/agents/scout.md", agentSource: "user" },
			}),
		];
		const { value, problems } = collect((found) => checkHarnessesAccept(specs, ["task 1", "task 2"], { codex }, found));
		expect(value).toBe(false);
		expect(problems).toContain('task 1: tools: "read" is both allowed and disallowed; keep it in one list');
		expect(problems).toContain(
			'task 2: agent "scout" (/a/agents/scout.md): tools: "grep" is both allowed and disallowed; keep it in one list',
		);
		expect(problems.filter((line) => line.includes("both allowed"))).toHaveLength(2);
	});

	it("refuses an allowed rule of a tool a bare disallowed name removes (Bash(git *) and Bash), not a disallowed rule of an allowed tool", () => {
		const specs = [
			launchSpec({
				harness: "claude_code",
				cwd: "/w",
				allowedTools: ["Bash(git *)", "Read"],
				disallowedTools: ["Bash"],
			}),
			launchSpec({ harness: "claude_code", cwd: "/w", allowedTools: ["Bash"], disallowedTools: ["Bash(rm *)"] }),
			// The rule's name as claude reads it (spaces around it trimmed), and a rule matching every use.
			launchSpec({ harness: "claude_code", cwd: "/w", allowedTools: ["Bash (git *)"], disallowedTools: ["Bash(*)"] }),
		];
		const { problems } = collect((found) =>
			checkHarnessesAccept(specs, ["task 1", "task 2", "task 3"], { codex }, found),
		);
		expect(problems.filter((line) => line.includes("both allowed"))).toEqual([
			'task 1: tools: "Bash(git *)" is both allowed and disallowed; keep it in one list',
			'task 3: tools: "Bash (git *)" is both allowed and disallowed; keep it in one list',
		]);
	});

	it("reports a malformed command override as a problem of that child, beside the harness's own", () => {
		const broken = createCodexAdapter({
			command: () => parseCommandOverride(CODEX_COMMAND_ENV, "codex --yolo", '["/usr/local/bin/codex"]'),
			codexHome: "/nonexistent",
		});
		const spec = launchSpec({ harness: "codex", cwd: "/w", allowedTools: ["read"] });
		const { problems } = collect((found) => checkHarnessesAccept([spec], ["step 2"], { codex: broken }, found));
		expect(problems).toEqual([
			expect.stringMatching(new RegExp(`^step 2: ${CODEX_COMMAND_ENV} must be a JSON array`)),
			expect.stringMatching(/^step 2: codex harness: allowed_tools cannot be enforced/),
		]);
	});
});
