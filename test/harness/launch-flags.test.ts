/**
 * Every flag a harness's command builders can emit is classified here as shared (both commands carry it,
 * with the same value), headless-only or TUI-only. A builder that starts emitting a new flag fails this test
 * until the flag is classified, so a headless-only flag cannot leak into a TUI silently.
 * Subcommands and operands (codex's `exec` / `resume`, `-` for stdin, the `--` that ends the options and what
 * follows it) are each command's own syntax, covered by the command tests.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { HarnessAdapter } from "../../src/core/harness-adapter.ts";
import type { Harness, LaunchSpec } from "../../src/core/launch-spec.ts";
import { createClaudeAdapter } from "../../src/harness/claude/adapter.ts";
import { createCodexAdapter } from "../../src/harness/codex/adapter.ts";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { launchSpec, resources } from "../support/launch-spec.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

type Use = "shared" | "headless" | "tui";
/** A flag's class, and whether it takes its value as the next argument (`--flag value`). */
type FlagClass = { use: Use; value?: true };

const shared: FlagClass = { use: "shared" };
const sharedWithValue: FlagClass = { use: "shared", value: true };

/**
 * The classification: every flag of every builder, by harness. `-c key=…` overrides count by key; a flag
 * whose value is a file of the package's own (`-e <file>`) may be classified by the file's name.
 */
