import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findThreadRollout, readThreadUsage } from "../../../src/harness/codex/rollout.ts";
import { releaseDirectories } from "../../support/teardown.ts";
import { makeTempDir } from "../../support/temp-dir.ts";

const dir = makeTempDir("codex-rollout-");
const THREAD = "0f0e0d0c-1114-406e-8ddf-025493a5408d";
afterAll(() => releaseDirectories([dir]));

describe("codex usage baseline of a resumed thread", () => {
	it("reads the last cumulative total from the thread's rollout file", () => {
		const home = join(dir, "home-with-rollout");
		const day = join(home, "sessions", "2026", "11", "29");
		mkdirSync(day, { recursive: true });
		const tokenCount = (input: number) =>
			JSON.stringify({
				type: "event_msg",
				payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, output_tokens: 1 } } },
			});
		writeFileSync(
			join(day, `rollout-2026-11-29T23-00-00-${THREAD}.jsonl`),
			`${tokenCount(100)}\n${tokenCount(300)}\n{"type":"event_msg","payl`,
		);
		expect(readThreadUsage(home, THREAD)).toEqual({ input_tokens: 300, output_tokens: 1 });
		expect(readThreadUsage(home, "0f0e0d0c-1114-406e-8ddf-025493a54000")).toBeUndefined();
		expect(readThreadUsage(join(dir, "no-such-home"), THREAD)).toBeUndefined();
	});
});

describe("the rollout of a thread", () => {
	it("is found by the whole thread id only: a thread name or the tail of another thread's id finds nothing", () => {
		const home = join(dir, "home-of-another-project");
		const day = join(home, "sessions", "2026", "12", "04");
		mkdirSync(day, { recursive: true });
		const file = join(day, `rollout-2026-12-04T01-00-00-${THREAD}.jsonl`);
		writeFileSync(file, "{}\n");
		expect(findThreadRollout(home, THREAD)).toBe(file);
		expect(findThreadRollout(home, THREAD.slice(-12))).toBeUndefined();
		expect(findThreadRollout(home, `406e-8ddf-${THREAD.slice(-12)}`)).toBeUndefined();
	});
});
