import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piFrontmatterSchema, plainFrontmatter } from "../../src/config/agent-markdown.ts";
import { findAgent } from "../../src/config/agent-selection.ts";
import {
	type DiscoverAgentsOptions,
	discoverAgents as discoverAll,
	formatAgentFileErrors,
	parseAgentFile,
} from "../../src/config/agents.ts";
import { collect, problemsFound } from "../support/problems.ts";
import { tempDir, writeTree } from "./helpers.ts";

/** Discovery without the built-ins and with no claude or codex home (never the real ~/.claude, ~/.codex). */
const discoverAgents = (options: DiscoverAgentsOptions) =>
	discoverAll({ env: { HOME: "/nonexistent-home" }, builtinDir: null, ...options });

const agentMd = (frontmatter: string, body = "You are helpful.") => `---\n${frontmatter}\n---\n${body}\n`;

function setup() {
	const root = tempDir();
	const agentDir = join(root, "agent-home");
	const project = join(root, "project");
	const cwd = join(project, "src", "deep");
	mkdirSync(cwd, { recursive: true });
	writeTree(agentDir, {
		"agents/scout.md": agentMd("name: scout\ndescription: User scout\nmodel: fake/user-model", "User scout body"),
		"agents/writer.md": agentMd("name: writer\ndescription: Writes\ntools: read, bash , edit"),
	});
	writeTree(project, {
		".pi/agents/scout.md": agentMd(
			"name: scout\ndescription: Project scout\nharness: codex\neffort: high",
			"Project body",
		),
		".pi/agents/reviewer.md": agentMd("name: reviewer\ndescription: Reviews\ntools:\n  - read\n  - grep"),
	});
	return { root, agentDir, project, cwd };
}

