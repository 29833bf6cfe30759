/** Children of a call as the live registries list them, for tests of sends and lookups, without running any. */
import type { ChildRun } from "../../src/core/child-run.ts";

/** Child `index` of a call, a running pi child of agent `scout` named `taskName`; `fields` override any of these. */
export function childRun(index: number, taskName: string, fields: Partial<ChildRun> = {}): ChildRun {
	return { index, harness: "pi", task: "t", taskName, agent: "scout", phase: "running", ...fields };
}