const FLAGS: Record<Harness, Record<string, FlagClass>> = {
	pi: {
		"--mode": { use: "headless", value: true },
		"--offline": shared,
		"--session-dir": sharedWithValue,
		"--session": sharedWithValue,
		"--model": sharedWithValue,
		"--thinking": sharedWithValue,
		"--tools": sharedWithValue,
		"--no-tools": shared,
		"--exclude-tools": sharedWithValue,
		"--append-system-prompt": sharedWithValue,
		"--system-prompt": sharedWithValue,
		"--fork": sharedWithValue,
		"--skill": sharedWithValue,
		"-e": sharedWithValue,
		"--no-extensions": shared,
		"--no-skills": shared,
		"--no-prompt-templates": shared,
		"--no-themes": shared,
		"--no-mcp": shared,
		"--no-context-files": shared,
		"--approve": shared,
		"--no-approve": shared,
		"--session-id": { use: "tui", value: true },
		// The submit_result extension of an output_schema child (refused with interactive).
		"-e submit-result-extension.ts": { use: "headless", value: true },
	},
	claude_code: {
		"-p": { use: "headless" },
		"--input-format": { use: "headless" },
		"--output-format": { use: "headless" },
		"--verbose": { use: "headless" },
		"--replay-user-messages": { use: "headless" },
		"--session-id": shared,
		"--resume": shared,
		"--model": shared,
		"--effort": shared,
		"--append-system-prompt-file": shared,
		"--system-prompt-file": shared,
		"--agents": shared,
		"--agent": shared,
		"--tools": shared,
		"--allowedTools": shared,
		"--disallowedTools": shared,
		"--dangerously-skip-permissions": shared,
		"--setting-sources": shared,
		"--plugin-dir": shared,
		"--strict-mcp-config": shared,
		"--json-schema": { use: "headless" },
		"--permission-mode": shared,
		"--max-turns": shared,
		"--settings": shared,
	},
	codex: {
		"--json": { use: "headless" },
		"--skip-git-repo-check": { use: "headless" },
		"--output-schema": { use: "headless" },
		"--cd": shared,
		"--model": shared,
		"-c model_reasoning_effort": shared,
		"-c developer_instructions": shared,
		"-c project_doc_max_bytes": shared,
		"-c mcp_servers": shared,
		"-c skills": shared,
		"--dangerously-bypass-approvals-and-sandbox": shared,
		"--sandbox": shared,
		"--no-daemon": { use: "tui" },
		"--no-alt-screen": { use: "tui" },
		"-c projects": { use: "tui" },
	},
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** One emitted flag: its class key and its whole text (with its value). */
interface Emitted {
	name: string;
	text: string;
}

/** The flags of `args` up to the `--` that ends the options, read with `table`'s arities. */
function flagsOf(args: readonly string[], table: Record<string, FlagClass>): Emitted[] {
	const flags: Emitted[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (arg === "--") break;
		if (!arg.startsWith("-") || arg === "-") continue;
		if (arg === "-c") {
			// By the key's first part: `-c mcp_servers.<name>=…` is one kind of override.
			const value = args[++i] ?? "";
			flags.push({ name: `-c ${value.split("=")[0].split(".")[0]}`, text: `-c ${value}` });
			continue;
		}
		const name = arg.split("=")[0];
		if (!table[name]?.value) {
			flags.push({ name, text: arg });
			continue;
		}
		const value = args[++i] ?? "";
		const byFile = `${name} ${basename(value)}`;
		flags.push({ name: table[byFile] ? byFile : name, text: `${arg} ${value}` });
	}
	return flags;
}

/**
 * What is wrong with one spec's two commands against `table`: an unclassified flag, a headless-only flag in
 * the TUI command (or the reverse), a shared flag that the two commands do not carry alike.
 */
function classificationProblems(
	table: Record<string, FlagClass>,
	headlessArgs: readonly string[],
	tuiArgs: readonly string[],
): string[] {
	const problems: string[] = [];
	const headless = flagsOf(headlessArgs, table);
	const tui = flagsOf(tuiArgs, table);
	for (const [command, flags, other] of [
		["headless", headless, "tui"],
		["TUI", tui, "headless"],
	] as const) {
		for (const flag of flags) {
			const use = table[flag.name]?.use;
			if (use === undefined) problems.push(`${flag.name}: emitted by the ${command} command but not classified`);
			else if (use === other) problems.push(`${flag.name}: ${use}-only, but emitted by the ${command} command`);
		}
	}
	// A new session's id is chosen per build: two builds carry it alike when both carry one.
	const sharedTexts = (flags: Emitted[]) =>
		flags.filter((f) => table[f.name]?.use === "shared").map((f) => f.text.replace(UUID, "<new session id>"));
	if (JSON.stringify(sharedTexts(headless)) !== JSON.stringify(sharedTexts(tui))) {
		problems.push(
			`shared flags differ: headless ${JSON.stringify(sharedTexts(headless))}, TUI ${JSON.stringify(sharedTexts(tui))}`,
		);
	}
	return problems;
}

const dir = makeTempDir("launch-flags-");
afterAll(() => releaseDirectories([dir]));
const sessionDir = join(dir, "sessions");
mkdirSync(sessionDir);
writeFileSync(join(sessionDir, "2026-01-01T00-00-00_pi-session-1.jsonl"), "");

const ADAPTERS: Record<Harness, HarnessAdapter> = {
	pi: createPiAdapter({ invocation: () => ({ file: "node", args: ["cli.js"] }), sessionDir, agentDir: dir }),
	codex: createCodexAdapter({ command: () => ({ file: "codex", args: [] }), codexHome: dir }),
	claude_code: createClaudeAdapter({ command: () => ({ file: "claude", args: [] }) }),
};

/** Specs that together make each builder emit every flag it can (builders do not validate, so any mix goes). */
function specsFor(harness: Harness): LaunchSpec[] {
	const interactive = { stayOpen: false, inactivityTimeoutMs: null };
	const base = launchSpec({ harness, cwd: dir, interactive });
	const resumeId = harness === "pi" ? "pi-session-1" : "session-1";
	return [
		base,
		{
			...base,
			model: "fake/m",
			effort: "high",
			allowedTools: ["read", "Bash(git *)"],
			approvedTools: ["read", "Bash(git *)"],
			disallowedTools: ["write"],
			systemPromptAddition: "be brief",
			// Refused with interactive: only the headless command carries what it adds.
			outputSchema: { type: "object" },
			projectTrusted: true,
			autoApprove: true,
			session: { kind: "resume", nativeSessionId: resumeId },
			resources: resources({
				skills: ["/s/a"],
				extensions: ["/e/b"],
				plugins: ["/p/c"],
				inherit_personal_resources: false,
				inherit_project_resources: false,
				mcp_servers: [],
				include_instruction_files: false,
			}),
		},
		{ ...base, allowedTools: [], resources: resources({ inherit_project_resources: false }) },
		// What agent files of other tools add (docs/agent-libraries.md).
		{
			...base,
			systemPromptAddition: "you are the agent",
			replaceSystemPrompt: true,
			noSkills: true,
			forkSessionFile: join(dir, "parent.jsonl"),
			claudeAgent: { name: "fixer", definition: { prompt: "fix", permissionMode: "plan", maxTurns: 3 } },
			codexAgent: { sandboxMode: "read-only", mcpServers: { docs: { url: "http://127.0.0.1:1" } }, skills: {} },
		},
	];
}

describe("the launch flags of every harness", () => {
	it.each(["pi", "claude_code", "codex"] as const)(
		"%s: every flag its builders emit is classified shared, headless-only or TUI-only, and shared flags match",
		(harness) => {
			const adapter = ADAPTERS[harness];
			const seen = new Set<string>();
			for (const spec of specsFor(harness)) {
				const headless = adapter.buildCommand(spec, dir).args;
				const tui = adapter.buildTuiCommand(spec, dir).args;
				expect(classificationProblems(FLAGS[harness], headless, tui), JSON.stringify(spec)).toEqual([]);
				for (const flag of [...flagsOf(headless, FLAGS[harness]), ...flagsOf(tui, FLAGS[harness])]) {
					seen.add(flag.name);
				}
			}
			// The specs make every classified flag appear, so the table holds no flag the builders lost.
			expect([...seen].sort()).toEqual(Object.keys(FLAGS[harness]).sort());
		},
	);

	it("fails on a flag nobody classified, and on a headless-only flag that leaks into the TUI", () => {
		const spec = specsFor("pi")[0];
		const headless = ADAPTERS.pi.buildCommand(spec, dir).args;
		const tui = ADAPTERS.pi.buildTuiCommand(spec, dir).args;
		expect(classificationProblems(FLAGS.pi, [...headless, "--new-flag"], tui)).toEqual([
			"--new-flag: emitted by the headless command but not classified",
		]);
		expect(classificationProblems(FLAGS.pi, headless, ["--mode", "json", ...tui])).toEqual([
			"--mode: headless-only, but emitted by the TUI command",
		]);
		expect(
			classificationProblems(
				FLAGS.pi,
				headless,
				tui.filter((arg) => arg !== "--no-approve"),
			),
		).toEqual([expect.stringMatching(/^shared flags differ: /)]);
	});
});
