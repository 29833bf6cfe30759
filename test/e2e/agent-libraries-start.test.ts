/**
 * Agent libraries at session start and in projects (docs/agent-libraries.md, SECURITY.md "Trust"): a
 * Claude Code project agent in an untrusted project is refused headless and asked about with a UI; broken
 * agent files are reported once when the session starts; a copy of the package without its runtime
 * dependencies says so in one line with the install command.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { START_REPORT_HEADING } from "../../src/tools/agent-start-report.ts";
import { runPiCli } from "../fake-model/run-pi.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type UiCall } from "../support/extension-session.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const ROOT = resolve(import.meta.dirname, "../..");
let env: E2eEnv;
let project: string;

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
	project = realpathSync(mkdtempSync(join(env.home.dir, "claude-project-")));
	mkdirSync(join(project, ".claude", "agents"), { recursive: true });
	writeFileSync(
		join(project, ".claude", "agents", "proj-reviewer.md"),
		"---\nname: proj-reviewer\ndescription: The project's reviewer\ntools: Read\n---\nPROJECT-CLAUDE-AGENT\n",
	);
});
afterAll(async () => env?.close());

describe("Claude Code project agents", () => {
	it("refuses a Claude Code project agent in an untrusted project without a UI, and spawns nothing", async () => {
		const session = await createExtensionSession({ cwd: project, agentDir: env.home.agentDir, projectTrusted: false });
		try {
			const before = env.server.requests.length;
			const { result, isError } = await session.callTool("subagent", {
				agent: "proj-reviewer",
				agentScope: "project",
				task: "x",
			});
			expect(isError).toBe(true);
			expect(textOf(result)).toContain(
				`refused to run project agent "proj-reviewer" (${join(project, ".claude", "agents", "proj-reviewer.md")})`,
			);
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
		}
	});

	it("asks about a Claude Code project agent in an untrusted project with a UI, and runs it on claude once confirmed", async () => {
		const asked: string[] = [];
		const uiContext = new Proxy({} as ExtensionUIContext, {
			get: (_target, key) =>
				key === "confirm"
					? async (_title: string, message: string) => {
							asked.push(message);
							return true;
						}
					: () => undefined,
		});
		const session = await createExtensionSession({ cwd: project, agentDir: env.home.agentDir, uiContext });
		try {
			env.server.scriptFor("project claude agent", { text: "project reviewed" });
			const { result, isError } = await session.callTool<SubagentDetails>("subagent", {
				agent: "claude:proj-reviewer",
				agentScope: "both",
				task: "project claude agent",
			});
			expect(isError, textOf(result)).toBe(false);
			expect(asked.join("\n")).toContain('project agent "proj-reviewer"');
			expect(runOf(result.details)).toMatchObject({ harness: "claude_code", finalAnswer: "project reviewed" });
			const request = env.server.requests.find((r) => r.lastUserText === "project claude agent");
			expect(request?.systemPrompt).toContain("PROJECT-CLAUDE-AGENT");
		} finally {
			session.dispose();
		}
	});

	it("names the agentScope that finds an agent defined only in the project", async () => {
		const session = await createExtensionSession({ cwd: project, agentDir: env.home.agentDir });
		try {
			const { result, isError } = await session.callTool("subagent", { agent: "proj-reviewer", task: "x" });
			expect(isError).toBe(true);
			expect(textOf(result)).toContain(
				`"proj-reviewer" is a project agent (${join(project, ".claude", "agents", "proj-reviewer.md")}); call with agentScope: "both"`,
			);
		} finally {
			session.dispose();
		}
	});
});

describe("session start", () => {
	it("reports a broken agent file once at session start, naming the file and the problem", async () => {
		const agents = join(env.home.agentDir, "agents");
		mkdirSync(agents, { recursive: true });
		writeFileSync(join(agents, "broken.md"), "---\nname: broken\ndescription: typo\nmodle: fake/fake-model\n---\nx\n");
		const uiLog: UiCall[] = [];
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, uiLog });
		try {
			const notes = uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
			const line = `pi-native-subagents: ${join(agents, "broken.md")}: modle: unknown key (did you mean "model"?)`;
			expect(notes.filter((note) => note === line)).toHaveLength(1);
		} finally {
			session.dispose();
			rmSync(join(agents, "broken.md"));
		}
	});

	it("reports a broken agent file in the first subagent result of a session without a UI, once", async () => {
		const agents = join(env.home.agentDir, "agents");
		mkdirSync(agents, { recursive: true });
		writeFileSync(
			join(agents, "headless-broken.md"),
			"---\nname: headless-broken\ndescription: typo\ntols: read\n---\nx\n",
		);
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			const line = `- ${join(agents, "headless-broken.md")}: tols: unknown key (did you mean "tools"?)`;
			const first = await session.callTool("subagent", { agent: "scot", task: "x" });
			expect(first.isError).toBe(true);
			expect(textOf(first.result)).toContain('(did you mean "scout"?)');
			expect(textOf(first.result)).toContain(`${START_REPORT_HEADING}\n${line}`);
			const second = await session.callTool("subagent", { agent: "scot", task: "x" });
			expect(textOf(second.result)).not.toContain(START_REPORT_HEADING);
		} finally {
			session.dispose();
			rmSync(join(agents, "headless-broken.md"));
		}
	});

	it("reports a broken agent file to the model under a real `pi -p` parent", async () => {
		const agents = join(env.home.agentDir, "agents");
		mkdirSync(agents, { recursive: true });
		writeFileSync(join(agents, "print-broken.md"), "---\nname: print-broken\n---\nx\n");
		env.server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("PRINT-MODE-REPORT"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
			return { toolCalls: [{ name: "subagent", arguments: { agent: "print-broken", task: "x" } }] };
		});
		try {
			const run = await runPiCli(env.home, ["-e", ROOT, "--no-session", "-p", "PRINT-MODE-REPORT delegate"]);
			expect(run.code, run.stderr).toBe(0);
			expect(run.stdout).toContain(START_REPORT_HEADING);
			expect(run.stdout).toContain(`- ${join(agents, "print-broken.md")}: description:`);
		} finally {
			rmSync(join(agents, "print-broken.md"));
		}
	});

	it("says in one line which runtime dependencies are missing and how to install them, instead of a stack", async () => {
		const copy = makeTempDir("pi-native-subagents-clone-");
		try {
			for (const entry of ["index.ts", "package.json", "src", "agents"])
				cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
			const uiLog: UiCall[] = [];
			const session = await createExtensionSession({
				cwd: env.workDir,
				agentDir: env.home.agentDir,
				uiLog,
				extensionPath: join(copy, "index.ts"),
			});
			try {
				const message = `pi-native-subagents cannot run: its runtime dependencies are not installed (missing: ajv, execa, fastest-levenshtein, p-limit, smol-toml, split2, yaml, zod). Install them with: cd ${JSON.stringify(copy)} && npm install --omit=dev --omit=peer`;
				const notes = uiLog.filter((call) => call.method === "notify").map((call) => String(call.args[0]));
				expect(notes).toContain(`pi-native-subagents: ${message}`);
				const { result, isError } = await session.callTool("subagent", { agent: "scout", task: "x" });
				expect(isError).toBe(true);
				expect(textOf(result)).toBe(message);
			} finally {
				session.dispose();
			}
		} finally {
			rmSync(copy, { recursive: true, force: true });
		}
	});
});
