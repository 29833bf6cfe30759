/**
 * A real pi parent with this extension loaded: its own `--approve` is an explicit trust decision for its
 * cwd (SECURITY.md "Trust"); without it, Pi's implicit trust of a cwd whose only Pi content is
 * `.pi/agents` is not, and a print-mode parent has no UI to confirm.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPi } from "../fake-model/run-pi.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";
import { createPiHome, type PiHome } from "../support/pi-home.ts";

const PACKAGE_DIR = resolve(import.meta.dirname, "../..");
let server: FakeModelServer;
let home: PiHome;

beforeAll(async () => {
	server = await startFakeModelServer();
	home = createPiHome(server);
	const agents = join(home.dir, "work/.pi/agents");
	mkdirSync(agents, { recursive: true });
	writeFileSync(join(agents, "local.md"), "---\nname: local\ndescription: project agent\n---\nPROJECT-AGENT-BODY\n");
});
afterAll(async () => {
	await home?.cleanup();
	await server?.close();
});

/** The grandchild's task shares no text with the parent's prompt (the fake server matches by substring). */
const grandchild = (prompt: string) => `grandchild-${prompt.split(" ")[0]}`;

async function parentAsksForProjectAgent(prompt: string, flags: string[]): Promise<string> {
	server.scriptFor(
		prompt,
		{
			toolCalls: [{ name: "subagent", arguments: { agent: "local", agentScope: "project", task: grandchild(prompt) } }],
		},
		(request) => ({ text: `tool said: ${request.lastToolOutput}` }),
	);
	server.scriptFor(grandchild(prompt), { text: "the project agent ran" });
	const run = await runPi(home, ["-e", PACKAGE_DIR, ...flags, prompt]);
	expect(run.code, run.stderr).toBe(0);
	const ends = run.events.filter((e) => e.type === "message_end");
	const last = ends.at(-1)?.message as { content: Array<{ text?: string }> } | undefined;
	return (last?.content ?? []).map((part) => part.text ?? "").join("");
}

describe("the parent Pi's own trust flags", () => {
	it("runs a project agent when the parent Pi was started with --approve", async () => {
		const answer = await parentAsksForProjectAgent("approved parent", ["--approve"]);
		expect(answer).toContain("the project agent ran");
		const child = server.requests.find((r) => r.lastUserText === grandchild("approved parent"));
		expect(child?.systemPrompt).toContain("PROJECT-AGENT-BODY");
	});

	it("refuses it when Pi trusts the project only implicitly, and starts no child", async () => {
		const answer = await parentAsksForProjectAgent("implicit parent", []);
		expect(answer).toContain('refused to run project agent "local"');
		expect(answer).toContain("no UI to confirm");
		expect(server.requests.some((r) => r.lastUserText === grandchild("implicit parent"))).toBe(false);
	});
});