describe("discoverAgents", () => {
	it("finds user-scope agents only by default scope user", () => {
		const { agentDir, cwd, project } = setup();
		const result = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(result.agents.map((a) => [a.name, a.source])).toEqual([
			["scout", "user"],
			["writer", "user"],
		]);
		expect(result.errors).toEqual([]);
		expect(result.projectAgentsDir).toBe(join(project, ".pi", "agents"));
	});

	it("finds the nearest .pi/agents walking up from cwd in project scope", () => {
		const { agentDir, cwd } = setup();
		const result = discoverAgents({ cwd, agentDir, scope: "project" });
		expect(result.agents.map((a) => [a.name, a.source])).toEqual([
			["reviewer", "project"],
			["scout", "project"],
		]);
	});

	it("lets a project agent override a user agent of the same name in scope both", () => {
		const { agentDir, cwd, project } = setup();
		const result = discoverAgents({ cwd, agentDir, scope: "both" });
		expect(result.agents.map((a) => a.name)).toEqual(["reviewer", "scout", "writer"]);
		const scout = result.agents.find((a) => a.name === "scout");
		expect(scout).toMatchObject({
			description: "Project scout",
			source: "project",
			harness: "codex",
			effort: "high",
			systemPrompt: "Project body",
			filePath: join(project, ".pi", "agents", "scout.md"),
		});
		expect(scout?.model).toBeUndefined();
	});

	it("reads tools from a comma string and from a YAML list", () => {
		const { agentDir, cwd } = setup();
		const { agents } = discoverAgents({ cwd, agentDir, scope: "both" });
		expect(agents.find((a) => a.name === "writer")?.tools).toEqual(["read", "bash", "edit"]);
		expect(agents.find((a) => a.name === "reviewer")?.tools).toEqual(["read", "grep"]);
		expect(agents.find((a) => a.name === "scout")?.tools).toBeUndefined();
	});

	it("defaults harness to pi and keeps the body as the system prompt", () => {
		const { agentDir, cwd } = setup();
		const { agents } = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(agents.find((a) => a.name === "scout")).toMatchObject({
			harness: "pi",
			model: "fake/user-model",
			systemPrompt: "User scout body",
		});
	});

	it("reports a bad file without hiding the other agents", () => {
		const { agentDir, cwd } = setup();
		writeTree(agentDir, {
			"agents/broken-yaml.md": agentMd("name: [unclosed\ndescription: x"),
			"agents/no-description.md": agentMd("name: lonely"),
			"agents/no-frontmatter.md": "just text\n",
			"agents/typo.md": agentMd("name: typo\ndescription: d\nmodle: fake/x"),
			"agents/bad-harness.md": agentMd("name: bh\ndescription: d\nharness: opencode"),
			"agents/empty-effort.md": agentMd('name: ee\ndescription: d\neffort: ""'),
			"agents/notes.txt": "not an agent",
		});
		const result = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(result.agents.map((a) => a.name)).toEqual(["scout", "writer"]);
		const byFile = Object.fromEntries(
			result.errors.map((e) => [e.filePath.slice(e.filePath.lastIndexOf("/") + 1), e.problems.join(" | ")]),
		);
		expect(Object.keys(byFile).sort()).toEqual([
			"bad-harness.md",
			"broken-yaml.md",
			"empty-effort.md",
			"no-description.md",
			"no-frontmatter.md",
			"typo.md",
		]);
		// One line: the parser's multi-line excerpt of the source would show as escapes in an error.
		expect(byFile["broken-yaml.md"]).toMatch(/^frontmatter is not valid YAML: .* at line \d+, column \d+$/);
		expect(byFile["no-description.md"]).toBe("description: is required (a non-empty string)");
		expect(byFile["no-frontmatter.md"]).toMatch(/name: is required/);
		expect(byFile["typo.md"]).toBe('modle: unknown key (did you mean "model"?)');
		expect(byFile["bad-harness.md"]).toMatch(/harness: expected one of pi, codex, claude_code/);
		expect(byFile["empty-effort.md"]).toBe("effort: must not be empty");
		expect(
			formatAgentFileErrors(result.errors).some((line) =>
				line.endsWith('typo.md: modle: unknown key (did you mean "model"?)'),
			),
		).toBe(true);
	});

	it("uses neither of two files that define the same name in one directory, naming both", () => {
		const { agentDir, cwd } = setup();
		writeTree(agentDir, { "agents/a-scout-copy.md": agentMd("name: scout\ndescription: copy") });
		const result = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(result.agents.find((a) => a.name === "scout")).toBeUndefined();
		expect(result.errors.map((error) => [error.filePath, error.problems])).toEqual([
			[
				join(agentDir, "agents/a-scout-copy.md"),
				[
					`name: "scout" is also defined by ${join(agentDir, "agents/scout.md")}; neither file is used until one is renamed`,
				],
			],
			[
				join(agentDir, "agents/scout.md"),
				[
					`name: "scout" is already defined by ${join(agentDir, "agents/a-scout-copy.md")}; neither file is used until one is renamed`,
				],
			],
		]);
	});

	it("never runs a lower-precedence agent in place of a same-named file that failed to load", () => {
		const root = tempDir();
		const builtinDir = join(root, "builtin");
		const agentDir = join(root, "agent-home");
		writeTree(builtinDir, {
			"scout.md": agentMd("name: scout\ndescription: Built-in scout"),
			"planner.md": agentMd("name: planner\ndescription: Built-in planner"),
		});
		writeTree(agentDir, {
			"agents/scout.md": agentMd("name: scout\ndescription: My scout\nmodle: fake/x"),
			"agents/plan-a.md": agentMd("name: planner\ndescription: one"),
			"agents/plan-b.md": agentMd("name: planner\ndescription: two"),
		});
		const options: DiscoverAgentsOptions = { cwd: root, agentDir, scope: "user", builtinDir, env: {} };
		const discovery = discoverAll(options);
		expect(discovery.agents.map((a) => a.name)).toEqual([]);
		expect(discovery.shadowed.map((s) => [s.agent.filePath, s.by])).toEqual([
			[join(builtinDir, "planner.md"), join(agentDir, "agents/plan-a.md")],
			[join(builtinDir, "scout.md"), join(agentDir, "agents/scout.md")],
		]);
		const refusal = (selector: string) =>
			problemsFound((problems) => findAgent(discovery, selector, options, problems));
		expect(refusal("scout")).toEqual([
			`agent "scout" failed to load: ${join(agentDir, "agents/scout.md")}: modle: unknown key (did you mean "model"?); fix it, or the lower-precedence scout it hides (${join(builtinDir, "scout.md")}) is not used in its place either`,
		]);
		expect(refusal("pi:scout")[0]).toMatch(/^agent "pi:scout" failed to load: .*agents\/scout\.md: modle/);
		expect(refusal("planner")[0]).toMatch(
			/^agent "planner" failed to load: .*plan-a\.md: name: "planner" is also defined by .*plan-b\.md; neither file is used until one is renamed; fix it, or the lower-precedence planner it hides \(.*builtin\/planner\.md\) is not used/,
		);
	});

	it("returns no agents and no errors when no agent directories exist", () => {
		const root = tempDir();
		const result = discoverAgents({ cwd: root, agentDir: join(root, "nowhere"), scope: "both" });
		expect(result).toMatchObject({ agents: [], shadowed: [], errors: [], projectAgentsDir: null });
	});

	it("reports an agent file that is a FIFO or a huge file by name, without reading it", () => {
		const { agentDir, cwd } = setup();
		const fifo = join(agentDir, "agents", "stuck.md");
		execFileSync("mkfifo", [fifo]);
		const huge = join(agentDir, "agents", "huge.md");
		writeFileSync(huge, agentMd(`name: huge\ndescription: ${"d".repeat(2 * 1024 * 1024)}`));
		const result = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(result.agents.map((a) => a.name)).toEqual(["scout", "writer"]);
		expect(result.errors).toEqual([
			expect.objectContaining({
				filePath: huge,
				problems: [expect.stringMatching(/^is \d+ bytes, more than the limit of 1048576$/)],
			}),
			expect.objectContaining({ filePath: fifo, problems: ["is not a regular file (a FIFO)"] }),
		]);
	});

	it.skipIf(process.getuid?.() === 0)("reports an unreadable agent file", () => {
		const { agentDir, cwd } = setup();
		writeTree(agentDir, { "agents/secret.md": agentMd("name: secret\ndescription: d") });
		chmodSync(join(agentDir, "agents", "secret.md"), 0o000);
		const result = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(result.agents.map((a) => a.name)).toEqual(["scout", "writer"]);
		expect(result.errors[0].problems[0]).toMatch(/cannot read file \(EACCES\)/);
	});
});

