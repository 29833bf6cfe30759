/**
 * Warm pi children (docs/settings.md §Warm pi children), with real pi children against the fake model: a
 * second call of the same launch adopts the idle child the first left, nothing observable differs, a
 * different launch never takes it, and every warm child ends with the session, `/reload` and its idle timeout.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { childSessionsDir } from "../../src/core/package-dirs.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type ExtensionSession } from "../support/extension-session.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import {
	childSessionFiles,
	ownRunDirs,
	piChildrenOf,
	waitForWarmChild,
	writeWarmSettings,
} from "../support/warm-children.ts";

let env: E2eEnv;
let otherDir: string;

beforeAll(async () => {
	env = await startE2eEnv({
		agents: {
			echo: { description: "Answers plainly", body: "You answer plainly." },
			other: { description: "Answers otherwise", body: "You answer otherwise." },
		},
	});
	otherDir = join(realpathSync(env.home.dir), "elsewhere");
	mkdirSync(otherDir);
	writeWarmSettings(env.home.agentDir, { enabled: true });
});
afterAll(async () => env?.close());

/** Runs `task` with `args` (default the `echo` agent) through `session` and returns its run. */
async function call(task: string, args: Record<string, unknown> = { agent: "echo" }, session = env.session) {
	env.server.scriptFor(task, { text: `answer to ${task}`, usage: { input: 120, output: 30 } });
	const { result, isError } = await session.callTool<SubagentDetails>("subagent", { ...args, task });
	expect(isError, textOf(result)).toBe(false);
	return runOf(result.details);
}

/** The session file's records, with the values each session has of its own (ids, times) replaced by their key. */
function sessionShape(id: string, task: string): string {
	const name = childSessionFiles(env.home.agentDir).find((file) => file.endsWith(`_${id}.jsonl`));
	if (!name) throw new Error(`no session file for ${id}`);
	const own = ["id", "parentId", "timestamp", "responseId", "durationMs"];
	const records = readFileSync(join(childSessionsDir(env.home.agentDir), name), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line, (key, value) => (own.includes(key) ? key : value)));
	return JSON.stringify(records).replaceAll(task, "<task>");
}

/**
 * Ends `env.session` (its warm children with it) and puts a new session of the same home in its place, which
 * reads the settings file as it is now.
 */
async function freshSession(): Promise<ExtensionSession> {
	await env.session.shutdown();
	env.session.dispose();
	env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
	return env.session;
}

/** The one run directory left after a call returned (an evicted warm child's goes once it is gone): its warm child's copy of the run files. */
async function warmRunDir(): Promise<string> {
	await waitUntil(() => ownRunDirs().length === 1, "one run directory: the warm child's");
	return ownRunDirs()[0];
}

