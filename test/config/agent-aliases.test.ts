/**
 * `aliases` share the name space of agent names (docs/agent-libraries.md §Selecting an agent): in one directory a
 * name two files claim, as a name or an alias, makes both unusable, and across sources a name or alias is taken by
 * the highest-precedence source that claims it, never by whichever definition sorts first (found by the new-user
 * attack: an alias silently took another file's name).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findAgent, selectAgent } from "../../src/config/agent-selection.ts";
import { type DiscoverAgentsOptions, discoverAgents } from "../../src/config/agents.ts";
import { catalogueLines } from "../../src/tools/agent-catalogue.ts";
import { problemsFound } from "../support/problems.ts";
import { tempDir, writeTree } from "./helpers.ts";

const agentMd = (frontmatter: string) => `---\n${frontmatter}\n---\nYou are helpful.\n`;

/** A user agent directory and a built-in one (no claude or codex home) with the given files. */
function discover(user: Record<string, string>, builtin: Record<string, string> = {}) {
	const root = tempDir();
	const builtinDir = join(root, "builtin");
	const agentDir = join(root, "agent-home");
	writeTree(builtinDir, { "scout.md": agentMd("name: scout\ndescription: Built-in scout"), ...builtin });
	writeTree(agentDir, Object.fromEntries(Object.entries(user).map(([name, text]) => [`agents/${name}`, text])));
	const options: DiscoverAgentsOptions = { cwd: root, agentDir, scope: "user", builtinDir, env: {} };
	const discovery = discoverAgents(options);
	const refusal = (selector: string) => problemsFound((problems) => findAgent(discovery, selector, options, problems));
	const catalogue = () => catalogueLines({ cwd: root, agentDir, builtinDir, env: {} });
	return { discovery, refusal, catalogue, file: (name: string) => join(agentDir, "agents", name), builtinDir };
}

