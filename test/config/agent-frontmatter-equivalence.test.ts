/**
 * The pi frontmatter fast path (`plainFrontmatter`, read without zod) against the schema: for every mapping,
 * the fast path either declines or gives exactly what the schema gives. Mappings come from odd agent files
 * (anchors, tags, CRLF, BOM, `---` in the body …) and from a seeded generator over every key with values of
 * every kind, keys named like `Object.prototype` members included.
 */
import { describe, expect, it } from "vitest";
import { piFrontmatterSchema, plainFrontmatter, readMarkdownAgent } from "../../src/config/agent-markdown.ts";
import { parseAgentFile } from "../../src/config/agents.ts";
import { Problems } from "../../src/core/problems.ts";
import { collect } from "../support/problems.ts";

const SCHEMA_KEYS = Object.keys(piFrontmatterSchema().shape);
const PROTOTYPE_KEYS = ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"];

const VALUES: readonly unknown[] = [
	"a",
	" a ",
	"",
	"  ",
	"\u00a0",
	"\ufeffx",
	"x".repeat(20_000),
	"read, bash",
	"a,b,,",
	"名前",
	"é\u0301",
	"inherit",
	...["pi", "codex", "claude_code", "gemini", "append", "replace", "fresh", "fork", "Fork"],
	null,
	0,
	123,
	1.5,
	true,
	false,
	[],
	["read"],
	["read", 3],
	[null],
	[["read"]],
	{},
	{ a: 1 },
	new Date(0),
];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** `key: value` set as an own property, as the YAML parser sets it (`__proto__` included). */
function withKey(mapping: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
	Object.defineProperty(mapping, key, { value, enumerable: true, writable: true, configurable: true });
	return mapping;
}

function generatedMappings(count: number): Record<string, unknown>[] {
	const next = random(20261201);
	const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
	const keys = [...SCHEMA_KEYS, ...PROTOTYPE_KEYS];
	const mappings: Record<string, unknown>[] = [];
	for (let i = 0; i < count; i++) {
		const mapping: Record<string, unknown> = {};
		if (next() < 0.9) withKey(mapping, "name", next() < 0.8 ? "a" : pick(VALUES));
		if (next() < 0.9) withKey(mapping, "description", next() < 0.8 ? "d" : pick(VALUES));
		const extra = Math.floor(next() * 4);
		for (let k = 0; k < extra; k++) withKey(mapping, pick(keys), pick(VALUES));
		mappings.push(mapping);
	}
	return mappings;
}

/** The fast path declines `mapping` or reads it exactly as the schema does. */
function expectSameAsSchema(mapping: Record<string, unknown>): void {
	const fast = plainFrontmatter(mapping);
	if (fast === undefined) return;
	const schema = piFrontmatterSchema().safeParse(mapping);
	const label = `${Object.keys(mapping).join(",")}: ${JSON.stringify(mapping).slice(0, 200)}`;
	expect(schema.success, label).toBe(true);
	expect(fast, label).toEqual(schema.data);
}

const ODD_FILES: Record<string, string> = {
	anchor: "---\nname: &n a\ndescription: *n\n---\nbody",
	"string tag on a number": "---\nname: !!str 123\ndescription: d\n---\nbody",
	"number as name": "---\nname: 123\ndescription: d\n---\nbody",
	"binary tag": "---\nname: a\ndescription: !!binary aGVsbG8=\n---\nbody",
	"date-like description": "---\nname: a\ndescription: 2024-01-01\n---\nbody",
	"set tag on tools": "---\nname: a\ndescription: d\ntools: !!set {read, bash}\n---\nb",
	"tools as a string": '---\nname: a\ndescription: d\ntools: "read,bash"\n---\nb',
	"tools as a list": "---\nname: a\ndescription: d\ntools: [read, bash]\n---\nb",
	"merge key": "---\n<<: {name: a, description: d}\n---\nbody",
	CRLF: "---\r\nname: a\r\ndescription: d\r\ntools: read\r\n---\r\nbody\r\n",
	BOM: "\ufeff---\nname: a\ndescription: d\n---\nbody",
	"empty frontmatter": "---\n---\nbody",
	"--- inside the body": "---\nname: a\ndescription: d\n---\nbody\n---\nmodel: x\n---\n",
	unicode: "---\nname: 名前\ndescription: \u00e9\u0301 \u{1f600}\n---\nb",
	"very long value": `---\nname: a\ndescription: ${"x".repeat(100_000)}\n---\nb`,
	"block scalar": "---\nname: a\ndescription: |\n  two\n  lines\n---\nb",
	"explicit null": "---\nname: a\ndescription: d\nmodel: ~\neffort: null\n---\nb",
};

describe("the pi frontmatter fast path", () => {
	it("reads each odd agent file's frontmatter as the schema does, or leaves it to the schema", () => {
		for (const [label, content] of Object.entries(ODD_FILES)) {
			const read = readMarkdownAgent(content, new Problems());
			if (read) expectSameAsSchema(read.frontmatter);
			else expect(label).toBe("a file the YAML reader refuses for both paths alike");
		}
	});

	it("reads every generated mapping as the schema does, or leaves it to the schema", () => {
		const mappings = generatedMappings(4000);
		for (const mapping of mappings) expectSameAsSchema(mapping);
		// The generator reaches both outcomes often: a check that never takes the fast path proves nothing.
		const taken = mappings.filter((mapping) => plainFrontmatter(mapping) !== undefined).length;
		expect(taken).toBeGreaterThan(400);
		expect(mappings.length - taken).toBeGreaterThan(400);
	});

	it("declines a key named like an Object.prototype member", () => {
		for (const key of PROTOTYPE_KEYS) {
			expect(plainFrontmatter(withKey({ name: "a", description: "d" }, key, "x")), key).toBeUndefined();
		}
	});
});

describe("frontmatter keys named like Object.prototype members", () => {
	it("reports toString, constructor and __proto__ keys as unknown, not as ignored", () => {
		for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
			const content = `---\nname: a\ndescription: d\n${key}: x\n---\nbody`;
			const { value, problems } = collect((found) => parseAgentFile(content, "/x/a.md", "user", found));
			expect(value, key).toBeUndefined();
			expect(problems, key).toEqual([expect.stringMatching(new RegExp(`^${key}: unknown key`))]);
		}
	});

	it("keeps a tool named constructor or toString as written", () => {
		const content = "---\nname: a\ndescription: d\ntools: constructor, toString, Read\n---\nbody";
		const { value, problems } = collect((found) => parseAgentFile(content, "/x/a.md", "user", found));
		expect(problems).toEqual([]);
		expect(value?.tools).toEqual(["constructor", "toString", "read"]);
	});
});
