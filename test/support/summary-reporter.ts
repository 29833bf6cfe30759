/**
 * A vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`, which CI
 * tools read in any language (vitest's own summary is colourful and not a standard form).
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
	onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		for (const module of testModules) {
			for (const test of module.children.allTests()) {
				const state = test.result().state;
				if (state === "passed" || state === "failed" || state === "skipped") counts[state] += 1;
			}
			// A file that failed to load has no tests to count, but it failed.
			if (module.state() === "failed" && [...module.children.allTests()].length === 0) counts.failed += 1;
		}
		process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
	}
}