describe("parseAgentFile", () => {
	it("reads a plainly valid frontmatter without zod exactly as the schema reads it", () => {
		const mappings: Record<string, unknown>[] = [
			{ name: "a", description: "d" },
			{ name: " a ", description: "d", model: null, tools: null, inheritSkills: null },
			{ name: "a", description: "d", tools: "read, bash , ,edit", disallowedTools: ["write", " "], aliases: [] },
			{ name: "a", description: "d", harness: "codex", effort: "high", thinking: "high", output: "out.md" },
			{ name: "a", description: "d", systemPromptMode: "replace", inheritProjectContext: false, inheritSkills: true },
			{ name: "a", description: "d", defaultContext: "fork", defaultReads: "a.md, b.md", model: "fake/m" },
		];
		for (const mapping of mappings) {
			expect(plainFrontmatter(mapping), JSON.stringify(mapping)).toEqual(piFrontmatterSchema().parse(mapping));
		}
		// Anything the schema would refuse goes to the schema, which names the problem.
		for (const bad of [{ name: "a" }, { name: "a", description: " " }, { name: "a", description: "d", tools: 3 }]) {
			expect(plainFrontmatter(bad), JSON.stringify(bad)).toBeUndefined();
		}
		expect(plainFrontmatter({ name: "a", description: "d", harness: "gemini" })).toBeUndefined();
		expect(plainFrontmatter({ name: "a", description: "d", inheritSkills: "no" })).toBeUndefined();
	});

	it("treats an empty YAML value of an optional field as not set", () => {
		const { value: agent, problems } = collect((found) =>
			parseAgentFile(agentMd("name: a\ndescription: d\nmodel:\ntools:"), "/x/a.md", "user", found),
		);
		expect(problems).toEqual([]);
		expect(agent).toMatchObject({ name: "a", harness: "pi" });
		expect(agent?.model).toBeUndefined();
		expect(agent?.tools).toBeUndefined();
	});

	it("rejects a tools value that is neither a string nor a list of strings", () => {
		const result = collect((found) =>
			parseAgentFile(agentMd("name: a\ndescription: d\ntools: 3"), "/x/a.md", "user", found),
		);
		expect(result).toEqual({
			value: undefined,
			problems: ["tools: expected a comma-separated string or a list of strings"],
		});
	});
});

