/**
 * Per-test-file setup for end-to-end tests: a fake model server, an isolated pi home laid over
 * `process.env` (children inherit it), a work directory, and a Pi session with this extension loaded.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createExtensionSession, type ExtensionSession } from "./extension-session.ts";
import { type FakeModelServer, startFakeModelServer } from "./fake-model/index.ts";
import { createPiHome, type PiHome, type PiHomeOptions } from "./pi-home.ts";

export interface E2eEnv {
	server: FakeModelServer;
	home: PiHome;
	/** A directory inside the home for children to work in. */
	workDir: string;
	session: ExtensionSession;
	close(): Promise<void>;
}

export async function startE2eEnv(
	options: PiHomeOptions & { projectTrusted?: boolean; workDir?: (home: PiHome) => string } = {},
): Promise<E2eEnv> {
	const server = await startFakeModelServer();
	const home = createPiHome(server, options);
	const saved = { ...process.env };
	Object.assign(process.env, home.env);
	const workDir = options.workDir?.(home) ?? join(realpathSync(home.dir), "work");
	mkdirSync(workDir, { recursive: true });
	const session = await createExtensionSession({
		cwd: workDir,
		agentDir: home.agentDir,
		projectTrusted: options.projectTrusted,
	});
	return {
		server,
		home,
		workDir,
		session,
		async close() {
			session.dispose();
			await server.close();
			for (const key of Object.keys(home.env)) {
				if (saved[key] === undefined) delete process.env[key];
				else process.env[key] = saved[key];
			}
			home.cleanup();
		},
	};
}
