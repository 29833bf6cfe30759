/**
 * Saved graphs (docs/graphs.md "Saved graphs"): `<agent dir>/graphs/<name>.json|.yaml|.yml` (user) and the
 * nearest `.pi/graphs/` walking up from the cwd (project). The scope follows `agentScope`: `user` (default),
 * `project`, or `both` (a project graph overrides a user graph of the same name). A graph file is read as every
 * configuration file is (docs/rules.md §Configuration files): only a regular file of at most 1 MiB, and a
 * JSON one must not repeat a key. Reading grants nothing: a project graph is project-controlled, and the run's
 * trust gate (graph-trust.ts) passes every project graph a run reaches at once.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { type AgentScope, contentDigest } from "../config/agents.ts";
import { parseJsonText } from "../config/read-json.ts";
import { didYouMean } from "../core/nearest-name.ts";
import { parseErrorLine } from "../core/printable.ts";
import type { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";
import type { LaunchContext } from "../launch/launch-context.ts";
import { type GraphDefinition, graphPlace, nodeLabel } from "./definition.ts";
import { parseGraphDefinition } from "./parse-graph.ts";

const EXTENSIONS = [".json", ".yaml", ".yml"];

export interface SavedGraph {
	name: string;
	file: string;
	source: "user" | "project";
	/** The file's content digest (`contentDigest`): a consent to a project graph is to this content. */
	digest: string;
	/** The parsed document (shape checked by `parseGraphDefinition`). */
	raw: unknown;
}

/** Where the graph a run runs came from: given inline (the model's call), or a saved graph's file and digest. */
export type GraphOrigin =
	| { source: "inline" }
	| { source: "user" | "project"; name: string; file: string; digest: string };

/** The nearest `<dir>/.pi/graphs` walking up from `cwd` (inclusive), or undefined. */
export function findProjectGraphsDir(cwd: string): string | undefined {
	let dir = resolve(cwd);
	for (;;) {
		const candidate = join(dir, ".pi", "graphs");
		if (isDirectory(candidate)) return candidate;
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

/** The graph files directly in `dir`, by name (a name with two files is ambiguous and listed as such). */
function graphFiles(dir: string | undefined): Map<string, string[]> {
	const byName = new Map<string, string[]>();
	if (!dir) return byName;
	let names: string[] = [];
	try {
		names = readdirSync(dir).sort();
	} catch {
		return byName;
	}
	for (const file of names) {
		const ext = extname(file);
		if (!EXTENSIONS.includes(ext)) continue;
		const name = file.slice(0, -ext.length);
		byName.set(name, [...(byName.get(name) ?? []), join(dir, file)]);
	}
	return byName;
}

/**
 * Finds saved graph `name` in the scope, reads and parses it. Grants nothing: a project graph passes the run's
 * trust gate (`checkGraphTrust`) before anything of it runs.
 * @returns the graph, or `undefined` with the problem (unknown name with the known ones, two files of one
 *   name, a file that cannot be read or parsed) added to `problems`.
 */
export function readSavedGraph(
	name: string,
	scope: AgentScope,
	context: Pick<LaunchContext, "cwd" | "agentDir">,
	problems: Problems,
): SavedGraph | undefined {
	const user = scope === "project" ? new Map<string, string[]>() : graphFiles(join(context.agentDir, "graphs"));
	const projectDir = scope === "user" ? undefined : findProjectGraphsDir(context.cwd);
	const project = graphFiles(projectDir);
	const fromProject = project.get(name);
	const files = fromProject ?? user.get(name);
	if (!files) {
		const known = [...new Set([...user.keys(), ...project.keys()])].sort();
		problems.add(
			`name: unknown saved graph "${name}" in scope "${scope}"${didYouMean(name, known)}. Saved graphs: ${known.join(", ") || "none"}`,
		);
		return undefined;
	}
	if (files.length > 1) {
		problems.add(`name: saved graph "${name}" is defined twice (${files.join(", ")}); keep one file`);
		return undefined;
	}
	const file = files[0];
	const read = readUserFile(file);
	if ("problem" in read) {
		problems.add(`${file}: ${read.problem}`);
		return undefined;
	}
	const raw = parseDocument(file, read.text, problems);
	if (raw === undefined) return undefined;
	return { name, file, source: fromProject ? "project" : "user", digest: contentDigest(read.text), raw };
}

function parseDocument(file: string, text: string, problems: Problems): unknown {
	let raw: unknown;
	if (extname(file) === ".json") {
		const parsed = parseJsonText(text, problems.at(file), graphPlace);
		if (!parsed) return undefined;
		raw = parsed.value;
	} else {
		try {
			raw = parseYaml(text);
		} catch (error) {
			problems.add(`${file}: cannot parse: ${parseErrorLine(error)}`);
			return undefined;
		}
	}
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
		problems.add(`${file}: expected a graph object`);
		return undefined;
	}
	return raw;
}

/** Most saved graphs one run may load through its graph nodes. */
export const MAX_SUBGRAPHS = 32;

/** A saved graph a run's graph nodes name, as read and parsed. */
export interface LoadedSubgraph {
	definition: GraphDefinition;
	file: string;
	source: "user" | "project";
	digest: string;
}

/**
 * Every saved graph the graph nodes of `definition` name, recursively (each name read and parsed once), by
 * name. Cycles and nesting are refused by `compileGraph`, which sees the chain; trust by `checkGraphTrust`.
 * @returns what was read, and the names that could not be (each problem: unknown name, unreadable file, bad
 *   shape, is added to `problems`, labelled `node "<key>": graph`).
 */
export function readSubgraphs(
	definition: GraphDefinition,
	scope: AgentScope,
	context: Pick<LaunchContext, "cwd" | "agentDir">,
	problems: Problems,
): { loaded: Map<string, LoadedSubgraph>; failed: Set<string> } {
	const loaded = new Map<string, LoadedSubgraph>();
	const failed = new Set<string>();
	const queue: GraphDefinition[] = [definition];
	for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
		for (const [key, node] of Object.entries(current.nodes)) {
			if (node.kind !== "graph" || loaded.has(node.graph) || failed.has(node.graph)) continue;
			const field = problems.at(`${nodeLabel(key)}: graph`);
			if (loaded.size >= MAX_SUBGRAPHS) {
				field.add(`more than ${MAX_SUBGRAPHS} saved graphs in one run`);
				failed.add(node.graph);
				continue;
			}
			const saved = readSavedGraph(node.graph, scope, context, field);
			const parsed = saved && parseGraphDefinition(saved.raw, problems.at(saved.file));
			if (!saved || !parsed) {
				failed.add(node.graph);
				continue;
			}
			loaded.set(node.graph, { definition: parsed, file: saved.file, source: saved.source, digest: saved.digest });
			queue.push(parsed);
		}
	}
	return { loaded, failed };
}
