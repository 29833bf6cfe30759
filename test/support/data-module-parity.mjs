/**
 * Run with Node (`node data-module-parity.mjs <out dir>`): imports each data module (scripts/data-modules.mjs) with
 * Pi's TypeBox, as the build and Pi's loader do, builds its bundle code, imports that too, and prints one JSON line:
 * the TypeBox module resolved, and per module the names whose trees (describe-tree.mjs) differ.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DATA_MODULES, dataModule, usePiTypebox } from "../../scripts/data-modules.mjs";
import { describeTree } from "./describe-tree.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const out = process.argv[2];

usePiTypebox();
const report = { typebox: import.meta.resolve("typebox"), modules: {} };
for (const [index, path] of DATA_MODULES.entries()) {
	const source = await import(pathToFileURL(join(ROOT, path)).href);
	const file = join(out, `built-${index}.mjs`);
	writeFileSync(file, await dataModule(join(ROOT, path)));
	const built = await import(pathToFileURL(file).href);
	const names = [...new Set([...Object.keys(source), ...Object.keys(built)])];
	report.modules[path] = {
		names: names.length,
		differ: names.filter(
			(name) => JSON.stringify(describeTree(source[name])) !== JSON.stringify(describeTree(built[name])),
		),
	};
}
process.stdout.write(`${JSON.stringify(report)}\n`);