describe("warm pi children", () => {
	it("a second identical call takes the warm child, with the same answer, session file and usage as a cold run", async () => {
		const cold = await call("warm probe one");
		const warmPid = await waitForWarmChild(env.home.agentDir);
		expect(warmPid).not.toBe(cold.pid);
		const warm = await call("warm probe two");
		expect(warm.pid).toBe(warmPid);
		expect(warm.status).toBe("completed");
		expect(warm.finalAnswer).toBe("answer to warm probe two");
		expect(warm.usage).toEqual(cold.usage);
		expect(warm.nativeSessionId).not.toBe(cold.nativeSessionId);
		expect(sessionShape(warm.nativeSessionId as string, "warm probe two")).toBe(
			sessionShape(cold.nativeSessionId as string, "warm probe one"),
		);
		// A fresh one waits for the next call.
		const next = await waitForWarmChild(env.home.agentDir);
		expect(next).not.toBe(warmPid);
	});

	it("a warm child of a launch with output_schema submits its structured result as a cold one does", async () => {
		const output_schema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
		const structured = async (task: string, n: number) => {
			env.server.scriptFor(task, { toolCalls: [{ name: "submit_result", arguments: { n } }] });
			const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
				agent: "echo",
				task,
				output_schema,
			});
			expect(isError, textOf(result)).toBe(false);
			return runOf(result.details);
		};
		const cold = await structured("structured cold", 1);
		const warmPid = await waitForWarmChild(env.home.agentDir);
		const warm = await structured("structured warm", 2);
		expect(warm.pid).toBe(warmPid);
		expect(cold.structuredOutput).toEqual({ n: 1 });
		expect(warm.structuredOutput).toEqual({ n: 2 });
	});

	it("a different launch (other agent, model, tools, cwd or environment) does not take the warm child", async () => {
		const base = { agent_type: "pi" };
		const variants: Array<{ args: Record<string, unknown>; env?: Record<string, string> }> = [
			{ args: { agent: "other" } },
			{ args: { ...base, model: "fake/fake-reasoner" } },
			{ args: { ...base, allowed_tools: ["read"] } },
			{ args: { ...base, cwd: otherDir } },
			{ args: base, env: { WARM_PROBE_VARIANT: "1" } },
		];
		const sessionsBefore = childSessionFiles(env.home.agentDir).length;
		for (const [index, variant] of variants.entries()) {
			await call(`launch base ${index}`, base);
			const warmPid = await waitForWarmChild(env.home.agentDir);
			Object.assign(process.env, variant.env);
			try {
				const other = await call(`launch variant ${index}`, variant.args);
				expect(other.pid, JSON.stringify(variant)).not.toBe(warmPid);
				// warm_children.max 1: the variant's own warm child replaces the base's.
				await waitUntil(() => !isAlive(warmPid), "the base launch's warm child ended for the variant's");
				expect(piChildrenOf(env.home.agentDir)).toHaveLength(1);
			} finally {
				for (const name of Object.keys(variant.env ?? {})) delete process.env[name];
			}
		}
		// The same launch still takes it.
		await call("launch base again", base);
		const warmPid = await waitForWarmChild(env.home.agentDir);
		expect((await call("launch base once more", base)).pid).toBe(warmPid);
		// Twelve calls, twelve session files: the warm children ended unused wrote none and left no run directory.
		expect(childSessionFiles(env.home.agentDir).length - sessionsBefore).toBe(2 * variants.length + 2);
		await waitForWarmChild(env.home.agentDir);
		await waitUntil(() => ownRunDirs().length === 1, "one run directory: the last warm child's");
	});

	it("a personal extension removed while a warm child waits never sees the next call, which starts a cold child", async () => {
		const extensions = join(env.home.agentDir, "extensions");
		const seen = join(env.home.dir, "spy-saw");
		writeFileSync(
			join(extensions, "spy.ts"),
			`import { appendFileSync } from "node:fs";\nexport default function (pi) {\n\tpi.on("before_agent_start", async (event) => appendFileSync(${JSON.stringify(seen)}, \`\${event.prompt}\\n\`));\n}\n`,
		);
		try {
			await call("seen by the spy", { agent: "other" });
			expect(readFileSync(seen, "utf8")).toContain("seen by the spy");
			const warmPid = await waitForWarmChild(env.home.agentDir);
			rmSync(join(extensions, "spy.ts"));
			const run = await call("after the spy was removed", { agent: "other" });
			expect(run.pid).not.toBe(warmPid);
			expect(readFileSync(seen, "utf8")).not.toContain("after the spy was removed");
			await waitUntil(() => !isAlive(warmPid), "the warm child that loaded the spy ended for the new one");
		} finally {
			// Not the directory: it holds this package's settings file.
			rmSync(join(extensions, "spy.ts"), { force: true });
			rmSync(seen, { force: true });
		}
	});

	it("a parallel call of four runs of one launch: one takes the warm child, three start cold, all complete, one warm child is left", async () => {
		await call("before the parallel call");
		const warmPid = await waitForWarmChild(env.home.agentDir);
		const tasks = [1, 2, 3, 4].map((n) => ({ agent: "echo", task: `parallel ${n}` }));
		for (const { task } of tasks) env.server.scriptFor(task, { text: `answer to ${task}` });
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", { tasks });
		expect(isError, textOf(result)).toBe(false);
		const runs = tasks.map((_, index) => runOf(result.details, index));
		expect(runs.map((run) => [run.status, run.finalAnswer])).toEqual(
			tasks.map(({ task }) => ["completed", `answer to ${task}`]),
		);
		expect(runs.filter((run) => run.pid === warmPid)).toHaveLength(1);
		expect(new Set(runs.map((run) => run.pid)).size).toBe(4);
		const left = await waitForWarmChild(env.home.agentDir);
		expect(runs.map((run) => run.pid)).not.toContain(left);
		await waitUntil(() => ownRunDirs().length === 1, "one run directory: the warm child's");
	});

	it("a warm child that died while idle is discarded and the call starts a cold child", async () => {
		await call("before the crash");
		const warmPid = await waitForWarmChild(env.home.agentDir);
		const dir = await warmRunDir();
		process.kill(warmPid, "SIGKILL");
		await waitUntil(() => !isAlive(warmPid) && !existsSync(dir), "the killed warm child and its files gone");
		const run = await call("after the crash");
		expect(run.status).toBe("completed");
		expect(run.pid).not.toBe(warmPid);
	});

	it("shutdown ends every warm child and removes its files, leaving no session file", async () => {
		const session = await freshSession();
		await call("before shutdown", { agent: "echo" }, session);
		const warmPid = await waitForWarmChild(env.home.agentDir);
		const dir = await warmRunDir();
		const sessions = childSessionFiles(env.home.agentDir);
		await session.shutdown();
		expect(isAlive(warmPid)).toBe(false);
		expect(existsSync(dir)).toBe(false);
		expect(childSessionFiles(env.home.agentDir)).toEqual(sessions);
	});

	it("/reload ends every warm child and removes its files", async () => {
		const session = await freshSession();
		await call("before reload", { agent: "echo" }, session);
		const warmPid = await waitForWarmChild(env.home.agentDir);
		const dir = await warmRunDir();
		await session.reload();
		expect(isAlive(warmPid)).toBe(false);
		expect(existsSync(dir)).toBe(false);
		// Its tools still call the first load: a new session goes on.
		session.dispose();
		env.session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
	});

	it("the idle timeout ends a warm child and removes its files", async () => {
		writeWarmSettings(env.home.agentDir, { enabled: true, idle_timeout_ms: 5000 });
		const session = await freshSession();
		await call("before the idle timeout", { agent: "echo" }, session);
		// Started before the call returned: there now, gone after its idle timeout.
		const [warmPid] = piChildrenOf(env.home.agentDir);
		expect(warmPid).toBeDefined();
		const dir = await warmRunDir();
		await waitUntil(() => !isAlive(warmPid) && !existsSync(dir), "the idle warm child gone");
	});

	it("with the setting off (the default) no warm child is ever started", async () => {
		writeWarmSettings(env.home.agentDir, { enabled: false });
		const session = await freshSession();
		for (const task of ["cold one", "cold two"]) {
			const run = await call(task, { agent: "echo" }, session);
			expect(run.status).toBe("completed");
			expect(piChildrenOf(env.home.agentDir)).toEqual([]);
			expect(ownRunDirs()).toEqual([]);
		}
	});
});
