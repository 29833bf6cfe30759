/**
 * The reference docs say what the package does (docs/tools.md, docs/settings.md): every slash command the
 * extension registers has a line in README.md and a row in docs/tools.md §Slash commands; every argument of
 * the `subagent` and `subagent_jobs` schemas has a row in its table (and no row names an argument that does
 * not exist), and every settings key is in docs/settings.md's table with the default the code applies.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/config/settings.ts";
import { subagentSchema } from "../../src/tools/subagent-schema.ts";
import { jobsToolInfo } from "../../src/tools/tool-info.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The text of the `## <title>` section of a Markdown file, up to the next `## ` heading. */
function section(text: string, title: string): string {
	const start = text.indexOf(`\n## ${title}\n`);
	expect(start, `section "## ${title}"`).toBeGreaterThanOrEqual(0);
	const end = text.indexOf("\n## ", start + 1);
	return text.slice(start, end < 0 ? undefined : end);
}

/** The first-column names of a table's rows (`` | `name` | … ``), without a leading `/` or arguments. */
function rowNames(text: string): string[] {
	return [...text.matchAll(/^\| `\/?([\w.-]+)[^`]*` \|/gm)].map((match) => match[1] ?? "");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function registered(): Promise<{ tools: string[]; commands: string[] }> {
	const { stdout } = await promisify(execFile)(NODE, [
		join(ROOT, "test", "support", "load-probe.mjs"),
		join(ROOT, "index.ts"),
	]);
	return JSON.parse(stdout);
}

describe("reference docs against the code", () => {
	it("documents every registered slash command in docs/tools.md and README.md, and no other", async () => {
		const { commands } = await registered();
		const table = rowNames(section(read("docs/tools.md"), "Slash commands"));
		expect([...table].sort()).toEqual([...commands].sort());
		const readme = read("README.md");
		expect(commands.filter((name) => !readme.includes(`/${name}`))).toEqual([]);
	});

	it("gives every registered tool its section in docs/tools.md, without counting them in words", async () => {
		const { tools } = await registered();
		const text = read("docs/tools.md");
		expect(tools.filter((name) => !text.includes(`\n## The ${name} tool\n`))).toEqual([]);
		expect(text).not.toMatch(/\b(two|three|four|five|six) (tools|slash commands)\b/);
	});

	it("documents every argument of the subagent tool, and no argument it does not have", () => {
		const text = section(read("docs/tools.md"), "The subagent tool");
		const rows = rowNames(text);
		const properties = Object.keys(subagentSchema.properties);
		// `prompt` is documented in the `task` row as its alias.
		expect(properties.filter((name) => name !== "prompt" && !rows.includes(name))).toEqual([]);
		expect(text).toContain("`prompt` is accepted as an alias");
		expect(rows.filter((name) => !properties.includes(name))).toEqual([]);
	});

	it("documents every argument of the subagent_jobs tool, and no argument it does not have", () => {
		const rows = rowNames(section(read("docs/tools.md"), "The subagent_jobs tool"));
		expect([...rows].sort()).toEqual(Object.keys(jobsToolInfo.parameters.properties).sort());
	});

	it("documents every settings key with the default the code applies", () => {
		const text = section(read("docs/settings.md"), "Settings file");
		const rows = new Map(
			[...text.matchAll(/^\| `([\w.]+)` \| ([^|]+) \|/gm)].map((match) => [match[1] ?? "", (match[2] ?? "").trim()]),
		);
		const documented: string[] = [];
		for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
			if (key === "roster" || typeof value !== "object" || value === null) {
				documented.push(key);
				// The default column opens with the value as JSON, optionally in backticks (`null`, 120000).
				if (key !== "roster") expect(rows.get(key)?.replace(/`/g, "").split(" ")[0], key).toBe(JSON.stringify(value));
				continue;
			}
			// A section is documented key by key (`limits.timeout_ms`), or in one row listing `key: default` each.
			const group = rows.get(key);
			for (const [inner, leaf] of Object.entries(value)) {
				const path = `${key}.${inner}`;
				documented.push(group === undefined ? path : key);
				const shown = group ?? rows.get(path);
				const expected = group === undefined ? JSON.stringify(leaf) : `${inner}: ${JSON.stringify(leaf)}`;
				expect(shown?.replace(/`/g, ""), path).toMatch(
					group === undefined ? new RegExp(`^${escapeRegExp(expected)}( |$)`) : new RegExp(escapeRegExp(expected)),
				);
			}
		}
		expect([...rows.keys()].filter((key) => !documented.includes(key))).toEqual([]);
	});
});
