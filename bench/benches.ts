/**
 * Every benchmark `npm run bench` runs, in order; the bench smoke test (test/bench/smoke.test.ts) runs each
 * once at tiny sizes. Adding a row to the table is adding an entry here (its module exports a `Bench`,
 * bench/bench.ts).
 *
 * Order matters: the RSS benchmarks run first, before the framing benchmark allocates its synthetic stream,
 * and the end-to-end ones load Pi's SDK only when they run (each module is imported then), so the RSS
 * baselines are not inflated.
 */
import type { Bench } from "./bench.ts";

/** One benchmark: its name (for messages and the smoke test) and how to load it. */
export interface BenchEntry {
	name: string;
	load(): Promise<Bench>;
}

export const BENCHES: readonly BenchEntry[] = [
	{ name: "child RSS", load: async () => (await import("./framing.ts")).childRssBench },
	{ name: "pipeline RSS", load: async () => (await import("./pipeline-rss.ts")).pipelineRssBench },
	{ name: "framing", load: async () => (await import("./framing.ts")).framingBench },
	{ name: "start-up overhead", load: async () => (await import("./startup-overhead.ts")).startupBench },
	{ name: "tool definitions", load: async () => (await import("./tool-definitions.ts")).toolDefinitionsBench },
	{ name: "delegation cost", load: async () => (await import("./delegation-cost.ts")).delegationBench },
	{ name: "long line", load: async () => (await import("./long-line.ts")).longLineBench },
	{ name: "lifeline", load: async () => (await import("./lifeline-overhead.ts")).lifelineBench },
	{ name: "launcher overhead", load: async () => (await import("./launcher-overhead.ts")).launcherBench },
	{ name: "pi RPC mode", load: async () => (await import("./pi-rpc-mode.ts")).piRpcModeBench },
	{ name: "warm children", load: async () => (await import("./warm-children.ts")).warmChildrenBench },
	{ name: "parallel efficiency", load: async () => (await import("./parallel-efficiency.ts")).parallelBench },
];