describe("discoverAgents again in one process", () => {
	it("parses a file again only when its text changed, and sees every edit at the next discovery", () => {
		const { agentDir, cwd } = setup();
		const scoutFile = join(agentDir, "agents", "scout.md");
		const first = discoverAgents({ cwd, agentDir, scope: "user" });
		const again = discoverAgents({ cwd, agentDir, scope: "both" });
		// The same text: the definition parsed the first time.
		expect(again.agents.find((a) => a.name === "writer")).toBe(first.agents.find((a) => a.name === "writer"));
		// An edit of the same size with the old mtime is seen: the text is read at every discovery.
		const { mtime } = statSync(scoutFile);
		writeFileSync(
			scoutFile,
			agentMd("name: scout\ndescription: User scouT\nmodel: fake/user-model", "User scout body"),
		);
		utimesSync(scoutFile, mtime, mtime);
		const edited = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(edited.agents.find((a) => a.name === "scout")?.description).toBe("User scouT");
		// A file broken, then fixed: its problem comes and goes with its text.
		writeFileSync(scoutFile, agentMd("name: scout"));
		expect(formatAgentFileErrors(discoverAgents({ cwd, agentDir, scope: "user" }).errors)).toEqual([
			`${scoutFile}: description: is required (a non-empty string)`,
		]);
		expect(formatAgentFileErrors(discoverAgents({ cwd, agentDir, scope: "user" }).errors)).toEqual([
			`${scoutFile}: description: is required (a non-empty string)`,
		]);
		writeFileSync(scoutFile, agentMd("name: scout\ndescription: Fixed"));
		const fixed = discoverAgents({ cwd, agentDir, scope: "user" });
		expect(fixed.errors).toEqual([]);
		expect(fixed.agents.find((a) => a.name === "scout")?.description).toBe("Fixed");
	});
});

describe("discoverAgents again in one process, across projects and links", () => {
	it("never shows one project's agents in another project discovered later by the same process", () => {
		const a = setup();
		const b = setup();
		writeTree(b.project, { ".pi/agents/scout.md": agentMd("name: scout\ndescription: Scout of B") });
		const inA = discoverAgents({ cwd: a.cwd, agentDir: a.agentDir, scope: "project" });
		const inB = discoverAgents({ cwd: b.cwd, agentDir: b.agentDir, scope: "project" });
		expect(inA.agents.map((agent) => agent.name).sort()).toEqual(["reviewer", "scout"]);
		expect(inB.agents.find((agent) => agent.name === "scout")?.description).toBe("Scout of B");
		expect(inB.agents.every((agent) => agent.filePath.startsWith(b.project))).toBe(true);
		rmSync(join(b.project, ".pi", "agents", "reviewer.md"));
		const againB = discoverAgents({ cwd: b.cwd, agentDir: b.agentDir, scope: "project" });
		expect(againB.agents.map((agent) => agent.name)).toEqual(["scout"]);
		expect(discoverAgents({ cwd: a.cwd, agentDir: a.agentDir, scope: "project" }).agents).toHaveLength(2);
	});

	it("reads a file replaced by a symlink to another file through the link: the new text is parsed", () => {
		const { root, agentDir, cwd } = setup();
		const scoutFile = join(agentDir, "agents", "scout.md");
		expect(discoverAgents({ cwd, agentDir, scope: "user" }).agents.find((a) => a.name === "scout")?.description).toBe(
			"User scout",
		);
		const hostile = join(root, "elsewhere.md");
		writeFileSync(hostile, agentMd("name: scout\ndescription: Linked scout\nmodel: fake/other-model"));
		rmSync(scoutFile);
		symlinkSync(hostile, scoutFile);
		const linked = discoverAgents({ cwd, agentDir, scope: "user" }).agents.find((a) => a.name === "scout");
		expect(linked?.description).toBe("Linked scout");
		expect(linked?.filePath).toBe(scoutFile);
		// The link's target edited: seen at the next discovery.
		writeFileSync(hostile, agentMd("name: scout\ndescription: Linked scout, edited"));
		expect(discoverAgents({ cwd, agentDir, scope: "user" }).agents.find((a) => a.name === "scout")?.description).toBe(
			"Linked scout, edited",
		);
	});
});
