/**
 * The `output_schema` as a private run file (docs/structured-output.md), for harnesses that read it from
 * a path: codex `--output-schema <file>`, and pi's `submit_result` extension.
 */
import { writeRunFile } from "../runs/leftovers.ts";

/**
 * Writes `schema` as JSON to `<runDir>/output-schema.json` (mode 0600) and returns that path.
 * @param runDir the run's private directory, removed after the run.
 * @throws Error naming the file when it cannot be written (`writeRunFile`).
 */
export function writeOutputSchemaFile(runDir: string, schema: Record<string, unknown>): string {
	return writeRunFile(runDir, "output-schema.json", JSON.stringify(schema));
}