describe("agent aliases", () => {
	it("use neither of two files in one directory when one's alias is the other's name, nor a lower-precedence agent of that name", () => {
		const { discovery, refusal, file } = discover({
			"finder.md": agentMd("name: finder\ndescription: Finds\naliases: [scout]"),
			"scout.md": agentMd("name: scout\ndescription: My scout"),
		});
		expect(discovery.agents.map((a) => a.name)).toEqual([]);
		const problems = Object.fromEntries(discovery.errors.map((error) => [error.filePath, error.problems]));
		expect(problems).toEqual({
			[file("finder.md")]: [
				`aliases: "scout" is also claimed by ${file("scout.md")}; neither file is used until one is renamed`,
			],
			[file("scout.md")]: [
				`name: "scout" is already an alias of ${file("finder.md")}; neither file is used until one is renamed`,
			],
		});
		for (const selector of ["scout", "finder", "pi:scout"]) expect(refusal(selector)[0]).toMatch(/failed to load/);
		expect(refusal("scout")[0]).toContain("the lower-precedence scout it hides");
	});

	it("use neither of two files in one directory that share an alias, and the alias selects no other agent", () => {
		const { discovery, refusal, file } = discover(
			{
				"a.md": agentMd("name: alpha\ndescription: A\naliases: [helper]"),
				"b.md": agentMd("name: beta\ndescription: B\naliases: [helper]"),
			},
			{ "helper.md": agentMd("name: helper\ndescription: Built-in helper") },
		);
		expect(discovery.agents.map((a) => a.name)).toEqual(["scout"]);
		expect(discovery.errors.map((error) => error.problems)).toEqual([
			[`aliases: "helper" is also claimed by ${file("b.md")}; neither file is used until one is renamed`],
			[`aliases: "helper" is already an alias of ${file("a.md")}; neither file is used until one is renamed`],
		]);
		for (const selector of ["alpha", "beta", "helper"]) expect(refusal(selector)[0]).toMatch(/failed to load/);
	});

	it("select the highest-precedence source that claims a name, not the definition that sorts first", () => {
		const { discovery } = discover(
			{ "zeta.md": agentMd("name: zeta\ndescription: Mine\naliases: [helper, scout]") },
			{ "alpha.md": agentMd("name: alpha\ndescription: Built-in alpha\naliases: [helper]") },
		);
		expect(selectAgent(discovery, "helper")?.name).toBe("zeta");
		expect(selectAgent(discovery, "scout")?.name).toBe("zeta");
		expect(discovery.shadowed.map((s) => s.agent.name)).toEqual(["scout"]);
		expect(selectAgent(discovery, "alpha")?.name).toBe("alpha");
	});

	it("select a format-qualified alias from the highest-precedence file of that format, as the plain alias does", () => {
		const { discovery } = discover(
			{ "zeta.md": agentMd("name: zeta\ndescription: Mine\naliases: [helper]") },
			{ "alpha.md": agentMd("name: alpha\ndescription: Built-in alpha\naliases: [helper]") },
		);
		expect(selectAgent(discovery, "helper")?.name).toBe("zeta");
		expect(selectAgent(discovery, "pi:helper")?.name).toBe("zeta");
		expect(selectAgent(discovery, "pi:alpha")?.name).toBe("alpha");
	});

	it("never let a file of the same directory take a broken override's name, as an alias or as its name", () => {
		for (const other of ["name: zed\ndescription: Other\naliases: [scout]", "name: scout\ndescription: Other"]) {
			const { discovery, refusal, file } = discover({
				"scout.md": agentMd("name: scout\ndescription: My scout\nbogus: 1"),
				"zed.md": agentMd(other),
			});
			for (const selector of ["scout", "pi:scout"]) {
				expect(selectAgent(discovery, selector)).toBeUndefined();
				expect(refusal(selector)[0]).toContain(`${file("scout.md")}: bogus: unknown key`);
			}
			const [claimed, already] = other.includes("aliases")
				? ["claimed", 'aliases: "scout" is already the name of']
				: ["defined", 'name: "scout" is already defined by'];
			expect(refusal("scout")[0]).toContain(
				`${file("scout.md")}: name: "scout" is also ${claimed} by ${file("zed.md")}; neither file is used until one is renamed`,
			);
			expect(discovery.errors.find((error) => error.filePath === file("zed.md"))?.problems).toEqual([
				`${already} ${file("scout.md")} (which failed to load); neither file is used until one is renamed`,
			]);
		}
	});

	it("let a file's own name repeated among its aliases, or an alias given twice, pass", () => {
		const { discovery } = discover({ "solo.md": agentMd("name: solo\ndescription: S\naliases: [solo, one, one]") });
		expect(discovery.errors).toEqual([]);
		expect(selectAgent(discovery, "one")?.name).toBe("solo");
	});

	it("refuse a name or alias of any format's file that a selector would read as format-qualified", () => {
		const root = tempDir();
		const agentDir = join(root, "agent-home");
		const claudeDir = join(root, "claude-home");
		writeTree(agentDir, { "agents/odd.md": agentMd("name: odd\ndescription: O\naliases: ['claude:foo', fine]") });
		writeTree(claudeDir, { "agents/odd.md": agentMd("name: pi:reviewer\ndescription: C") });
		const discovery = discoverAgents({
			cwd: root,
			agentDir,
			scope: "user",
			builtinDir: null,
			env: { CLAUDE_CONFIG_DIR: claudeDir },
		});
		const why = (name: string, format: string, rest: string) =>
			`"${name}" would be read as format "${format}" and name "${rest}" when selected; choose a name without "${format}:"`;
		expect(discovery.errors.map((error) => [error.filePath, error.problems])).toEqual([
			[join(agentDir, "agents/odd.md"), [`aliases: ${why("claude:foo", "claude", "foo")}`]],
			[join(claudeDir, "agents/odd.md"), [`name: ${why("pi:reviewer", "pi", "reviewer")}`]],
		]);
		expect(discovery.agents).toEqual([]);
	});

	it("are listed in the catalogue only where they select the agent, and a shadowed file's selector only where it works", () => {
		const { catalogue, file, builtinDir } = discover(
			{ "helper.md": agentMd("name: helper\ndescription: H\naliases: [scout, planner]") },
			{ "planner.md": agentMd("name: planner\ndescription: Built-in planner") },
		);
		const lines = catalogue();
		// The user file's aliases take scout and planner from the built-ins, which pi:<name> cannot reach either:
		// the user file is of the same format and comes first.
		expect(lines).toContain(`  format: pi, file: ${file("helper.md")}, aliases: scout, planner`);
		for (const name of ["scout", "planner"])
			expect(lines).toContain(
				`- shadowed: ${name} (builtin, pi) ${join(builtinDir, `${name}.md`)}, by ${file("helper.md")}; not selectable: pi:${name} selects ${file("helper.md")} (of the same format)`,
			);
	});

	it("that a higher-precedence file takes are listed apart, saying by what and in which scope", () => {
		const root = tempDir();
		const agentDir = join(root, "agent-home");
		writeTree(join(root, "project"), {
			".pi/agents/reviewer.md": agentMd("name: reviewer\ndescription: Project"),
			".pi/agents/broken.md": "---\nname: [\n---\n",
		});
		writeTree(agentDir, {
			"agents/helper.md": agentMd("name: helper\ndescription: H\naliases: [reviewer, aide, broken]"),
		});
		const lines = catalogueLines({ cwd: join(root, "project"), agentDir, builtinDir: null, env: {} });
		expect(lines).toContain(
			`  format: pi, file: ${join(agentDir, "agents/helper.md")}, aliases: aide, aliases held by a file that failed to load: broken, aliases that select a project agent with agentScope "both" or "project": reviewer`,
		);
	});
});
