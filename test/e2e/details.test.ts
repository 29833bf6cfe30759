/** Result `details` stay bounded per child (Pi stores them in the parent's session file); whole answers go to artifacts. */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { PRUNE_STAMP } from "../../src/runs/artifact-root.ts";
import { MAX_CHILD_DETAILS_BYTES } from "../../src/runs/child-details.ts";
import { type E2eEnv, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";

let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } } });
});
afterAll(async () => env?.close());

/** `bytes` of answer text in 100-byte lines, tagged so answers differ. */
function bigAnswer(tag: string, bytes: number): string {
	const line = `${tag} ${"x".repeat(98 - tag.length)}\n`;
	return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

const MB = 1024 * 1024;

describe("result details", () => {
	it("keeps a 100 KB answer out of details: a preview, its size and the artifact path", async () => {
		const answer = bigAnswer("hundred-k", 100_000);
		env.server.scriptFor("answer 100 KB", { text: answer, chunkChars: 16_384 });
		const { result } = await env.session.callTool<SubagentDetails>("subagent", {
			agent: "echo",
			task: "answer 100 KB",
		});
		const run = result.details.children[0].result;
		expect(run?.status).toBe("completed");
		const detailsBytes = Buffer.byteLength(JSON.stringify(result.details));
		expect(detailsBytes).toBeLessThan(8 * 1024);
		expect(run?.finalAnswerBytes).toBe(100_000);
		expect(answer.startsWith(run?.finalAnswer.slice(0, 1_000) ?? "-")).toBe(true);
		expect(readFileSync(run?.artifactPath as string, "utf8")).toBe(answer);
		expect(textOf(result)).toContain(`full answer in ${run?.artifactPath}`);
	});

	it("grows the parent session file by at most 4 MB over 50 delegations of 1 MB answers", async () => {
		const settingsFile = join(env.home.agentDir, "extensions/agentshell.json");
		writeJson(settingsFile, { limits: { max_parallel_tasks: 10, concurrency: 5, global_concurrency: 5 } });
		const sessionDir = join(env.home.dir, "parent-sessions");
		mkdirSync(sessionDir, { recursive: true });
		// The extension takes its artifact root from TMPDIR at load: keep these 50 MB inside the home.
		const session = await withTmpdir(join(env.home.dir, "tmp"), () =>
			createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, sessionDir }),
		);
		try {
			// A first small call makes Pi create the file; growth is measured from there.
			env.server.scriptFor("warm up", { text: "warm" });
			await session.callTool("subagent", { agent: "echo", task: "warm up" });
			const file = session.sessionFile() as string;
			const before = statSync(file).size;
			for (let call = 0; call < 5; call++) {
				const tasks = Array.from({ length: 10 }, (_, i) => `megabyte ${call}-${i}`);
				for (const task of tasks) env.server.scriptFor(task, { text: bigAnswer(task, MB), chunkChars: 65_536 });
				const { result } = await session.callTool<SubagentDetails>("subagent", {
					tasks: tasks.map((task) => ({ agent: "echo", task })),
				});
				expect(result.details.children.map((child) => child.phase)).toEqual(tasks.map(() => "completed"));
				for (const child of result.details.children) {
					expect(Buffer.byteLength(JSON.stringify(child))).toBeLessThan(MAX_CHILD_DETAILS_BYTES);
					expect(statSync(child.result?.artifactPath as string).size).toBe(MB);
				}
			}
			const growth = statSync(file).size - before;
			// 50 answers of 1 MB each: 50 MB of output; the model gets 50 KB of each, details a few KB.
			expect(growth).toBeLessThan(4 * MB);
		} finally {
			session.dispose();
			rmSync(settingsFile);
		}
		// 50 real pi children: about 25 s alone, several times that while the whole suite shares the cores.
	}, 300_000);
});

describe("artifacts", () => {
	it("never overwrites an earlier call's artifact when the provider reuses a tool-call id", async () => {
		const first = bigAnswer("first", 60_000);
		const second = bigAnswer("second", 60_000);
		env.server.scriptFor("reused id one", { text: first, chunkChars: 16_384 });
		env.server.scriptFor("reused id two", { text: second, chunkChars: 16_384 });
		const paths: string[] = [];
		for (const task of ["reused id one", "reused id two"]) {
			const [outcome] = await env.session.callTools([
				{ name: "subagent", args: { agent: "echo", task }, id: "call_reused" },
			]);
			paths.push((outcome.result.details as SubagentDetails).children[0].result?.artifactPath as string);
		}
		expect(paths[0]).not.toBe(paths[1]);
		expect(readFileSync(paths[0], "utf8")).toBe(first);
		expect(readFileSync(paths[1], "utf8")).toBe(second);
		for (const path of paths) expect(basename(path)).not.toContain("call_reused");
	});

	it("removes old artifact directories at session start and keeps recent ones", async () => {
		const tmp = join(env.home.dir, "retention-tmp");
		const root = join(tmp, `pi-native-subagents-${process.getuid?.()}`);
		const aged = (name: string, days: number) => {
			mkdirSync(join(root, name), { recursive: true });
			writeFileSync(join(root, name, "a.md"), "answer");
			const when = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
			utimesSync(join(root, name, "a.md"), when, when);
			utimesSync(join(root, name), when, when);
		};
		aged("eight-days-old", 8);
		aged("one-day-old", 1);
		const session = await withTmpdir(tmp, () =>
			createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir }),
		);
		session.dispose();
		// The prune's stamp beside them (docs/tools.md §Artifacts).
		expect(readdirSync(root).sort()).toEqual([PRUNE_STAMP, "one-day-old"].sort());
	});
});

/** Runs `create` with TMPDIR set to `dir` (created), restoring TMPDIR after. */
async function withTmpdir<T>(dir: string, create: () => Promise<T>): Promise<T> {
	mkdirSync(dir, { recursive: true });
	const saved = process.env.TMPDIR;
	process.env.TMPDIR = dir;
	try {
		return await create();
	} finally {
		if (saved === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = saved;
	}
}
