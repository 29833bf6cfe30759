/**
 * A parent whose `TMPDIR` is relative (`os.tmpdir()` returns it as it is): the run directory a child's files
 * live in (src/runs/leftovers.ts) is named by an absolute path, so a child started in another directory still
 * reads them (a relative path would be read from the child's cwd, and pi takes a path it cannot open as text).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPiCli } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");

let server: FakeModelServer;
let home: PiHome;
beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server, {
		agents: { echo: { description: "Answers plainly", body: "ECHO-BODY answer plainly." } },
	});
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

describe("a relative TMPDIR", () => {
	it("gives a child started in another directory its agent body, not the body file's relative path", async () => {
		// runPiCli runs pi in <home>/work: TMPDIR=tmp is <home>/work/tmp there, and sub/ is the child's cwd.
		mkdirSync(join(home.dir, "work", "tmp"), { recursive: true });
		mkdirSync(join(home.dir, "work", "sub"), { recursive: true });
		server.route((request) => {
			if (!request.userTexts.some((text) => text.includes("RELATIVE-TMPDIR"))) return undefined;
			if (request.lastToolOutput !== undefined) return { text: `tool said: ${request.lastToolOutput}` };
			return { toolCalls: [{ name: "subagent", arguments: { agent: "echo", task: "child in sub", cwd: "sub" } }] };
		});
		const run = await runPiCli({ ...home, env: { ...home.env, TMPDIR: "tmp" } }, [
			"-e",
			ROOT,
			"--no-session",
			"-p",
			"RELATIVE-TMPDIR delegate",
		]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain("tool said: echo: child in sub");
		const child = server.requests.find((request) => request.userTexts.some((text) => text.includes("child in sub")));
		expect(child?.systemPrompt).toContain("ECHO-BODY answer plainly.");
		expect(child?.systemPrompt).not.toContain("append-system-prompt.md");
	});
});
