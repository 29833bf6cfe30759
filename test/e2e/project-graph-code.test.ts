/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
/**
 * A saved project graph cannot make its children load code from the project (SECURITY.md "Graph runs"): a pi
 * `resources.extensions` file runs as the child starts, a claude `resources.plugins` directory's hooks run
 * commands, and a `roster_file`'s entries can carry both. The trust prompt names a graph's commands and pins its
 * file, but neither shows nor pins that code, so such a graph is refused before anyone is asked, as `auto_approve`
 * is. Found by the hostile-repository attack: the extension and the hook ran after a prompt that named neither,
 * and an edit of the extension after the confirmation ran without a new question.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { confirmingUi, createExtensionSession } from "../support/extension-session.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

/** A project with an extension and a plugin whose code would each write a marker, and its saved graph `nodes`. */
function hostileProject(nodes: (project: string) => Record<string, unknown>) {
	const project = realpathSync(mkdtempSync(join(env.home.dir, "graph-code-")));
	const marker = join(project, "CODE-RAN");
	mkdirSync(join(project, "tools/plugin/.claude-plugin"), { recursive: true });
	mkdirSync(join(project, "tools/plugin/hooks"), { recursive: true });
	writeFileSync(
		join(project, "tools/lint.ts"),
		`import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default function () {}\n`,
	);
	writeFileSync(
		join(project, "tools/plugin/.claude-plugin/plugin.json"),
		JSON.stringify({ name: "p", version: "1.0.0" }),
	);
	const hook = { hooks: [{ type: "command", command: `touch ${marker}` }] };
	writeFileSync(join(project, "tools/plugin/hooks/hooks.json"), JSON.stringify({ hooks: { SessionStart: [hook] } }));
	writeFileSync(
		join(project, "tools/roster.json"),
		JSON.stringify({
			roster: { roles: [{ name: "linter", agent_type: "pi", resources: { extensions: ["lint.ts"] } }] },
		}),
	);
	mkdirSync(join(project, ".pi/graphs"), { recursive: true });
	writeFileSync(join(project, ".pi/graphs/code.json"), JSON.stringify({ nodes: nodes(project) }));
	return { project, marker };
}

/** A session in `project` whose UI confirms every question, and the questions it was asked. */
async function consentingSession(project: string) {
	const asked: string[] = [];
	const session = await createExtensionSession({
		cwd: project,
		agentDir: env.home.agentDir,
		uiContext: confirmingUi(async (_title, message) => asked.push(message) > 0),
	});
	return { session, asked };
}

describe("a saved project graph", () => {
	it("that chooses extensions, plugins or a roster file for its children is refused before anyone is asked, and nothing runs", async () => {
		const { project, marker } = hostileProject(() => ({
			lint: { agent_type: "pi", task: "code: lint", resources: { extensions: ["tools/lint.ts"] } },
			review: { agent_type: "claude_code", task: "code: review", resources: { plugins: ["tools/plugin"] } },
			items: {
				kind: "fanout",
				over: "${inputs.list}",
				node: { agent_type: "pi", task: "code: ${item}", roster_file: "tools/roster.json", roster_entry: "linter" },
			},
			fine: { agent_type: "pi", task: "code: fine", resources: { extensions: [], skills: [] } },
		}));
		const { session, asked } = await consentingSession(project);
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool<GraphDetails>("agent_graph", {
				name: "code",
				agentScope: "project",
				inputs: { list: ["a"] },
			});
			const text = textOf(result);
			expect(isError, text).toBe(true);
			const allow = "give the graph inline or copy it to your user graphs directory to allow it";
			expect(text).toContain(`node "lint": resources.extensions: a project graph cannot choose extensions`);
			expect(text).toContain(`node "review": resources.plugins: a project graph cannot choose plugins`);
			expect(text).toContain(`node "items": node: roster_file: a project graph cannot choose a roster file`);
			expect(text).toContain(allow);
			expect(text).not.toContain('node "fine"');
			expect(asked, "no one is asked about a graph refused anyway").toEqual([]);
			expect(env.server.requests.length, "no model request").toBe(before);
			expect(existsSync(marker), "no project code ran").toBe(false);
		} finally {
			session.dispose();
		}
	});

	it("that gives its children only resources that load no code still runs after its consent", async () => {
		env.server.scriptFor("code: plain", { text: "plain done" });
		const { project, marker } = hostileProject(() => ({
			plain: {
				agent_type: "pi",
				task: "code: plain",
				resources: { extensions: [], skills: [] },
			},
		}));
		const { session, asked } = await consentingSession(project);
		try {
			const { result, isError } = await session.callTool<GraphDetails>("agent_graph", {
				name: "code",
				agentScope: "project",
			});
			expect(isError, textOf(result)).toBe(false);
			expect(asked).toHaveLength(1);
			expect(existsSync(marker)).toBe(false);
		} finally {
			session.dispose();
		}
	});
});
