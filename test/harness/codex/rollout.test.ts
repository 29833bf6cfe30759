import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readThreadUsage } from "../../../src/harness/codex/rollout.ts";
import { releaseDirectories } from "../../support/teardown.ts";
import { makeTempDir } from "../../support/temp-dir.ts";

const dir = makeTempDir("codex-rollout-");
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
			join(day, "rollout-2026-11-29T23-00-00-thread-9.jsonl"),
			`${tokenCount(100)}\n${tokenCount(300)}\n{"type":"event_msg","payl`,
		);
		expect(readThreadUsage(home, "thread-9")).toEqual({ input_tokens: 300, output_tokens: 1 });
		expect(readThreadUsage(home, "other-thread")).toBeUndefined();
		expect(readThreadUsage(join(dir, "no-such-home"), "thread-9")).toBeUndefined();
	});
});
