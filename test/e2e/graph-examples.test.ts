/**
 * Every saved graph under examples/graphs/ runs by name (`agent_graph({ name })`) from the user's graphs
 * directory, through the real pi, codex and claude binaries against the fake model, to exact outputs.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";

const PACKAGE_DIR = resolve(import.meta.dirname, "../..");
const GRAPHS = join(PACKAGE_DIR, "examples/graphs");
let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
	for (const [from, to] of [
		[GRAPHS, "graphs"],
		[join(PACKAGE_DIR, "agents"), "agents"],
	]) {
		mkdirSync(join(env.home.agentDir, to), { recursive: true });
		for (const file of readdirSync(from)) copyFileSync(join(from, file), join(env.home.agentDir, to, file));
	}
});
afterAll(async () => env?.close());

const submit = (value: Record<string, unknown>) => ({ toolCalls: [{ name: "submit_result", arguments: value }] });
const claude = (value: Record<string, unknown>) => ({ toolCalls: [{ name: "StructuredOutput", arguments: value }] });

describe("shipped example graphs", () => {
	it("ships exactly the graphs run here", () => {
		expect(readdirSync(GRAPHS).sort()).toEqual([
			"explore-and-plan.yaml",
			"plan-code-review.json",
			"review-and-verify.yaml",
		]);
	});

	it("runs explore-and-plan (pi scout → pi planner) to its outputs", async () => {
		env.server.scriptFor(
			"Find the entry point of this project",
			submit({ entry: "main.py", files: ["main.py", "util.py"] }),
		);
		env.server.scriptFor("Plan how to reach this goal", submit({ steps: ["add a flag", "test it"] }));
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			name: "explore-and-plan",
			inputs: { goal: "add --verbose" },
		});
		expect(isError, textOf(result)).toBe(false);
		expect(result.details.outputs).toEqual({ entry: "main.py", steps: ["add a flag", "test it"] });
		const plan = env.server.requests.find((r) => r.lastUserText.startsWith("Plan how to reach this goal"));
		expect(plan?.lastUserText).toBe(
			'Plan how to reach this goal: add --verbose. Start at main.py; the files are ["main.py","util.py"].',
		);
	});

	it("names a misspelt input of a shipped graph, whose inputs schema allows no other key", async () => {
		const before = env.server.requests.length;
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			name: "explore-and-plan",
			inputs: { gaol: "add --verbose" },
		});
		expect(isError).toBe(true);
		expect(textOf(result)).toContain("(gaol)");
		expect(textOf(result)).toContain("goal");
		expect(env.server.requests.length).toBe(before);
	});

	it("runs plan-code-review (claude → codex → pi, follow-up on revise) to its outputs", async () => {
		env.server.scriptFor("Plan this change: rename", claude({ summary: "rename foo to bar", files: ["src/x.ts"] }));
		env.server.scriptFor("Implement: rename foo to bar", {
			text: JSON.stringify({ changed: ["src/x.ts"], notes: "done" }),
		});
		env.server.scriptFor("Review the change", submit({ verdict: "revise", notes: "add a test" }));
		env.server.scriptFor("Plan the follow-up", { text: "follow-up: add a test for bar" });
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			name: "plan-code-review",
			inputs: { change: "rename foo", path: "src" },
		});
		expect(isError, textOf(result)).toBe(false);
		expect(result.details.outputs).toEqual({ verdict: "revise", changed: ["src/x.ts"] });
		expect(result.details.nodes.map((node) => [node.key, node.status, node.harness])).toEqual([
			["plan", "completed", "claude_code"],
			["implement", "completed", "codex"],
			["review", "completed", "pi"],
			["follow_up", "completed", "claude_code"],
		]);
	});

	it("runs review-and-verify (every node kind but human: a fan-out, a saved graph inside it, a feedback loop, a command gate) to its outputs", async () => {
		writeFileSync(join(env.workDir, "main.py"), "def main():\n    pass\n");
		env.server.route((r) => {
			if (r.lastToolOutput !== undefined) return undefined;
			const text = r.lastUserText;
			if (text.startsWith("List the source files")) return submit({ entry: "main.py", files: ["main.py", "util.py"] });
			if (text.startsWith("Find the entry point")) return submit({ entry: "main.py", files: ["main.py"] });
			if (text.startsWith("Plan how to reach")) return submit({ steps: ["add a flag"] });
			const file = /^Review (\S+) \(file (\d)\)/.exec(text);
			if (file) return submit({ file: file[1], note: `note ${file[2]}` });
			if (text.startsWith("Summarize")) {
				return submit({ summary: text.endsWith("[]") ? "draft" : "final" });
			}
			if (text.startsWith("Does this summary")) {
				return submit(
					text.endsWith("final") ? { decision: "pass", feedback: "" } : { decision: "revise", feedback: "more" },
				);
			}
			return undefined;
		});
		const { result, isError } = await env.session.callTool<GraphDetails>("agent_graph", {
			name: "review-and-verify",
			inputs: { goal: "add --verbose" },
		});
		expect(isError, textOf(result)).toBe(false);
		expect(result.details.outputs).toEqual({
			summary: "final",
			steps: ["add a flag"],
			reviews: [
				{ file: "main.py", note: "note 0" },
				{ file: "util.py", note: "note 1" },
			],
			definitions: "1\n",
		});
		expect(result.details.nodes.map((node) => [node.key, node.status, node.progress])).toEqual([
			["scan", "completed", undefined],
			["review_each", "completed", "2/2 ✓"],
			["plan/scan", "completed", undefined],
			["plan/plan", "completed", undefined],
			["plan", "completed", 'graph "explore-and-plan"'],
			["summary", "completed", "round 2/3"],
			["verify", "completed", '$ grep -c "def " main.py → exit 0'],
		]);
	});
});
