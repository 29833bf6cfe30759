import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { missingFrom } from "../support/problems.ts";

it("runs the demo offline: exit 0, the children's answers and both graphs' outputs printed (every node kind but human), whatever this package's variables the caller has", async () => {
	// What a sub-agent's bash has, and overrides a user may keep: the demo runs on its own home and pi all the same.
	const callers = {
		PI_AGENTSHELL_DEPTH: "1",
		PI_AGENTSHELL_MAX_DEPTH: "1",
		PI_AGENTSHELL_ROSTER_FILE: "/nonexistent/roster.json",
		PI_NATIVE_SUBAGENTS_PI_COMMAND: '["/bin/false"]',
	};
	const { stdout } = await promisify(execFile)(
		process.execPath,
		[resolve(import.meta.dirname, "../../demo/run-demo.ts")],
		{ timeout: 120_000, env: { ...process.env, ...callers } },
	);
	expect(
		missingFrom(stdout, [
			"This is a small Python project. Files: README.md, main.py, notes.md.",
			"notes.md is clear",
			'Plan (from "The entry point is main.py (it defines main()).")',
			'outputs: {"entry":"main.py","steps":["Add argparse to main.py","Add --verbose","Test it"]}',
			'agent_graph "review-and-verify": 7/7 nodes completed',
			'"summary":"Every file reviewed; main.py is the entry point."',
			"- review_each: completed · 3/3 ✓",
			"- summary: completed · round 2/3",
		]),
	).toEqual([]);
	expect(stdout).toMatch(/- verify: completed · \$ grep -c "def " main.py → exit 0/);
	expect(stdout).toContain("children answered: 5, failed: 0; graphs completed: 2/2");
});
