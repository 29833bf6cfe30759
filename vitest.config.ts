import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// Each worker's pid goes into the run's temp-dir ledger (test/support/temp-dir.ts).
		setupFiles: ["./test/support/temp-dir-worker.ts"],
		// Every test runs against a fresh bundle (docs/development.md §The bundle); the run fails when a test
		// left a temp dir behind (test/support/temp-dir-check.ts).
		globalSetup: ["./test/support/build-runtime.ts", "./test/support/temp-dir-check.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./test/support/summary-reporter.ts"],
	},
});
