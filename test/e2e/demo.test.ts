import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

it("runs the demo offline: exit 0, the children's answers and both graphs' outputs printed (every node kind but human)", async () => {
	const { stdout } = await promisify(execFile)(
		process.execPath,
		[resolve(import.meta.dirname, "../../demo/run-demo.ts")],
		{
			timeout: 120_000,
		},
	);
	expect(stdout).toContain("This is a small Python project. Files: README.md, main.py, notes.md.");
	expect(stdout).toContain("notes.md is clear");
	expect(stdout).toContain('Plan (from "The entry point is main.py (it defines main()).")');
	expect(stdout).toContain(
		'outputs: {"entry":"main.py","steps":["Add argparse to main.py","Add --verbose","Test it"]}',
	);
	expect(stdout).toContain('agent_graph "review-and-verify": 7/7 nodes completed');
	expect(stdout).toContain('"summary":"Every file reviewed; main.py is the entry point."');
	expect(stdout).toContain("- review_each: completed · 3/3 ✓");
	expect(stdout).toContain("- summary: completed · round 2/3");
	expect(stdout).toMatch(/- verify: completed · \$ grep .* → exit 0/);
	expect(stdout).toContain("children answered: 5, failed: 0; graphs completed: 2/2");
});
