import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// Every test runs against a fresh bundle (docs/development.md §The bundle).
		globalSetup: ["./test/support/build-runtime.ts", "./test/support/temp-dir-check.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		pool: "forks",
		maxWorkers: 2,
		reporters: ["default", "./test/support/summary-reporter.ts"],
	},
});
