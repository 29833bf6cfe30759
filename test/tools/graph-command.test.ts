/** `/graph <action> [run_id] [node]` (src/tools/graph-command.ts): its usage refusals, before any run is looked up. */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { handleGraphCommand } from "../../src/tools/graph-command.ts";
import { GraphRuns } from "../../src/tools/graph-runs.ts";
import type { SubagentToolDeps } from "../../src/tools/subagent-tool.ts";

function run(args: string) {
	const notes: Array<{ message: string; level: string }> = [];
	const ctx = { ui: { notify: (message: string, level: string) => notes.push({ message, level }) } };
	// No deps: a refusal of the words given must not reach them.
	const done = handleGraphCommand(
		{} as SubagentToolDeps,
		new GraphRuns(),
		args,
		ctx as unknown as ExtensionCommandContext,
	);
	return done.then(() => notes);
}

describe("/graph", () => {
	it.each([
		["list extra", 'list does not take "extra"'],
		["cancel r1 build", 'cancel does not take "build"'],
		["status r1 a b", 'status does not take "a b"'],
		["skip r1 build more", 'skip does not take "more"'],
	])("refuses a word the action does not read: %s", async (args, message) => {
		const notes = await run(args);
		expect(notes).toHaveLength(1);
		expect(notes[0].level).toBe("error");
		expect(notes[0].message).toMatch(new RegExp(`^graph: ${message}; usage: /graph list \\| status <run_id>`));
	});

	it("refuses an unknown action and run, which the command does not offer, with the usage", async () => {
		for (const args of ["delete r1", "run x"]) {
			const notes = await run(args);
			expect(notes).toEqual([{ message: expect.stringMatching(/^graph: usage: \/graph list \|/), level: "error" }]);
		}
	});
});
