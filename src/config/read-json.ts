/**
 * Reading one JSON config file (settings, roster files, normalized `agent.json` files, saved graphs), with a
 * problem a user can act on when it cannot be read, parsed, says one key twice, nests too deep or has the key
 * `__proto__` (docs/rules.md §Configuration files). Every JSON file of a user or a project is read here.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { checkJsonShape, type ValuePath } from "../core/json-shape.ts";
import type { Problems } from "../core/problems.ts";
import { readUserFile } from "../core/user-file.ts";

let yamlLibrary: typeof Yaml | undefined;
/** The `yaml` package, required with the first JSON file parsed: a session without config files never loads it. */
function yaml(): typeof Yaml {
	yamlLibrary ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
	return yamlLibrary;
}

/**
 * Reads and parses `file` (a regular file of at most MAX_CONFIG_FILE_BYTES, see `readUserFile`); never
 * throws.
 * @param options.missing what an absent file means: a problem ("file does not exist", the default), or
 *   `"absent"` (returned as `{ absent: true }`, nothing added).
 * @returns the parsed value, or `undefined` with every reason added to `problems` ("does not exist", "is not
 *   a regular file (a FIFO)", "malformed JSON: …", `duplicate key "environment" at line 4, column 3
 *   (environment): JSON files must not repeat a key`, and the shape problems of `parseJsonText`).
 */
export function readJson(file: string, problems: Problems): { value: unknown } | undefined;
export function readJson(
	file: string,
	problems: Problems,
	options: { missing: "absent" },
): { value: unknown } | { absent: true } | undefined;
export function readJson(
	file: string,
	problems: Problems,
	options?: { missing: "absent" },
): { value: unknown } | { absent: true } | undefined {
	const read = readUserFile(file);
	if ("problem" in read) {
		if (read.reason === "missing" && options?.missing === "absent") return { absent: true };
		problems.add(read.reason === "missing" ? "file does not exist" : read.problem);
		return undefined;
	}
	return parseJsonText(read.text, problems);
}

/**
 * Parses JSON text exactly as `JSON.parse` does, and refuses a key said twice in one object (where
 * `JSON.parse` would keep the last silently). Duplicates are found by the `yaml` package's parser with its
 * JSON schema (JSON is YAML 1.2), each named with its line, column and path. Before that, a value nested
 * deeper than `MAX_NESTING` levels or with a `__proto__` key is refused (`checkJsonShape`, core/json-shape.ts).
 * @param place names where a shape problem is from its path (default: the path's first steps,
 *   `roles[1].resources`); a graph file names the node (`node "a": when`).
 * @returns the value, or `undefined` with the reasons added to `problems`.
 */
export function parseJsonText(
	text: string,
	problems: Problems,
	place?: (path: ValuePath) => string,
): { value: unknown } | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		// One line (V8 quotes the start of the text, newlines included), with where the text stops being JSON.
		const message = (error as Error).message.replace(/\s+/g, " ");
		problems.add(`malformed JSON: ${message}${/\bline \d+/.test(message) ? "" : whereMalformed(text)}`);
		return undefined;
	}
	if (!checkJsonShape(value, problems, place)) return undefined;
	const duplicates = duplicateKeys(text);
	for (const problem of duplicates) problems.add(problem);
	return duplicates.length > 0 ? undefined : { value };
}

/** ` (line 2, column 7)`: where the `yaml` parser's JSON schema first fails on `text`, or `""` (an empty text). */
function whereMalformed(text: string): string {
	if (text.trim() === "") return " (the file is empty)";
	const at = yaml().parseDocument(text, { schema: "json" }).errors[0]?.linePos?.[0];
	return at ? ` (line ${at.line}, column ${at.col})` : "";
}

/** One line per key repeated in an object of `text` (valid JSON), in file order. */
function duplicateKeys(text: string): string[] {
	const { isScalar, parseDocument, visit } = yaml();
	const document = parseDocument(text, { schema: "json", uniqueKeys: true });
	const found = document.errors.filter((error) => error.code === "DUPLICATE_KEY");
	if (found.length === 0) return [];
	const keys = new Map<number, { key: string; path: string }>();
	visit(document, {
		Pair(_, pair, ancestors) {
			if (isScalar(pair.key) && pair.key.range) {
				keys.set(pair.key.range[0], { key: String(pair.key.value), path: pathOf([...ancestors, pair]) });
			}
		},
	});
	return found.map((error) => {
		const { key, path } = keys.get(error.pos[0]) ?? { key: "?", path: "?" };
		const at = error.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : "";
		return `duplicate key ${JSON.stringify(key)}${at} (${path}): JSON files must not repeat a key (the last one would silently win)`;
	});
}

/** `roster.roles[1].name` for the pair at the end of `nodes` (the visitor's ancestors). */
function pathOf(nodes: readonly unknown[]): string {
	const { isMap, isPair, isScalar, isSeq } = yaml();
	let path = "";
	for (let i = 0; i < nodes.length; i++) {
		const node = nodes[i];
		if (isPair(node) && isScalar(node.key)) path += `${path ? "." : ""}${String(node.key.value)}`;
		else if (isSeq(node)) {
			const item = nodes[i + 1];
			path += `[${node.items.indexOf(item as never)}]`;
		} else if (isMap(node)) continue;
	}
	return path;
}
