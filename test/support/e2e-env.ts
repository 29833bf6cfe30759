/**
 * Per-test-file setup for end-to-end tests: a fake model server, an isolated pi home laid over
 * `process.env` (children inherit it), a work directory, and a Pi session with this extension loaded.
 * With `nativeHomes`, isolated codex and claude homes (and the pinned binaries) are laid over it too,
 * before the extension loads. `close()` owns the teardown: nothing the environment started outlives it.
 */
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { HarnessAdapter } from "../../src/core/harness-adapter.ts";
import type { LaunchSpec } from "../../src/core/launch-spec.ts";
import { runChild } from "../../src/runs/run-child.ts";
import {
	createExtensionSession,
	type ExtensionSession,
	type ExtensionSessionOptions,
	type UiCall,
} from "./extension-session.ts";
import { type FakeModelServer, startFakeModelServer } from "./fake-model/index.ts";
import { writeJson } from "./files.ts";
import { createNativeHomes, type NativeHomes } from "./native-homes.ts";
import { createPiHome, type PiHome, type PiHomeOptions } from "./pi-home.ts";
import { releaseDirectories } from "./teardown.ts";

export interface E2eEnv {
	server: FakeModelServer;
	home: PiHome;
	/** A directory inside the home for children to work in. */
	workDir: string;
	session: ExtensionSession;
	/** Set with the `nativeHomes` option. */
	native?: NativeHomes;
	/**
	 * Shuts the session down (`session_shutdown`, as Pi does when it exits: jobs cancelled and awaited),
	 * waits until no process uses the homes (`releaseDirectories`), removes them, stops the server and
	 * restores `process.env`. Rejects naming any process that outlived the session (after killing it).
	 */
	close(): Promise<void>;
}

export async function startE2eEnv(
	options: PiHomeOptions & {
		projectTrusted?: boolean;
		workDir?: (home: PiHome) => string;
		nativeHomes?: boolean;
		/** `ctx.mode` of the session (default "print"); see `createExtensionSession`. */
		mode?: ExtensionContext["mode"];
		keepUpdates?: boolean;
		/** Records the session's UI calls (`notify` for a command's answer); see `createExtensionSession`. */
		uiLog?: UiCall[];
	} = {},
): Promise<E2eEnv> {
	const server = await startFakeModelServer();
	const home = createPiHome(server, options);
	const native = options.nativeHomes ? createNativeHomes(server) : undefined;
	const overlay = { ...home.env, ...native?.env };
	const saved = { ...process.env };
	Object.assign(process.env, overlay);
	const workDir = options.workDir?.(home) ?? join(realpathSync(home.dir), "work");
	mkdirSync(workDir, { recursive: true });
	const session = await createExtensionSession({
		cwd: workDir,
		agentDir: home.agentDir,
		projectTrusted: options.projectTrusted,
		mode: options.mode,
		keepUpdates: options.keepUpdates,
		uiLog: options.uiLog,
	});
	const env: E2eEnv = {
		server,
		home,
		workDir,
		session,
		native,
		async close() {
			try {
				// As Pi does when it exits: running jobs are cancelled and awaited, the tmux server goes. The
				// session now in use: a test may have replaced the first one.
				await env.session.shutdown();
				env.session.dispose();
				await releaseDirectories([home.dir, ...(native?.dirs ?? [])]);
			} finally {
				await server.close();
				for (const key of Object.keys(overlay)) {
					if (saved[key] === undefined) delete process.env[key];
					else process.env[key] = saved[key];
				}
			}
		},
	};
	return env;
}

/** The text content of a tool result, joined. */
export function textOf(result: { content: ReadonlyArray<{ type: string; text?: string }> }): string {
	return result.content.map((part) => part.text ?? "").join("");
}

/** The run result of child `index` of a `subagent` call; throws, showing the details, when it has none. */
export function runOf(details: SubagentDetails, index = 0) {
	const run = details.children[index]?.result;
	if (!run) throw new Error(`no result for child ${index}: ${JSON.stringify(details)}`);
	return run;
}

/**
 * Runs the task `<name> first turn` as a new session of `adapter`, then `<name> second turn` resuming the
 * first run's native session id, with the scripted answers `first` (100 input, 10 output tokens) and
 * `second` (300 input, 30 output tokens). Returns both run results and the second turn's model request.
 */
export async function runTwoTurns(
	env: E2eEnv,
	adapter: HarnessAdapter,
	spec: (overrides: Partial<LaunchSpec>) => LaunchSpec,
	name: string,
) {
	const childEnv = { ...(process.env as Record<string, string>) };
	env.server.scriptFor(`${name} first turn`, { text: "first", usage: { input: 100, output: 10 } });
	const first = await runChild(spec({ task: `${name} first turn` }), adapter, { env: childEnv });
	env.server.scriptFor(`${name} second turn`, { text: "second", usage: { input: 300, output: 30 } });
	const second = await runChild(
		spec({
			task: `${name} second turn`,
			session: { kind: "resume", nativeSessionId: first.nativeSessionId as string },
		}),
		adapter,
		{ env: childEnv },
	);
	const request = env.server.requests.find((r) => r.lastUserText === `${name} second turn`);
	return { first, second, request };
}

/** The user settings file of the environment's pi home (docs/settings.md). */
export function settingsFileOf(env: E2eEnv): string {
	return join(env.home.agentDir, "extensions/agentshell.json");
}

/**
 * Writes `settings` to the user settings file, runs `use` with a second session of the extension that loads
 * them (in the environment's work dir and home, with `options`), then disposes that session and removes the
 * file, also when `use` throws.
 */
export async function withSettingsSession<T>(
	env: E2eEnv,
	settings: unknown,
	use: (session: ExtensionSession) => Promise<T>,
	options: Partial<ExtensionSessionOptions> = {},
): Promise<T> {
	const file = settingsFileOf(env);
	writeJson(file, settings);
	try {
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, ...options });
		try {
			return await use(session);
		} finally {
			session.dispose();
		}
	} finally {
		rmSync(file, { force: true });
	}
}
