/**
 * Loads the package's entry point the way Pi's loader does (its default export called with an extension
 * API), in a fresh Node process, and prints JSON `{ tools, commands, events, renderers, modules }`: what it
 * registered and every module URL resolved while loading. Node type-strips the `.ts` sources.
 * With `--session-start <cwd>`, it then runs the `session_start` handler with a minimal context that has a
 * UI (print its notifications as `notes`), and `modules` lists what had been resolved by its end too. Run
 * it with an isolated `HOME` and `PI_CODING_AGENT_DIR`: the handler reads the agent directories.
 * Usage: node load-probe.mjs <entry file> [--session-start <cwd>]
 */
import { registerHooks } from "node:module";
import { pathToFileURL } from "node:url";

const modules = new Set();
registerHooks({
	resolve(specifier, context, nextResolve) {
		const resolved = nextResolve(specifier, context);
		modules.add(resolved.url);
		return resolved;
	},
});
const [entry, flag, cwd] = process.argv.slice(2);
const { default: factory } = await import(pathToFileURL(entry).href);
const registered = { tools: [], commands: [], events: [], renderers: [] };
const handlers = new Map();
factory({
	on: (event, handler) => {
		registered.events.push(event);
		handlers.set(event, handler);
	},
	registerTool: (tool) => registered.tools.push(tool.name),
	registerCommand: (name) => registered.commands.push(name),
	registerMessageRenderer: (type) => registered.renderers.push(type),
});
const notes = [];
if (flag === "--session-start") {
	const ctx = {
		cwd,
		hasUI: true,
		ui: { notify: (message) => notes.push(message), setWidget: () => undefined },
		sessionManager: { getSessionId: () => "probe-session", getBranch: () => [], getSessionFile: () => undefined },
	};
	await handlers.get("session_start")({ type: "session_start", reason: "startup" }, ctx);
}
process.stdout.write(JSON.stringify({ ...registered, notes, modules: [...modules] }));
