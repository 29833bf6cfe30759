/**
 * Run the fake model server with the built-in demo rules (see `fake-model/rules.ts`) for manual runs.
 *
 * Usage: `node test/support/fake-model-cli.ts [--port 0] [--port-file F] [--log F] [--fallback echo|rules]`
 * - `--port`: TCP port on 127.0.0.1, default 0 (random);
 * - `--port-file`: write the chosen port (decimal, no newline) to F once listening;
 * - `--log`: append one JSON line per ended request (the `RecordedRequest`, headers left out) to F;
 * - `--fallback`: default `rules`.
 * Prints `fake model server listening on http://127.0.0.1:<port>/v1` to stdout; stops on SIGINT/SIGTERM.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startFakeModelServer } from "./fake-model/index.ts";

const { values } = parseArgs({
	options: {
		port: { type: "string", default: "0" },
		"port-file": { type: "string" },
		log: { type: "string" },
		fallback: { type: "string", default: "rules" },
	},
});
const fallback = values.fallback === "echo" ? "echo" : "rules";
const logFile = values.log;

const server = await startFakeModelServer({
	port: Number(values.port),
	fallback,
	onRequestEnd: logFile
		? (request) => {
				const { headers: _headers, ...entry } = request;
				appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
			}
		: undefined,
});
if (values["port-file"]) writeFileSync(values["port-file"], String(server.port));
process.stdout.write(`fake model server listening on ${server.baseUrl}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.once(signal, () => {
		server.close().then(() => process.exit(0));
	});
}
