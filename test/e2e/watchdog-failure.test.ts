/**
 * A parent-death watchdog that cannot start is reported to the user (SECURITY.md "Processes"): a real pi parent
 * whose `PATH` has no `sh` (the watchdog's gate) still delegates, and says on stderr (print mode has no UI) that
 * its children may outlive it. Node's process warning, the only report before, is silenced by Pi's CLI.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPi } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");

let server: FakeModelServer;
let home: PiHome;
beforeAll(async () => {
	server = await startFakeModelServer({ fallback: "rules" });
	home = createPiHome(server, { agents: { echo: { description: "Answers plainly", body: "Answer plainly." } } });
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

describe("a parent-death watchdog that cannot start", () => {
	it("is reported to the user, naming the watchdog and the error, and the child still answers", async () => {
		const noShell = join(home.dir, "empty-path");
		mkdirSync(noShell);
		const run = await runPi({ ...home, env: { ...home.env, PATH: noShell } }, [
			"-e",
			ROOT,
			'TOOL:subagent:{"agent":"echo","task":"watchdog probe"}',
		]);
		expect(run.code, run.stderr).toBe(0);
		expect(JSON.stringify(run.events)).toContain("Tool said: echo: watchdog probe");
		expect(run.stderr).toContain("pi-native-subagents: parent-death watchdog (sh gate, then ");
		expect(run.stderr).toContain("could not start: spawn sh ENOENT; children may outlive Pi until one starts");
	});
});
