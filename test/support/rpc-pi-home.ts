/**
 * One fake model server and one Pi home for a test file's real `pi --mode rpc` parents, all in a work dir of
 * that home: registers the file's hooks (each test's parents stopped after it; the home's directories released
 * once no process uses them, then removed).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "./fake-model/index.ts";
import { createPiHome, type PiHome } from "./pi-home.ts";
import { type RpcPi, startRpcPi } from "./rpc-pi.ts";
import { releaseDirectories } from "./teardown.ts";

export interface RpcPiHome {
	server: FakeModelServer;
	home: PiHome;
	workDir: string;
	/** A real `pi --mode rpc` parent in the work dir with the home's environment (and `extraEnv`). */
	startPi(args: string[], extraEnv?: Record<string, string>): RpcPi;
}

/** The fixture, filled in by the file's `beforeAll`. */
export function useRpcPiHome(): RpcPiHome {
	const started: RpcPi[] = [];
	const fixture = {
		startPi(args: string[], extraEnv: Record<string, string> = {}): RpcPi {
			const env = { ...process.env, ...fixture.home.env, ...extraEnv };
			const pi = startRpcPi(args, { cwd: fixture.workDir, env });
			started.push(pi);
			return pi;
		},
	} as RpcPiHome;
	beforeAll(async () => {
		fixture.server = await startFakeModelServer();
		fixture.home = createPiHome(fixture.server);
		fixture.workDir = join(fixture.home.dir, "work");
		mkdirSync(fixture.workDir, { recursive: true });
	});
	afterEach(async () => {
		for (const pi of started.splice(0)) await pi.stop();
	});
	afterAll(async () => {
		if (fixture.home) await releaseDirectories([fixture.home.dir]);
		await fixture.server?.close();
		fixture.home?.cleanup();
	});
	return fixture;
}
