/**
 * Start-up cost (docs/design-notes.md §Start-up cost): loading the extension registers its tools, command and hooks
 * and imports nothing a call needs — no zod, execa, split2 or p-limit, none of the configuration, launch,
 * harness, runs, process or sessions modules. The time it saves is measured by `npm run bench`
 * (bench/startup-overhead.ts); the real-pi end-to-end tests prove the deferred modules load when a call comes.
 */
import { execFile } from "node:child_process";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");

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
		const paths = loaded.modules
			.filter((url) => url.startsWith("file:"))
			.map((url) => relative(ROOT, new URL(url).pathname));
		const ours = paths.filter((path) => path.startsWith("src/"));
		expect(ours).toContain("src/index.ts");
		// Light leaves only: the settings file's path rule and the roster variable's name are read at session
		// start; the dependency check (Node built-ins only) runs at load.
		const heavy = ours.filter(
			(path) =>
				/^src\/(config|harness|launch|runs|process|sessions|graph)\//.test(path) &&
				!["src/config/paths.ts", "src/config/dependencies.ts", "src/runs/child-env.ts"].includes(path),
		);
		expect(heavy).toEqual([]);
		const libraries = paths.filter((path) => /node_modules\/(zod|execa|split2|p-limit)\//.test(path));
		expect(libraries).toEqual([]);
	});
});
