import * as fs from "node:fs";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saveRosterEnabled } from "../../src/config/settings.ts";
import { writeFileAtomic } from "../../src/core/atomic-write.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

// Spies over the real functions, to see which descriptors were fsynced (the writes still happen).
vi.mock("node:fs", async (importOriginal) => {
	const real = await importOriginal<typeof import("node:fs")>();
	return {
		...real,
		openSync: vi.fn(real.openSync),
		fsyncSync: vi.fn(real.fsyncSync),
		renameSync: vi.fn(real.renameSync),
	};
});

/** In call order: each fsync (with the path its descriptor was opened for) and each rename (with its target). */
function syscallLog(): string[] {
	const open = vi.mocked(fs.openSync);
	const opens = open.mock.results.flatMap((result, i) =>
		result.type === "return"
			? [{ order: open.mock.invocationCallOrder[i], fd: result.value as number, path: String(open.mock.calls[i][0]) }]
			: [],
	);
	// Descriptor numbers are reused: the path is the one of the latest open of that fd before the fsync.
	const pathOf = (fd: number, before: number) => opens.filter((o) => o.fd === fd && o.order < before).at(-1)?.path;
	const fsync = vi.mocked(fs.fsyncSync).mock;
	const rename = vi.mocked(fs.renameSync).mock;
	const calls = [
		...fsync.calls.map((call, i) => ({
			order: fsync.invocationCallOrder[i],
			line: `fsync ${pathOf(call[0] as number, fsync.invocationCallOrder[i])}`,
		})),
		...rename.calls.map((call, i) => ({ order: rename.invocationCallOrder[i], line: `rename → ${call[1]}` })),
	];
	return calls.sort((a, b) => a.order - b.order).map((call) => call.line);
}

afterEach(() => vi.clearAllMocks());

describe("atomic file writes", () => {
	it("fsyncs the temp file, renames it over the target, then fsyncs the directory", () => {
		const dir = tempDir("atomic-");
		const file = join(dir, "answer.md");
		writeFileAtomic(file, "whole text");
		expect(readFileSync(file, "utf8")).toBe("whole text");
		const log = syscallLog();
		expect(log).toHaveLength(3);
		expect(log[0]).toMatch(/^fsync .*\.answer\.md\.\d+\.[0-9a-f]+\.tmp$/);
		expect(log.slice(1)).toEqual([`rename → ${file}`, `fsync ${dir}`]);
		expect(readdirSync(dir)).toEqual(["answer.md"]);
	});

	it("only renames a file that is not to be durable (a session hold): still atomic, no fsync", () => {
		const dir = tempDir("atomic-");
		const file = join(dir, "hold.json");
		writeFileAtomic(file, "{}", 0o600, { durable: false });
		expect(readFileSync(file, "utf8")).toBe("{}");
		expect(syscallLog()).toEqual([`rename → ${file}`]);
		expect(readdirSync(dir)).toEqual(["hold.json"]);
	});

	it("removes the temp file and leaves the target unchanged when the rename fails", () => {
		const dir = tempDir("atomic-");
		const target = join(dir, "answer.md");
		// A non-empty directory where the file should go: the temp file is written, the rename fails.
		mkdirSync(target);
		writeFileSync(join(target, "keep"), "x");
		expect(() => writeFileAtomic(target, "text")).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
		expect(readdirSync(dir)).toEqual(["answer.md"]);
		expect(readdirSync(target)).toEqual(["keep"]);
	});

	it("gives the settings file write the directory fsync too", () => {
		const agentDir = tempDir("atomic-settings-");
		const file = join(agentDir, "extensions", "agentshell.json");
		// The toggle changes an existing settings file only (an absent one is refused).
		mkdirSync(join(agentDir, "extensions"));
		writeFileSync(file, "{}");
		saveRosterEnabled(agentDir, true);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ roster: { enabled: true } });
		expect(syscallLog().slice(-2)).toEqual([`rename → ${file}`, `fsync ${join(agentDir, "extensions")}`]);
	});
});
