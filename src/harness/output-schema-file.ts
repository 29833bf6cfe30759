/**
 * The `output_schema` as a private run file (docs/structured-output.md), for harnesses that read it from
 * a path: codex `--output-schema <file>`, and pi's `submit_result` extension.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Writes `schema` as JSON to `<runDir>/output-schema.json` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 */
export function writeOutputSchemaFile(runDir: string, schema: Record<string, unknown>): string {
	const file = join(runDir, "output-schema.json");
	writeFileSync(file, JSON.stringify(schema), { mode: 0o600 });
	return file;
}
