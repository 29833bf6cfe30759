/**
 * The docs stay findable and the README stays short (README.md "Documentation"): README.md is a user's
 * introduction of at most 12 KB, and README.md and docs/README.md each link every doc under docs/.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const docs = readdirSync(join(ROOT, "docs")).filter((file) => file.endsWith(".md") && file !== "README.md");

describe("docs index", () => {
	it("keeps README.md at most 12 KB", () => {
		expect(statSync(join(ROOT, "README.md")).size).toBeLessThanOrEqual(12 * 1024);
	});

	it("links every doc under docs/ from README.md and from docs/README.md", () => {
		const readme = readFileSync(join(ROOT, "README.md"), "utf8");
		const index = readFileSync(join(ROOT, "docs", "README.md"), "utf8");
		expect(docs.length).toBeGreaterThan(0);
		expect(docs.filter((doc) => !readme.includes(`](docs/${doc})`))).toEqual([]);
		expect(docs.filter((doc) => !index.includes(`](${doc})`))).toEqual([]);
	});
});
