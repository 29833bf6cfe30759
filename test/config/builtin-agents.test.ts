/**
 * The built-in agents pre-parsed (src/config/builtin-agents.ts): the parse of this package's agents/*.md,
 * used by discovery in place of parsing a built-in file whose text has that digest (docs/design-notes.md
 * §Start-up cost). After editing agents/*.md, regenerate it: `npx vitest run test/config/builtin-agents.test.ts -u`.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AgentDefinition, BUILTIN_AGENTS_DIR, discoverAgents, parseAgentFile } from "../../src/config/agents.ts";
import { PARSED_BUILTIN_AGENTS } from "../../src/config/builtin-agents.ts";
import { Problems } from "../../src/core/problems.ts";
import { tempDir } from "./helpers.ts";

/** Each built-in file parsed, by file name. */
function parsedBuiltins(dir = BUILTIN_AGENTS_DIR): Record<string, AgentDefinition> {
	const parsed: Record<string, AgentDefinition> = {};
	for (const name of readdirSync(dir)
		.filter((file) => file.endsWith(".md"))
		.sort()) {
		const problems = new Problems();
		const agent = parseAgentFile(readFileSync(join(dir, name), "utf8"), join(dir, name), "builtin", problems);
		expect(problems.list, name).toEqual([]);
		if (agent) parsed[name] = agent;
	}
	return parsed;
}

/** The generated module's text: each definition with an empty `filePath` in its place (discovery sets it). */
function moduleText(parsed: Record<string, AgentDefinition>): string {
	const entries = Object.fromEntries(Object.entries(parsed).map(([name, agent]) => [name, { ...agent, filePath: "" }]));
	return [
		"/**",
		" * GENERATED from agents/*.md by test/config/builtin-agents.test.ts (`npx vitest run test/config/builtin-agents.test.ts -u`):",
		" * the built-in agents as `parseAgentFile` gives them, `filePath` left empty. Discovery uses an entry for a",
		" * built-in file whose text has its `digest`, and parses any other (src/config/agents.ts).",
		" */",
		'import type { AgentDefinition } from "./agent-definition.ts";',
		"",
		"// biome-ignore format: generated",
		`export const PARSED_BUILTIN_AGENTS: Readonly<Record<string, AgentDefinition>> = ${JSON.stringify(entries, null, "\t")};`,
		"",
	].join("\n");
}

describe("the pre-parsed built-in agents", () => {
	it("are what parsing agents/*.md gives, so a discovery that uses them sees the same definitions", async () => {
		const parsed = parsedBuiltins();
		await expect(moduleText(parsed)).toMatchFileSnapshot("../../src/config/builtin-agents.ts");
		expect(Object.keys(PARSED_BUILTIN_AGENTS)).toEqual(Object.keys(parsed));
		const discovered = discoverAgents({
			cwd: tempDir(),
			agentDir: tempDir(),
			scope: "user",
			env: { HOME: "/nonexistent-home" },
		});
		for (const agent of Object.values(parsed)) {
			expect(discovered.agents.find((found) => found.name === agent.name)).toStrictEqual(agent);
		}
		expect(discovered.agents).toHaveLength(Object.keys(parsed).length);
	});

	it("are not used for a built-in file whose text differs: that file is parsed", () => {
		const dir = tempDir();
		cpSync(BUILTIN_AGENTS_DIR, dir, { recursive: true });
		const scout = join(dir, "scout.md");
		writeFileSync(scout, readFileSync(scout, "utf8").replace("description: ", "description: Edited. "));
		const options = { cwd: tempDir(), agentDir: tempDir(), scope: "user" as const, env: { HOME: "/nonexistent-home" } };
		const discovered = discoverAgents({ ...options, builtinDir: dir });
		expect(discovered.agents.find((agent) => agent.name === "scout")?.description).toMatch(/^Edited\. /);
		// The unchanged copies, elsewhere: the same definitions as parsing them there.
		for (const agent of Object.values(parsedBuiltins(dir))) {
			expect(discovered.agents.find((found) => found.name === agent.name)).toStrictEqual(agent);
		}
	});

	it("lose to a project agent of the same name, even one whose text is the built-in's own", () => {
		const project = tempDir();
		const agents = join(project, ".pi", "agents");
		mkdirSync(agents, { recursive: true });
		// The built-in scout's exact text (its digest) in a project file: parsed as the project's, not taken pre-parsed.
		cpSync(join(BUILTIN_AGENTS_DIR, "scout.md"), join(agents, "scout.md"));
		writeFileSync(
			join(agents, "reviewer.md"),
			"---\nname: reviewer\ndescription: The project's reviewer\n---\nReview this project.\n",
		);
		const options = { cwd: project, agentDir: tempDir(), env: { HOME: "/nonexistent-home" } };
		for (let discovery = 0; discovery < 2; discovery++) {
			const found = discoverAgents({ ...options, scope: "both" });
			const scout = found.agents.find((agent) => agent.name === "scout");
			expect(scout?.source).toBe("project");
			expect(scout?.filePath).toBe(join(agents, "scout.md"));
			const reviewer = found.agents.find((agent) => agent.name === "reviewer");
			expect(reviewer).toMatchObject({ source: "project", description: "The project's reviewer" });
		}
		// The built-ins themselves are still found where no project file names them.
		const builtinOnly = discoverAgents({ ...options, scope: "user" });
		expect(builtinOnly.agents.find((agent) => agent.name === "scout")?.source).toBe("builtin");
	});
});
