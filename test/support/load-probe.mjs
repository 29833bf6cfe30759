/**
 * Loads the package's entry point the way Pi's loader does (its default export called with an extension
 * API), in a fresh Node process, and prints JSON `{ tools, commands, events, renderers, modules }`: what it
 * registered and every module URL resolved while loading, with the bundle's chunks its loader read (and
 * `codeCache`: what became of each one's code cache; `maxRss`: the most memory it held, in KiB). Node
 * type-strips the `.ts` sources.
 * With `--session-start <cwd>`, it then runs the `session_start` handler with a minimal context that has a
 * UI (print its notifications as `notes`), and `modules` lists what had been resolved by its end too. Run
 * it with an isolated `HOME` and `PI_CODING_AGENT_DIR`: the handler reads the agent directories.
 * With `--call <cwd> <arguments JSON>`, the session starts without a UI (print mode), the registered `subagent`
 * tool runs once with those arguments (its child a real process), the session shuts down, and `result` is the
 * tool result's text; `modules` then lists what the whole single call loaded.
 * Environment for the bundle tests: PROBE_REPLACE_PEERS, PROBE_WAIT (below); PROBE_BRANCH: the session's branch
 * entries, as JSON (none by default); PROBE_TREE: a branch, as JSON, the session then navigates to (`session_tree`).
 * Usage: node load-probe.mjs <entry file> [--session-start <cwd> | --call <cwd> <arguments JSON>]
 */
import { registerHooks } from "node:module";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const modules = new Set();
registerHooks({
	resolve(specifier, context, nextResolve) {
		const resolved = nextResolve(specifier, context);
		modules.add(resolved.url);
		return resolved;
	},
});
const [entry, flag, cwd, args] = process.argv.slice(2);
const { default: factory } = await import(pathToFileURL(entry).href);
const registered = { tools: [], commands: [], events: [], renderers: [] };
const handlers = new Map();
const tools = new Map();
await factory({
	on: (event, handler) => {
		registered.events.push(event);
		handlers.set(event, handler);
	},
	registerTool: (tool) => {
		registered.tools.push(tool.name);
		tools.set(tool.name, tool);
	},
	registerCommand: (name) => registered.commands.push(name),
	registerMessageRenderer: (type) => registered.renderers.push(type),
	appendEntry: () => undefined,
	sendMessage: () => undefined,
});
// PROBE_REPLACE_PEERS=1: the global the package entry handed the peer packages over through is emptied after the
// load, as another load may replace it (test/package/runtime-bundle-faults.test.ts).
if (process.env.PROBE_REPLACE_PEERS) globalThis[Symbol.for("pi-native-subagents.peers")] = {};
// PROBE_WAIT=1: after the load, "probe: loaded" on stderr, and the session starts at the first line on stdin.
if (process.env.PROBE_WAIT) {
	process.stderr.write("probe: loaded\n");
	await new Promise((resolve) => process.stdin.once("data", resolve));
	process.stdin.pause();
}
const notes = [];
let result;
if (flag === "--session-start" || flag === "--call") {
	const ctx = {
		cwd,
		hasUI: flag === "--session-start",
		mode: flag === "--call" ? "print" : "tui",
		isProjectTrusted: () => true,
		ui: { notify: (message) => notes.push(message), setWidget: () => undefined },
		sessionManager: {
			getSessionId: () => "probe-session",
			getBranch: () => JSON.parse(process.env.PROBE_BRANCH ?? "[]"),
			getSessionFile: () => undefined,
		},
	};
	await handlers.get("session_start")({ type: "session_start", reason: "startup" }, ctx);
	if (process.env.PROBE_TREE) {
		const tree = JSON.parse(process.env.PROBE_TREE);
		const treeCtx = { ...ctx, sessionManager: { ...ctx.sessionManager, getBranch: () => tree } };
		await handlers.get("session_tree")({ type: "session_tree" }, treeCtx);
	}
	if (flag === "--call") {
		const output = await tools.get("subagent").execute("probe-call", JSON.parse(args), undefined, undefined, ctx);
		result = output.content.map((part) => part.text ?? "").join("");
		await handlers.get("session_shutdown")({ type: "session_shutdown", reason: "quit" }, ctx);
	}
}
// The bundle's chunks, which its loader reads itself (src/core/bundle-loader.ts), in the order it loaded them, and
// what became of each one's code cache (chunk file name → "used", "absent" or "refused").
const loader = globalThis[Symbol.for("pi-native-subagents.bundle-loader")];
for (const file of loader?.modules.keys() ?? []) modules.add(pathToFileURL(file).href);
const codeCache = Object.fromEntries([...(loader?.cacheUse ?? [])].map(([file, use]) => [basename(file), use]));
// The most memory the process held, in KiB (a cache file must not be read whatever its size).
const maxRss = process.resourceUsage().maxRSS;
process.stdout.write(JSON.stringify({ ...registered, notes, result, modules: [...modules], codeCache, maxRss }));
