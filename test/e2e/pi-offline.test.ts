/**
 * A pi child never installs a package (SECURITY.md "What a child can do"): a package listed in the settings of the
 * child's own home is not installed, although the parent's environment does not set `PI_OFFLINE`. The
 * home's `npmCommand` is a recorder, so any npm call pi makes leaves a line behind (before `--offline`:
 * `install pi-package-that-must-not-install@1.0.0 --prefix …`).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPiAdapter } from "../../src/harness/pi/adapter.ts";
import { resolvePiInvocation } from "../../src/harness/pi/invocation.ts";
import { runChild } from "../../src/runs/run-child.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { nativeLaunchSpec } from "../support/launch-spec.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

let server: FakeModelServer;
let home: PiHome;
const scratch = makeTempDir("pi-offline-");
const npmCalls = join(scratch, "npm-calls.txt");

beforeAll(async () => {
	server = await startFakeModelServer();
	const recorder = join(scratch, "npm-recorder.mjs");
	writeFileSync(
		recorder,
		`import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(npmCalls)}, process.argv.slice(2).join(" ") + "\\n");\nprocess.exit(1);\n`,
	);
	home = createPiHome(server, {
		settings: { packages: ["npm:pi-package-that-must-not-install@1.0.0"], npmCommand: [process.execPath, recorder] },
	});
});
afterAll(async () => {
	await server?.close();
	await home?.cleanup();
	await releaseDirectories([scratch]);
});

describe("a pi child and resource packages", () => {
	it("never installs a package listed in the child's settings, even when the parent is not offline", async () => {
		server.scriptFor("offline child task", { text: "ran without installing" });
		const adapter = createPiAdapter({
			invocation: () => resolvePiInvocation({}),
			sessionDir: join(scratch, "sessions"),
			agentDir: home.agentDir,
		});
		const { PI_OFFLINE: _offline, ...parentEnv } = { ...(process.env as Record<string, string>), ...home.env };
		const run = await runChild(nativeLaunchSpec({ harness: "pi", cwd: scratch, task: "offline child task" }), adapter, {
			env: parentEnv,
		});
		expect(run.status, JSON.stringify(run)).toBe("completed");
		expect(run.finalAnswer).toBe("ran without installing");
		// Pi may still ask npm where global packages live (`npm root -g`, read-only); it installs and looks up nothing.
		const calls = existsSync(npmCalls) ? readFileSync(npmCalls, "utf8").split("\n").filter(Boolean) : [];
		expect(calls.filter((call) => call !== "root -g")).toEqual([]);
	});
});
