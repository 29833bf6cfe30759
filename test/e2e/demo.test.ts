import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

it("runs the demo offline: exit 0, the children's answers and the graph's outputs printed", async () => {
	const { stdout } = await promisify(execFile)(
		process.execPath,
		[resolve(import.meta.dirname, "../../demo/run-demo.ts")],
		{
			timeout: 60_000,
		},
	);
	expect(stdout).toContain("This is a small Python project. Files: README.md, main.py, notes.md.");
	expect(stdout).toContain("notes.md is clear");
	expect(stdout).toContain('Plan (from "The entry point is main.py (it defines main()).")');
	expect(stdout).toContain(
		'outputs: {"entry":"main.py","steps":["Add argparse to main.py","Add --verbose","Test it"]}',
	);
	expect(stdout).toContain("children answered: 5, failed: 0; graph completed");
});
