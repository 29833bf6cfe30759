/**
 * The repository stands alone: code, tests, benches and docs cite only files that ship (README.md,
 * SECURITY.md, docs/*.md, all in package.json `files`), and every `docs/<file>.md §<section>` names a
 * heading that exists there.
 */
import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = ["index.ts", "src", "test", "bench", "demo", "docs", "examples", "agents", "README.md", "SECURITY.md"];

function filesUnder(path: string): string[] {
	const full = join(ROOT, path);
	let entries: Dirent[];
	try {
		entries = readdirSync(full, { withFileTypes: true });
	} catch {
		return [path];
	}
	return entries.flatMap((entry) => {
		if (entry.name === "fixtures" || entry.name === "node_modules") return [];
		const child = join(path, entry.name);
		return entry.isDirectory() ? filesUnder(child) : /\.(ts|mjs|md|json)$/.test(entry.name) ? [child] : [];
	});
}

const files = SCANNED.flatMap(filesUnder).filter((path) => path !== relative(ROOT, import.meta.filename));
const text = new Map(files.map((path) => [path, readFileSync(join(ROOT, path), "utf8")]));

/** `## Heading` titles of a shipped Markdown file. */
function headings(doc: string): Set<string> {
	return new Set([...readFileSync(join(ROOT, doc), "utf8").matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1].trim()));
}

/** GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as `-`. */
function anchors(doc: string): Set<string> {
	return new Set(
		[...readFileSync(join(ROOT, doc), "utf8").matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
			m[1]
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N} _-]/gu, "")
				.replace(/ /g, "-"),
		),
	);
}

describe("citations", () => {
	it("never cite design material that does not ship (DESIGN.md, STYLE.md, spec/, reference/)", () => {
		const offending = [...text].flatMap(([path, body]) =>
			body
				.split("\n")
				.map((line, index) => ({ line, index }))
				.filter(({ line }) => /DESIGN\.md|STYLE\.md|\bspec\/[\w-]+\.md|\breference\/[\w-]+\.md/.test(line))
				.map(({ index }) => `${path}:${index + 1}`),
		);
		expect(offending).toEqual([]);
	});

	it("name a section that exists whenever they cite docs/<file>.md §<section>", () => {
		const missing: string[] = [];
		for (const [path, body] of text) {
			// Doc comments wrap: join continuation lines before matching.
			const flat = body.replace(/\n\s*(?:\*|\/\/)\s*/g, " ");
			for (const match of flat.matchAll(/docs\/([\w-]+\.md) §([\w`][\w` ,-]*?)(?=[).:;"]|, docs|, §| and §|$)/g)) {
				const [doc, section] = [`docs/${match[1]}`, match[2].trim()];
				if (!headings(doc).has(section)) missing.push(`${path}: ${doc} §${section}`);
			}
		}
		expect(missing).toEqual([]);
	});

	it('name a section that exists whenever they cite README.md "<section>" or SECURITY.md "<section>"', () => {
		const missing: string[] = [];
		for (const [path, body] of text) {
			const flat = body.replace(/\n\s*(?:\*|\/\/)?\s*/g, " ");
			for (const match of flat.matchAll(/\b(README|SECURITY)\.md,? ((?:"[^"]+"(?:, | and )?)+)/g)) {
				const doc = `${match[1]}.md`;
				for (const quoted of match[2].matchAll(/"([^"]+)"/g)) {
					if (!headings(doc).has(quoted[1])) missing.push(`${path}: ${doc} "${quoted[1]}"`);
				}
			}
		}
		expect(missing).toEqual([]);
	});

	it("link only to files and headings that exist, in every shipped Markdown file", () => {
		const broken: string[] = [];
		for (const [path, body] of text) {
			if (!path.endsWith(".md")) continue;
			for (const match of body.matchAll(/\]\(([^)\s]+)\)/g)) {
				const target = match[1];
				if (/^[a-z]+:/.test(target)) continue;
				const [file, anchor] = target.split("#");
				const resolved = file ? join(dirname(path), file) : path;
				if (!existsSync(join(ROOT, resolved))) {
					broken.push(`${path}: ${target}`);
					continue;
				}
				if (anchor && !(resolved.endsWith(".md") && anchors(resolved).has(anchor))) broken.push(`${path}: ${target}`);
			}
		}
		expect(broken).toEqual([]);
	});

	it("attribute every docs/<file>.md that is not this repository's to Pi, next to the citation", () => {
		const ambiguous: string[] = [];
		for (const [path, body] of text) {
			const flat = body.replace(/\n\s*(?:\*|\/\/)\s*/g, " ");
			for (const match of flat.matchAll(/docs\/([\w-]+\.md)/g)) {
				if (existsSync(join(ROOT, "docs", match[1]))) continue;
				const around = flat.slice(Math.max(0, match.index - 40), match.index + match[0].length + 15);
				if (!/\bpi(?:'s)?\b/i.test(around)) ambiguous.push(`${path}: docs/${match[1]}`);
			}
		}
		expect(ambiguous).toEqual([]);
	});
});
