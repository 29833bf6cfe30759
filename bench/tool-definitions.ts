/**
 * Tool definitions (issue 21 item 1): what this package adds to every model request of a session that loads it.
 *
 * - **Value**: characters of JSON of this package's tool definitions in the first request of a real
 *   `pi --mode json -p --no-session -e <this package>` run, as the fake model server received them (OpenAI chat
 *   completions `tools` entries of `subagent`, `subagent_roster`, `subagent_jobs` and `agent_graph`).
 * - **Baseline**: the same for Pi's official subagent example (its one `subagent` tool), in the same kind of run.
 * - **Ratio**: value ÷ baseline. The budget is 6,000 characters for all of this package's tools, the agent graph
 *   tool included (test/package/tool-definitions.test.ts fails above it); the detail line gives each tool's size.
 */
import { join } from "node:path";
import { startFakeModelServer } from "../test/support/fake-model/index.ts";
import { runPiCli } from "../test/support/pi-cli.ts";
import { createPiHome } from "../test/support/pi-home.ts";
import type { Bench } from "./bench.ts";
import { exactly, type WorkShape } from "./work.ts";

const ROOT = join(import.meta.dirname, "..");
/** Pi's official subagent example, as the pinned Pi ships it. */
const OFFICIAL_EXAMPLE = join(
	ROOT,
	...["node_modules", "@earendil-works", "pi-coding-agent", "examples", "extensions", "subagent", "index.ts"],
);
const PROMPT = "hello";
/** The tools of this package (the official example registers one `subagent`). */
const OURS = new Set(["subagent", "subagent_roster", "subagent_jobs", "agent_graph"]);

/** Characters of each of the extension's tools in the first request of a pi run with `-e extension`. */
async function toolSizes(extension: string, names: ReadonlySet<string>) {
	const server = await startFakeModelServer();
	const home = createPiHome(server);
	try {
		const env = { ...process.env, ...home.env };
		const run = await runPiCli(["--mode", "json", "-p", "--no-session", "-e", extension, PROMPT], {
			cwd: home.dir,
			env,
		});
		const body = server.requests[0]?.body as { tools?: Array<{ function: { name: string } }> } | undefined;
		if (run.code !== 0 || !body?.tools) throw new Error(`pi -e ${extension} failed (exit ${run.code}): ${run.stderr}`);
		const sizes = body.tools
			.filter((tool) => names.has(tool.function.name))
			.map((tool) => ({ name: tool.function.name, chars: JSON.stringify(tool).length }));
		const ran: WorkShape & { cwd: string } = { argv: run.argv, cwd: home.dir, input: PROMPT };
		return { sizes, total: sizes.reduce((sum, tool) => sum + tool.chars, 0), ran };
	} finally {
		await home.cleanup();
		await server.close();
	}
}

/** `npm run bench`'s row for the size of this package's tool definitions against the official example's. */
export const toolDefinitionsBench: Bench = {
	rows: ["tool definitions"],
	async run() {
		const ours = await toolSizes(ROOT, OURS);
		const official = await toolSizes(OFFICIAL_EXAMPLE, new Set(["subagent"]));
		const each = ours.sizes.map((tool) => `${tool.name} ${tool.chars}`).join(", ");
		// Each run has its own isolated home: the home's path differs by design, like the extension.
		const intended = [OFFICIAL_EXAMPLE, ROOT, ours.ran.cwd, official.ran.cwd].map((path) => ({
			pattern: exactly(path),
			as: "<varies>",
		}));
		return {
			detail: `tool definitions in a real pi request: ${ours.total} characters (${each}); Pi's subagent example ${official.total}; budget 6,000 with agent_graph`,
			rows: [
				{
					name: "tool definitions",
					value: `${ours.total} chars`,
					baseline: `${official.total} chars`,
					ratio: ours.total / official.total,
					meaning: "this package's tools ÷ Pi's subagent example's, JSON in a request; budget 6,000 chars",
					work: [{ measured: ours.ran, baseline: official.ran, intended }],
				},
			],
		};
	},
};
