/**
 * What this package costs every model request (docs/tools.md §Tool definitions): a real pi run loading the package
 * sends its tools to the fake model server, and the JSON of this package's tools in that request stays within
 * 6,000 characters, the agent graph tool included. The run loads the bundle, which holds the schemas as values
 * (scripts/data-modules.mjs): they arrive as the sources' TypeBox builds them.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshBundleEntry } from "../../src/core/native-bundle.ts";
import { graphToolInfo, jobsToolInfo, rosterToolInfo, subagentToolInfo } from "../../src/tools/tool-info.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
/** The most characters this package's tool definitions may take together in one request. */
const BUDGET = 6_000;
const OURS = new Set(["subagent", "subagent_roster", "subagent_jobs", "agent_graph"]);

let server: FakeModelServer;
let home: PiHome;
/** The tools of the first request of one real `pi -p` run that loads this package from its bundle. */
let sent: SentTool[];
beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	sent = await sentTools();
});
afterAll(async () => {
	await server?.close();
	await home?.cleanup();
});

type SentTool = { function: { name: string; description: string; parameters: unknown } };

/** The tools of the first request of a real `pi -p` run that loads this package (its bundle, when fresh). */
async function sentTools(): Promise<SentTool[]> {
	// The global setup builds the bundle: the run below loads it, not the sources.
	if (!freshBundleEntry(ROOT)) throw new Error("the bundle is not fresh: the run would load the sources");
	const run = promisify(execFile)(NODE, [PI_CLI, "--mode", "json", "-p", "--no-session", "-e", ROOT, "hello"], {
		cwd: home.dir,
		env: { ...process.env, ...home.env },
	});
	run.child.stdin?.end(); // pi -p reads a piped stdin to its end before it starts
	await run;
	const body = server.requests.at(-1)?.body as { tools: SentTool[] } | undefined;
	if (!body) throw new Error("pi sent no request to the fake model server");
	return body.tools;
}

describe("the tool definitions the parent model receives", () => {
	it("are the schemas the sources build, from the bundle's values of them", async () => {
		const byName = new Map(sent.map((tool) => [tool.function.name, tool.function]));
		for (const info of [subagentToolInfo, jobsToolInfo, rosterToolInfo, graphToolInfo]) {
			expect(byName.get(info.name)?.description, info.name).toBe(info.description);
			expect(byName.get(info.name)?.parameters, info.name).toEqual(JSON.parse(JSON.stringify(info.parameters)));
		}
	});

	it("take at most 6,000 characters for all of this package's tools in a real pi request", async () => {
		const ours = sent.filter((tool) => OURS.has(tool.function.name));
		const names = ours.map((tool) => tool.function.name);
		expect([...names].sort()).toEqual([...OURS].sort());
		const sizes = ours.map((tool) => `${tool.function.name} ${JSON.stringify(tool).length}`);
		const size = ours.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
		expect(size, `${sizes.join(", ")}: ${size} characters`).toBeLessThanOrEqual(BUDGET);
	});
});
