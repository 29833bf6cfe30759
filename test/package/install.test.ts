/**
 * README.md "Install" must give a working extension: Pi installs nothing for a local package (Pi's
 * docs/packages.md), so the install steps must install the package's run-time `dependencies` themselves,
 * and those must cover every package the shipped code imports.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
	files: string[];
	dependencies: Record<string, string>;
	peerDependencies: Record<string, string>;
};

/** The first fenced bash block of the `## Install` section. */
function installBlock(): string {
	const section = readme.slice(
		readme.indexOf("\n## Install\n"),
		readme.indexOf("\n## ", readme.indexOf("\n## Install\n") + 1),
	);
	const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
	if (!block) throw new Error('README.md "Install" has no bash block');
	return block;
}

describe("README install from a clone", () => {
	it("installs the run-time dependencies, without dev or peer packages, before pi loads the clone", () => {
		const lines = installBlock().split("\n");
		const npmInstall = lines.findIndex((line) => /\bnpm install\b.*--omit=dev\b.*--omit=peer\b/.test(line));
		const piLoad = lines.findIndex((line) => /^pi (install|-e) /.test(line));
		expect(npmInstall, installBlock()).toBeGreaterThanOrEqual(0);
		expect(npmInstall).toBeLessThan(piLoad);
	});

	it("declares every package the shipped code imports or requires on first use as a dependency or a Pi-provided peer", () => {
		const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
		const sources = readdirTs(join(ROOT, "src")).concat(join(ROOT, "index.ts"));
		const imported = new Set(
			sources.flatMap((file) =>
				[
					...readFileSync(file, "utf8").matchAll(
						/(?:from |import\(|require\(|createRequire\(import\.meta\.url\)\()"([^".][^"]*)"/g,
					),
				]
					.map((match) => match[1])
					.filter((name) => !name.startsWith("node:"))
					.map((name) =>
						name
							.split("/")
							.slice(0, name.startsWith("@") ? 2 : 1)
							.join("/"),
					),
			),
		);
		expect([...imported].filter((name) => !declared.has(name))).toEqual([]);
		// Required only on first use (`createRequire(import.meta.url)("…")`), never imported: seen all the same.
		expect(imported).toContain("fastest-levenshtein");
	});
});

function readdirTs(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? readdirTs(join(dir, entry.name))
			: /\.(ts|mjs)$/.test(entry.name)
				? [join(dir, entry.name)]
				: [],
	);
}
