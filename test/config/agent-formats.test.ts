/**
 * The agent file formats of other tools (docs/agent-libraries.md): what each key of a Claude Code file, a
 * codex custom agent and a pi-subagents file becomes, what is refused by name, and how a definition is
 * translated onto another harness.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { parseClaudeAgentFile } from "../../src/config/agent-claude.ts";
import { parseCodexAgentFile } from "../../src/config/agent-codex.ts";
import { parseAgentFile } from "../../src/config/agents.ts";
import { nearestName } from "../../src/core/nearest-name.ts";
import { Problems } from "../../src/core/problems.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { translateAgent } from "../../src/launch/agent-translation.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

const parsed = <T>(parse: (problems: Problems) => T) => {
	const problems = new Problems();
	const value = parse(problems);
	return { value, problems: [...problems.list] };
};

describe("Claude Code agent files", () => {
	it("hands the claude-only keys claude applies to its --agents definition and ignores color", () => {
		const { value, problems } = parsed((p) =>
			parseClaudeAgentFile(
				"---\nname: rev\ndescription: Reviews\ntools: Read, Grep\nmodel: sonnet\neffort: high\npermissionMode: acceptEdits\nmaxTurns: 3\nmcpServers: [github]\nomitClaudeMd: true\ncolor: red\n---\nBODY\n",
				"/u/.claude/agents/rev.md",
				"user",
				p,
			),
		);
		expect(problems).toEqual([]);
		expect(value).toMatchObject({ harness: "claude_code", format: "claude", model: "sonnet", effort: "high" });
		expect(value?.ignoredKeys).toEqual(["color"]);
		expect(value?.claude?.definition).toEqual({
			description: "Reviews",
			tools: ["Read", "Grep"],
			permissionMode: "acceptEdits",
			maxTurns: 3,
			mcpServers: ["github"],
			omitClaudeMd: true,
		});
	});

	it("reads an unquoted description holding ': ' as one string, as public Claude Code agents write it", () => {
		const description =
			'Use this agent to run tests. Examples: <example>Context: code changed. user: "Run them" assistant: "Running"</example>';
		const { value, problems } = parsed((p) =>
			parseClaudeAgentFile(
				`---\nname: test-runner\ndescription: ${description}\nmodel: opus\n---\nRun tests.\n`,
				"/u/.claude/agents/test-runner.md",
				"user",
				p,
			),
		);
		expect(problems).toEqual([]);
		expect(value).toMatchObject({ name: "test-runner", description, model: "opus" });
	});

	it("refuses a maxTurns that is not a positive whole number and an omitClaudeMd that is not true or false", () => {
		// Else claude fails at launch naming only its temporary --agents file (maxTurns), or the key changes nothing.
		for (const [lines, problem] of [
			["maxTurns: many", "maxTurns: expected a positive whole number of turns, got string"],
			["maxTurns: 0", "maxTurns: expected a positive whole number of turns, got 0"],
			["maxTurns: 2.5", "maxTurns: expected a positive whole number of turns, got 2.5"],
			["omitClaudeMd: yes", "omitClaudeMd: expected true or false, got string"],
		]) {
			const { value, problems } = parsed((p) =>
				parseClaudeAgentFile(`---\nname: r\ndescription: d\n${lines}\n---\n`, "/f.md", "user", p),
			);
			expect({ value, problems }, lines).toEqual({ value: undefined, problems: [problem] });
		}
		const empty = parsed((p) =>
			parseClaudeAgentFile("---\nname: r\ndescription: d\nmaxTurns:\n---\n", "/f.md", "user", p),
		);
		expect(empty.problems).toEqual([]);
		expect(empty.value?.claude?.definition).toEqual({ description: "d" });
	});

	it("reads an unquoted description holding ': ' in a file with CRLF or CR line ends, as with LF", () => {
		const description = "Use it to review. Examples: <example>Context: a change</example>";
		const lf = `---\nname: rev\ndescription: ${description}\nmodel: opus\n---\nReview.\n`;
		for (const [ends, content] of [
			["CRLF", lf.replace(/\n/g, "\r\n")],
			["CR", lf.replace(/\n/g, "\r")],
			["BOM and CRLF", `\ufeff${lf.replace(/\n/g, "\r\n")}`],
		]) {
			for (const parse of [parseClaudeAgentFile, parseAgentFile]) {
				const { value, problems } = parsed((p) => parse(content, "/u/agents/rev.md", "user", p));
				expect(problems, `${ends} ${parse.name}`).toEqual([]);
				expect(value, `${ends} ${parse.name}`).toMatchObject({ name: "rev", description, model: "opus" });
			}
		}
	});

	it("still refuses frontmatter that is not YAML for another reason", () => {
		const { value, problems } = parsed((p) =>
			parseClaudeAgentFile("---\nname: [broken\ndescription: d\n---\n", "/f.md", "user", p),
		);
		expect(value).toBeUndefined();
		expect(problems[0]).toMatch(/^frontmatter is not valid YAML: /);
	});

	it("refuses isolation and an unknown key by name, suggesting the nearest key", () => {
		const { value, problems } = parsed((p) =>
			parseClaudeAgentFile("---\nname: r\ndescription: d\nisolation: worktree\ntols: Read\n---\n", "/f.md", "user", p),
		);
		expect(value).toBeUndefined();
		expect(problems).toEqual([
			'tols: unknown key (did you mean "tools"?)',
			"isolation: would run the child in a temporary git worktree, which this package does not create (give cwd on the call)",
		]);
	});

	it("refuses the claude-only keys on another harness, naming the file, the key, the value and the harness", () => {
		const agent = parseClaudeAgentFile(
			"---\nname: r\ndescription: d\nmaxTurns: 4\nmodel: opus\n---\nB\n",
			"/f.md",
			"user",
			new Problems(),
		);
		const { problems } = parsed((p) => translateAgent(agent as NonNullable<typeof agent>, "codex", false, p));
		expect(problems).toEqual([
			'/f.md: model: "opus" cannot be resolved; give model on the call for on the codex harness',
			"/f.md: maxTurns: 4 means something only claude honours; it cannot be kept on the codex harness",
		]);
	});

	it("runs through claude's own --agents file and --agent selection", () => {
		const dir = tempDir("claude-agents-");
		const adapter = createClaudeAdapter({ command: () => ({ file: "claude", args: [] }) });
		const definition = { description: "d", tools: ["Read"], prompt: "P" };
		const command = adapter.buildCommand(
			launchSpec({ harness: "claude_code", cwd: "/w", claudeAgent: { name: "rev", definition } }),
			dir,
		);
		const agentsFlag = command.args.find((arg) => arg.startsWith("--agents="));
		expect(JSON.parse(readFileSync((agentsFlag as string).slice("--agents=".length), "utf8"))).toEqual({
			rev: definition,
		});
		expect(command.args).toContain("--agent=rev");
	});
});

describe("codex custom agent files", () => {
	it("maps each key to codex exec flags and -c overrides", () => {
		const agent = parseCodexAgentFile(
			'name = "fixer"\ndescription = "Fixes"\ndeveloper_instructions = "DI"\nmodel = "gpt-5.5"\nmodel_reasoning_effort = "high"\nsandbox_mode = "read-only"\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--port", "0"]\n[skills]\nconfig = [{ path = "/s/SKILL.md", enabled = false }]\n',
			"/c/agents/fixer.toml",
			"user",
			new Problems(),
		);
		const fields = translateAgent(agent as NonNullable<typeof agent>, "codex", false, new Problems());
		const adapter = createCodexAdapter({ command: () => ({ file: "codex", args: [] }), codexHome: "/c" });
		const command = adapter.buildCommand(launchSpec({ harness: "codex", cwd: "/w", ...fields }), "/tmp");
		expect(command.args).toEqual(
			expect.arrayContaining([
				"--model=gpt-5.5",
				'model_reasoning_effort="high"',
				'developer_instructions="DI"',
				'mcp_servers.docs={ command = "docs-mcp", args = ["--port", "0"] }',
				'skills={ config = [{ path = "/s/SKILL.md", enabled = false }] }',
				"--sandbox=read-only",
			]),
		);
	});

	it("ignores nickname_candidates (display names) and lists it as ignored", () => {
		const { value, problems } = parsed((p) =>
			parseCodexAgentFile(
				'name = "a"\ndescription = "b"\ndeveloper_instructions = "c"\nnickname_candidates = ["Atlas", "Delta"]\n',
				"/f.toml",
				"user",
				p,
			),
		);
		expect(problems).toEqual([]);
		expect(value?.ignoredKeys).toEqual(["nickname_candidates"]);
	});

	it("refuses any other key by name, and bad TOML", () => {
		const { problems } = parsed((p) =>
			parseCodexAgentFile(
				'name = "a"\ndescription = "b"\ndeveloper_instructions = "c"\napproval_policy = "never"\n',
				"/f.toml",
				"user",
				p,
			),
		);
		expect(problems).toEqual(["approval_policy: unknown key"]);
		expect(parsed((p) => parseCodexAgentFile("name = ", "/f.toml", "user", p)).problems[0]).toMatch(/^not valid TOML/);
	});

	it("refuses a table named __proto__ at any level, which the schema's record would drop without a word", () => {
		const head = 'name = "a"\ndescription = "b"\ndeveloper_instructions = "c"\n';
		const nested = parsed((p) =>
			parseCodexAgentFile(`${head}[mcp_servers.__proto__]\ncommand = "evil"\n`, "/f.toml", "user", p),
		);
		expect(nested.problems).toEqual([
			'mcp_servers: the key "__proto__" is not allowed (JavaScript objects treat it as their prototype); rename it',
		]);
		const top = parsed((p) => parseCodexAgentFile(`${head}[__proto__]\nx = 1\n`, "/f.toml", "user", p));
		expect(top.problems).toEqual([
			'the key "__proto__" is not allowed (JavaScript objects treat it as their prototype); rename it',
		]);
	});
});

describe("pi-subagents agent files", () => {
	it("maps its keys onto pi's mechanisms", () => {
		const { value, problems } = parsed((p) =>
			parseAgentFile(
				"---\nname: oracle\naliases: advisor\ndescription: d\nsystemPromptMode: replace\ninheritProjectContext: false\ninheritSkills: false\ndefaultContext: fork\ndefaultReads: a.md, b.md\noutput: out.md\ndefaultProgress: true\n---\nB\n",
				"/f.md",
				"user",
				p,
			),
		);
		expect(problems).toEqual([]);
		expect(value).toMatchObject({ aliases: ["advisor"], ignoredKeys: ["defaultProgress"] });
		expect(value?.pi).toEqual({
			replaceSystemPrompt: true,
			noContextFiles: true,
			noSkills: true,
			forkParentSession: true,
			readFirst: ["a.md", "b.md"],
			outputFile: "out.md",
		});
	});

	it("refuses what only pi can honour on another harness", () => {
		const agent = parseAgentFile(
			"---\nname: o\ndescription: d\nsystemPromptMode: replace\ninheritSkills: false\ndefaultContext: fork\n---\nB\n",
			"/f.md",
			"user",
			new Problems(),
		);
		const { problems } = parsed((p) => translateAgent(agent as NonNullable<typeof agent>, "codex", false, p));
		expect(problems).toEqual([
			'/f.md: systemPromptMode: "replace" cannot be honoured (codex has no prompt replacement flag) on the codex harness',
			"/f.md: inheritSkills: false cannot be honoured (no switch turns skill discovery off) on the codex harness",
			'/f.md: defaultContext: "fork" cannot be honoured (only pi forks the parent\'s pi session) on the codex harness',
		]);
	});
});

describe("did you mean", () => {
	it("suggests a close name and nothing for a distant one", () => {
		expect(nearestName("scot", ["scout", "planner"])).toBe("scout");
		expect(nearestName("zzzzzz", ["scout", "planner"])).toBeUndefined();
	});
});
