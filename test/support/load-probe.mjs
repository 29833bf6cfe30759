/**
 * Loads the package's entry point the way Pi's loader does (its default export called with an extension
 * API), in a fresh Node process, and prints JSON `{ tools, commands, events, modules }`: what it
 * registered and every module URL resolved while loading. Node type-strips the `.ts` sources.
 * Usage: node load-probe.mjs <entry file>
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
const entry = process.argv[2];
const { default: factory } = await import(pathToFileURL(entry).href);
const registered = { tools: [], commands: [], events: [], renderers: [] };
factory({
	on: (event) => registered.events.push(event),
	registerTool: (tool) => registered.tools.push(tool.name),
	registerCommand: (name) => registered.commands.push(name),
	registerMessageRenderer: (type) => registered.renderers.push(type),
});
process.stdout.write(JSON.stringify({ ...registered, modules: [...modules] }));
