/** pi's session file read during an interactive run: when it shows that the TUI took its first prompt. */
import { randomUUID } from "node:crypto";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { piRecordReader } from "../../../src/harness/pi/tui-records.ts";
import { makeTempDir } from "../../support/temp-dir.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const line = (entry: object) => `${JSON.stringify(entry)}\n`;
const header = { type: "session", version: 3, id: "x", timestamp: "2026-12-01T00:00:00.000Z", cwd: "/" };
const user = (text: string) => ({ type: "message", id: randomUUID(), message: { role: "user", content: text } });

describe("pi's records during an interactive run", () => {
	it("show the first prompt taken once the session file holds a user message, not before", () => {
		const dir = makeTempDir("pi-tui-records-");
		dirs.push(dir);
		const id = randomUUID();
		const reader = piRecordReader(dir, id, false);
		reader.poll();
		// pi creates its session file only with the first user message; a header alone does not count.
		expect(reader.promptTaken?.()).toBe(false);
		const file = join(dir, `2026-12-01T00-00-00-000Z_${id}.jsonl`);
		writeFileSync(file, line(header));
		reader.poll();
		expect(reader.promptTaken?.()).toBe(false);
		appendFileSync(file, line(user("the task")));
		reader.poll();
		expect(reader.promptTaken?.()).toBe(true);
	});

	it("of a resumed session, count only a user message this run appended", () => {
		const dir = makeTempDir("pi-tui-records-");
		dirs.push(dir);
		const id = randomUUID();
		const file = join(dir, `2026-12-01T00-00-00-000Z_${id}.jsonl`);
		writeFileSync(file, line(header) + line(user("an earlier turn")));
		const reader = piRecordReader(dir, id, true);
		reader.poll();
		expect(reader.promptTaken?.()).toBe(false);
		appendFileSync(file, line(user("this run's prompt")));
		reader.poll();
		expect(reader.promptTaken?.()).toBe(true);
	});
});
