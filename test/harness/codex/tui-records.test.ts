/**
 * Which rollout an interactive codex run reads (src/harness/codex/tui-records.ts `rolloutOpenedBy`): the one its
 * codex process writes. A real codex TUI also opens earlier threads' rollouts in the same home to read them; a
 * shell holding such descriptors stands in for it here, so the order and modes of its descriptors are known.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rolloutOpenedBy } from "../../../src/harness/codex/tui-records.ts";
import { releaseDirectories } from "../../support/teardown.ts";
import { makeTempDir } from "../../support/temp-dir.ts";

const dir = makeTempDir("codex-tui-records-");
afterAll(() => releaseDirectories([dir]));

/**
 * Runs `sh` with descriptor 3 reading `read` and descriptor 4 appending to `written` (when given) until `use` has
 * run, then ends it and waits until it is gone.
 */
async function holding(read: string, written: string | undefined, use: (pid: number) => void): Promise<void> {
	const script = `exec 3<"$1"${written ? ' 4>>"$2"' : ""}; echo ready; read _`;
	const shell = spawn("sh", ["-c", script, "sh", read, written ?? ""], { stdio: ["pipe", "pipe", "inherit"] });
	const exited = once(shell, "exit");
	try {
		await new Promise<void>((resolve, reject) => {
			shell.stdout.on("data", (text: Buffer) => text.toString().includes("ready") && resolve());
			exited.then(() => reject(new Error("sh exited before it held its descriptors")));
		});
		use(shell.pid as number);
	} finally {
		shell.stdin.end("\n");
		await exited;
	}
}

const rollout = (name: string) => {
	const path = join(dir, `rollout-2026-12-02T13-00-${name}.jsonl`);
	writeFileSync(path, "{}\n");
	return path;
};

describe("the rollout of an interactive codex run", () => {
	it("is the one its codex process has open for writing, not an earlier thread's it opened first to read", async () => {
		const earlier = rollout("41-earlier-thread");
		const own = rollout("43-own-thread");
		await holding(earlier, own, (pid) => expect(rolloutOpenedBy(pid)).toBe(own));
	});

	it("is not known while the process has rollouts open only to read", async () => {
		const earlier = rollout("45-read-only");
		await holding(earlier, undefined, (pid) => expect(rolloutOpenedBy(pid)).toBeUndefined());
	});

	it("is not known for a process that is gone or not started", async () => {
		expect(rolloutOpenedBy(undefined)).toBeUndefined();
		const gone = spawn("true");
		await once(gone, "exit");
		expect(rolloutOpenedBy(gone.pid)).toBeUndefined();
	});
});
