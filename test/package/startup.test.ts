/**
 * Start-up cost (docs/design-notes.md §Start-up cost): loading the extension registers its tools, command and hooks
 * and imports nothing a call needs — no zod, execa, split2 or p-limit, none of the configuration, launch,
 * harness, runs, process or sessions modules. The time it saves is measured by `npm run bench`
 * (bench/startup-overhead.ts); the real-pi end-to-end tests prove the deferred modules load when a call comes.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { LAUNCH_RECORD_TYPE, recordFor } from "../../src/sessions/launch-record.ts";
import { withBundledSources } from "../support/bundle-modules.ts";
import { startFakeModelServer } from "../support/fake-model/index.ts";
import { launchSpec } from "../support/launch-spec.ts";
import { createPiHome } from "../support/pi-home.ts";
import { probeSubagentCall } from "../support/probe-call.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");

/** Loaded module URLs → paths relative to the package, each bundle chunk followed by the sources it holds. */
function loadedPaths(modules: readonly string[]): string[] {
	return withBundledSources(
		ROOT,
		modules.filter((url) => url.startsWith("file:")).map((url) => relative(ROOT, new URL(url).pathname)),
	);
}

describe("loading the extension", () => {
	it("registers every tool, the command and the hooks while importing none of what a call runs", async () => {
		const { stdout } = await promisify(execFile)(NODE, [
			join(ROOT, "test", "support", "load-probe.mjs"),
			join(ROOT, "index.ts"),
		]);
		const loaded = JSON.parse(stdout) as {
			tools: string[];
			commands: string[];
			events: string[];
			renderers: string[];
			modules: string[];
		};
		expect(loaded.tools).toEqual(["subagent", "agent_graph", "subagent_roster", "subagent_jobs"]);
		expect(loaded.commands).toEqual([
			"agentshell-roster",
			"subagent-send",
			"subagent-agents",
			"subagent-attach",
			"subagents",
			"subagent-jobs",
			"graph",
		]);
		expect(loaded.renderers).toEqual(["pi-native-subagents.job"]);
		expect(loaded.events.sort()).toEqual(["session_shutdown", "session_start", "session_tree", "tool_result"]);
		const paths = loadedPaths(loaded.modules);
		const ours = paths.filter((path) => path.startsWith("src/"));
		expect(ours).toContain("src/index.ts");
		// Light leaves only: the settings file's path rule, the roster variable's name, the artifact prune's stamp
		// and the listing of the agent dirs are read at session start; the dependency check (Node built-ins only)
		// runs at load.
		const heavy = ours.filter(
			(path) =>
				/^src\/(config|harness|launch|runs|process|sessions|graph)\//.test(path) &&
				![
					"src/config/paths.ts",
					"src/config/dependencies.ts",
					"src/runs/child-env.ts",
					"src/runs/artifact-root.ts",
					"src/config/agent-dirs.ts",
				].includes(path),
		);
		expect(heavy).toEqual([]);
		const libraries = paths.filter((path) => /node_modules\/(zod|execa|split2|p-limit)\//.test(path));
		expect(libraries).toEqual([]);
	});

	const home = makeTempDir("startup-probe-");
	afterAll(() => rmSync(home, { recursive: true, force: true }));

	/** The probe run through a session start in an isolated home (`<home>/work`), with `agentFiles` in the user's pi agent dir. */
	async function sessionStart(agentFiles: Record<string, string>, tmp = home) {
		const agentDir = join(home, `agent-${Object.keys(agentFiles).length}`);
		mkdirSync(join(agentDir, "agents"), { recursive: true });
		for (const [name, text] of Object.entries(agentFiles)) writeFileSync(join(agentDir, "agents", name), text);
		const work = join(home, "work");
		mkdirSync(work, { recursive: true });
		const { stdout } = await promisify(execFile)(
			NODE,
			[join(ROOT, "test", "support", "load-probe.mjs"), join(ROOT, "index.ts"), "--session-start", work],
			{ env: { PATH: process.env.PATH, HOME: home, PI_CODING_AGENT_DIR: agentDir, TMPDIR: tmp } },
		);
		const probe = JSON.parse(stdout) as { notes: string[]; modules: string[] };
		return { notes: probe.notes, paths: loadedPaths(probe.modules), agentDir };
	}
	// The child-session retention rides in the hourly upkeep's chunk, which the first start in a temp dir loads.
	const heavyAtStart = (paths: string[]) =>
		paths.filter((path) =>
			/^src\/(launch|harness|process|sessions|interactive)\/|node_modules\/(execa|split2|p-limit)\//.test(path),
		);

	it("starts a session without agent files loading no agent parser and none of what a call runs", async () => {
		const { notes, paths } = await sessionStart({});
		expect(notes).toEqual([]);
		expect(heavyAtStart(paths)).toEqual([]);
		// Pi's own yaml (under pi-coding-agent/node_modules) is Pi's to load.
		expect(
			paths.filter((path) =>
				/^src\/config\/agents\.ts$|(?<!pi-coding-agent\/)node_modules\/(zod|yaml|smol-toml)\//.test(path),
			),
		).toEqual([]);
	});

	it("starts a session with a broken agent file loading only the agent parsers, and notifies its problem", async () => {
		const { notes, paths, agentDir } = await sessionStart({ "broken.md": "---\nname: broken\n---\nx\n" });
		expect(notes.join("\n")).toContain(`${join(agentDir, "agents", "broken.md")}: description:`);
		expect(paths).toContain("src/config/agents.ts");
		expect(heavyAtStart(paths)).toEqual([]);
	});

	it("starts a session within the hour of the last upkeep loading none of its modules (artifact prune, leftovers sweep)", async () => {
		const tmp = join(home, "upkeep-tmp");
		mkdirSync(tmp);
		const upkeep = (paths: string[]) =>
			paths.filter((path) => /^src\/runs\/(session-start-sweep|artifacts|leftovers)\.ts$/.test(path)).sort();
		// The first start in this temp dir finds no stamp: the upkeep runs, and leaves its stamp.
		expect(upkeep((await sessionStart({}, tmp)).paths)).toEqual([
			"src/runs/artifacts.ts",
			"src/runs/leftovers.ts",
			"src/runs/session-start-sweep.ts",
		]);
		expect(upkeep((await sessionStart({}, tmp)).paths)).toEqual([]);
	});
});

describe("a session start with pi children's sessions under its agent dir", () => {
	const home = makeTempDir("startup-sessions-");
	// The probes have exited (each start awaited its process): nothing runs in it any more.
	afterAll(() => rmSync(home, { recursive: true, force: true }));
	const DAY = 24 * 60 * 60 * 1000;
	/** An agent dir under the temp home whose child sessions dir holds `sessions` (file name → days since written). */
	function agentDirWith(name: string, sessions: Record<string, number>): string {
		const agentDir = join(home, name);
		const dir = join(agentDir, "pi-native-subagents", "sessions");
		mkdirSync(dir, { recursive: true });
		for (const [file, days] of Object.entries(sessions)) {
			writeFileSync(join(dir, file), "{}\n");
			const at = (Date.now() - days * DAY) / 1000;
			utimesSync(join(dir, file), at, at);
		}
		return agentDir;
	}
	async function start(agentDir: string, tmp: string, branch: unknown[] = [], tree?: unknown[]) {
		const work = join(home, "work");
		mkdirSync(work, { recursive: true });
		const { stdout } = await promisify(execFile)(
			NODE,
			[join(ROOT, "test", "support", "load-probe.mjs"), join(ROOT, "index.ts"), "--session-start", work],
			{
				env: {
					PATH: process.env.PATH,
					HOME: home,
					PI_CODING_AGENT_DIR: agentDir,
					TMPDIR: tmp,
					PROBE_BRANCH: JSON.stringify(branch),
					...(tree ? { PROBE_TREE: JSON.stringify(tree) } : {}),
				},
			},
		);
		return loadedPaths((JSON.parse(stdout) as { modules: string[] }).modules);
	}
	/** A launch record of a pi child whose native session id is `id`, as a branch entry. */
	const record = (id: string) => ({
		type: "custom",
		customType: LAUNCH_RECORD_TYPE,
		data: recordFor(launchSpec({ harness: "pi", cwd: home }), id),
	});
	/** The native session ids the hold files under `agentDir` hold. */
	const heldBy = (agentDir: string) => {
		const holds = join(agentDir, "pi-native-subagents", "holds");
		return readdirSync(holds).flatMap((name) => JSON.parse(readFileSync(join(holds, name), "utf8")).sessions);
	};
	const sessionsOf = (agentDir: string) => readdirSync(join(agentDir, "pi-native-subagents", "sessions")).sort();
	const old = "2020-01-01T00-00-00-000Z_old.jsonl";
	const recent = "2026-01-01T00-00-00-000Z_recent.jsonl";

	it("applies the retention with the hourly upkeep only, loading nothing of it within the hour", async () => {
		const agentDir = agentDirWith("retained", { [old]: 400, [recent]: 0 });
		const tmp = join(home, "retention-tmp");
		mkdirSync(tmp);
		const paths = await start(agentDir, tmp);
		expect(sessionsOf(agentDir)).toEqual([recent]);
		expect(paths).toContain("src/harness/pi/session-retention.ts");
		// Within the hour: neither the retention's module nor a removal.
		const again = join(agentDir, "pi-native-subagents", "sessions", "2020-01-02T00-00-00-000Z_again.jsonl");
		writeFileSync(again, "{}\n");
		utimesSync(again, (Date.now() - 400 * DAY) / 1000, (Date.now() - 400 * DAY) / 1000);
		const within = await start(agentDir, tmp);
		// Nothing a call runs either: the runtime loads for launch records or configuration only.
		expect(within.filter((path) => /^src\/(harness|launch|process|sessions|tools\/subagent-tool)/.test(path))).toEqual(
			[],
		);
		expect(sessionsOf(agentDir)).toContain("2020-01-02T00-00-00-000Z_again.jsonl");
	});

	it("loads the runtime when its branch has launch records, which holds their sessions however old", async () => {
		const agentDir = agentDirWith("held", { "2020-01-01T00-00-00-000Z_kept.jsonl": 400 });
		const tmp = join(home, "held-tmp");
		mkdirSync(tmp);
		const paths = await start(agentDir, tmp, [record("kept")]);
		expect(paths).toContain("src/sessions/launch-records.ts");
		expect(sessionsOf(agentDir)).toEqual(["2020-01-01T00-00-00-000Z_kept.jsonl"]);
		expect(heldBy(agentDir)).toEqual(["kept"]);
	});

	it("loads the runtime when the session navigates (/tree) to a branch with launch records, which holds their sessions", async () => {
		// The start's branch has none, and the hourly upkeep is due: the retention runs first, holding nothing.
		const agentDir = agentDirWith("tree", { "2026-01-01T00-00-00-000Z_recent.jsonl": 0 });
		const tmp = join(home, "tree-tmp");
		mkdirSync(tmp);
		const paths = await start(agentDir, tmp, [], [record("visited")]);
		expect(paths).toContain("src/sessions/launch-records.ts");
		expect(heldBy(agentDir)).toEqual(["visited"]);
	});

	it("removes nothing with a malformed settings file, and applies a settings file that appeared within the hour", async () => {
		const agentDir = agentDirWith("settings", { [old]: 400, "2026-01-02T00-00-00-000Z_twodays.jsonl": 2 });
		const tmp = join(home, "settings-tmp");
		mkdirSync(tmp);
		const settings = join(agentDir, "extensions", "agentshell.json");
		mkdirSync(join(agentDir, "extensions"));
		writeFileSync(settings, "{ not json");
		// The hourly upkeep is due, yet the malformed file decides: nothing is removed.
		await start(agentDir, tmp);
		expect(sessionsOf(agentDir)).toEqual([old, "2026-01-02T00-00-00-000Z_twodays.jsonl"]);
		// Within the hour, the settings file now valid: the runtime loads and applies its `child_sessions`.
		writeFileSync(settings, JSON.stringify({ child_sessions: { max_age_days: 1 } }));
		await start(agentDir, tmp);
		expect(sessionsOf(agentDir)).toEqual([]);
	});

	it("removes nothing when the settings file cannot be read (a symlink loop): it is there, so it is malformed, not absent", async () => {
		const agentDir = agentDirWith("loop", { [old]: 400 });
		const tmp = join(home, "loop-tmp");
		mkdirSync(tmp);
		mkdirSync(join(agentDir, "extensions"));
		symlinkSync("agentshell.json", join(agentDir, "extensions", "agentshell.json"));
		await start(agentDir, tmp);
		expect(sessionsOf(agentDir)).toEqual([old]);
	});
});

describe("a single subagent call", () => {
	it("loads only what the call runs: no graph, jobs, roster, fleet or TUI hosting modules, no codex or claude adapter, and no zod, yaml, smol-toml or execa without config files", async () => {
		const server = await startFakeModelServer({ fallback: "rules" });
		const home = createPiHome(server, {
			agents: { echo: { description: "Answers plainly", body: "You answer plainly." } },
		});
		try {
			const probe = await probeSubagentCall(join(ROOT, "index.ts"), home, { agent: "echo", task: "probe" });
			expect(probe.result).toContain("echo:");
			const paths = loadedPaths(probe.modules);
			// The call ran from the bundle (the global setup built it): its own modules loaded.
			expect(paths).toContain("dist/runtime/extension.cjs");
			expect(paths).toEqual(expect.arrayContaining(["src/tools/subagent-tool.ts", "src/harness/pi/adapter.ts"]));
			const notForThisCall = paths.filter((path) =>
				/^src\/(graph|harness\/(codex|claude)\/|interactive\/(tmux-host|run-interactive|pane-input))|^src\/tools\/(graph-|jobs-tool|roster-tool|fleet-command|command-handlers|tools\.ts)|^src\/ui\/fleet-|(?<!pi-coding-agent\/)node_modules\/(zod|yaml|smol-toml|execa)\//.test(
					path,
				),
			);
			expect(notForThisCall).toEqual([]);
		} finally {
			await home.cleanup();
			await server.close();
		}
	});
});
