import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { rosterFromSettings } from "../../src/config/roster-inline.ts";
import {
	DEFAULT_SETTINGS,
	loadSettings,
	parseSettings,
	saveRosterEnabled,
	settingsFilePath,
} from "../../src/config/settings.ts";
import { problemsOf, tempDir, writeTree } from "./helpers.ts";

const role = (name: string, extra: Record<string, unknown> = {}) => ({
	name,
	description: `${name} role`,
	agent_type: "pi",
	model: "fake/fake-model",
	effort: "medium",
	...extra,
});

describe("settings file", () => {
	it("uses the built-in defaults when the file is absent", () => {
		const agentDir = tempDir();
		expect(loadSettings(agentDir)).toEqual({
			limits: {
				max_parallel_tasks: 8,
				concurrency: 4,
				global_concurrency: 4,
				timeout_ms: 1_800_000,
				kill_grace_ms: 5000,
				output_max_bytes: 51_200,
				output_max_lines: 2000,
				max_background_jobs: 8,
			},
			silent: false,
			interactive: { stay_open: false, inactivity_timeout_ms: null, dialog_timeout_ms: 120_000 },
			max_sub_agent_depth: 1,
			environment: { include: null, exclude: [] },
			child_sessions: { max_age_days: 30, max_total_bytes: 1_073_741_824 },
			roster: { enabled: false, roles: [] },
			graphs: {
				auto_resume: true,
				max_age_days: 30,
				max_total_bytes: 64 * 1024 * 1024,
				max_iterations: 10,
				max_nesting: 3,
			},
			warm_children: { enabled: false, idle_timeout_ms: 120_000, max: 1 },
		});
		expect(DEFAULT_SETTINGS).toEqual(loadSettings(agentDir));
	});

	it("names every bad warm_children field by its path", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json": { warm_children: { enabled: "yes", idle_timeout_ms: 0, max: 0, size: 2 } },
		});
		let message = "";
		try {
			loadSettings(agentDir);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("warm_children.enabled:");
		expect(message).toContain("warm_children.idle_timeout_ms: must be at least 1 (ms)");
		expect(message).toContain("warm_children.max: must be at least 1 (warm children)");
		expect(message).toContain("size");
	});

	it("names a malformed environment variable pattern by its path", () => {
		const agentDir = tempDir();
		writeTree(agentDir, { "extensions/agentshell.json": { environment: { exclude: ["OPENAI KEY"] } } });
		expect(() => loadSettings(agentDir)).toThrow(
			"environment.exclude[0]: expected a variable name, optionally ending in * (a prefix)",
		);
	});

	it("fills in defaults for keys the file leaves out", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json": { limits: { concurrency: 2 }, silent: true, max_sub_agent_depth: 3 },
		});
		const settings = loadSettings(agentDir);
		expect(settings.limits).toMatchObject({ concurrency: 2, max_parallel_tasks: 8, timeout_ms: 1_800_000 });
		expect(settings).toMatchObject({ silent: true, max_sub_agent_depth: 3, roster: { enabled: false, roles: [] } });
	});

	it("rejects malformed JSON naming the file", () => {
		const agentDir = tempDir();
		writeTree(agentDir, { "extensions/agentshell.json": '{"silent": true,}' });
		expect(problemsOf(() => loadSettings(agentDir))).toEqual([
			expect.stringMatching(new RegExp(`^${settingsFilePath(agentDir)}: malformed JSON: `)),
		]);
	});

	it("refuses duplicate keys in the settings file, naming the file and each key", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json":
				'{\n  "environment": { "exclude": ["SECRET_*"] },\n  "silent": true,\n  "environment": {}\n}',
		});
		const file = settingsFilePath(agentDir);
		expect(problemsOf(() => loadSettings(agentDir))).toEqual([
			`${file}: duplicate key "environment" at line 4, column 3 (environment): JSON files must not repeat a key (the last one would silently win)`,
		]);
		// The toggle does not rewrite such a file either (it would drop the first "environment").
		expect(problemsOf(() => saveRosterEnabled(agentDir, true))[0]).toContain('duplicate key "environment"');
	});

	it("refuses a settings file that is not a regular file (a FIFO) or is huge, naming it, without reading it", () => {
		const agentDir = tempDir();
		const file = settingsFilePath(agentDir);
		writeTree(agentDir, { "extensions/keep": "" });
		execFileSync("mkfifo", [file]);
		// Reading a FIFO nobody writes to would block Pi for good; the check must refuse it at once.
		expect(problemsOf(() => loadSettings(agentDir))).toEqual([`${file}: is not a regular file (a FIFO)`]);
		rmSync(file);
		writeFileSync(file, `{"silent": true, "pad": "${"x".repeat(2 * 1024 * 1024)}"}`);
		expect(problemsOf(() => loadSettings(agentDir))[0]).toMatch(
			new RegExp(`^${file}: is \\d+ bytes, more than the limit of 1048576$`),
		);
	});

	it("lists every malformed field with the file and field path", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json": {
				limits: { timeout_ms: "30m", concurrency: 0 },
				silent: "yes",
				interactive: { inactivity_timeout_ms: 1.5 },
				max_sub_agent_depth: -1,
				roster: { roles: [role("scout", { model: "" })] },
			},
		});
		const file = settingsFilePath(agentDir);
		expect(problemsOf(() => loadSettings(agentDir)).sort()).toEqual(
			[
				`${file}: limits.timeout_ms: expected an integer (ms), got string`,
				`${file}: limits.concurrency: must be at least 1 (children)`,
				`${file}: silent: expected true or false, got string`,
				`${file}: interactive.inactivity_timeout_ms: expected an integer (ms) or null, got 1.5`,
				`${file}: max_sub_agent_depth: must be at least 0 (levels of delegation below the root)`,
				`${file}: roster.roles[0] "scout": model: must not be empty`,
			].sort(),
		);
	});

	it("rejects unknown keys at any level, naming each", () => {
		const problems = problemsOf(() =>
			parseSettings({ limit: {}, limits: { timeout: 5 }, interactive: { attach: true } }, "/x/agentshell.json"),
		);
		expect(problems.sort()).toEqual([
			'/x/agentshell.json: interactive.attach: unknown key "attach"',
			'/x/agentshell.json: limit: unknown key "limit"',
			'/x/agentshell.json: limits.timeout: unknown key "timeout"',
		]);
	});

	it("rejects a settings file that is not an object", () => {
		expect(problemsOf(() => parseSettings([], "/x/agentshell.json"))).toEqual([
			"/x/agentshell.json: (root): expected an object, got array",
		]);
	});
});

describe("personal roster from the settings file", () => {
	it("resolves roster paths against <agentDir>/extensions", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json": {
				roster: { enabled: true, roles: [role("scout", { cwd: "work", resources: { skills: ["../skills/a"] } })] },
			},
			"extensions/work/README.md": "work",
			"skills/a/SKILL.md": "# a",
		});
		const roster = rosterFromSettings(loadSettings(agentDir), agentDir);
		expect(roster).toMatchObject({ source: "settings", format: "settings", enabled: true });
		expect(roster.entries[0]).toMatchObject({
			name: "scout",
			cwd: join(agentDir, "extensions/work"),
			resources: { skills: [join(agentDir, "skills/a")] },
		});
	});

	it("rejects a missing path in a disabled personal roster naming the settings file and entry", () => {
		const agentDir = tempDir();
		writeTree(agentDir, {
			"extensions/agentshell.json": { roster: { enabled: false, roles: [role("scout", { cwd: "gone" })] } },
		});
		const settings = loadSettings(agentDir);
		expect(problemsOf(() => rosterFromSettings(settings, agentDir))).toEqual([
			`${settingsFilePath(agentDir)}: roster.roles[0] "scout": cwd: ${join(agentDir, "extensions/gone")} does not exist`,
		]);
	});
});

describe("saveRosterEnabled", () => {
	it("persists the toggle and keeps every other setting", () => {
		const agentDir = tempDir();
		const original = {
			limits: { concurrency: 2 },
			silent: true,
			roster: { enabled: false, roles: [role("scout")] },
		};
		writeTree(agentDir, { "extensions/agentshell.json": original });
		saveRosterEnabled(agentDir, true);
		expect(JSON.parse(readFileSync(settingsFilePath(agentDir), "utf8"))).toEqual({
			...original,
			roster: { ...original.roster, enabled: true },
		});
		expect(loadSettings(agentDir).roster.enabled).toBe(true);
		saveRosterEnabled(agentDir, false);
		expect(loadSettings(agentDir).roster.enabled).toBe(false);
	});

	it("writes atomically: the file is replaced by rename and no temporary file is left", () => {
		const agentDir = tempDir();
		writeTree(agentDir, { "extensions/agentshell.json": { silent: true } });
		const file = settingsFilePath(agentDir);
		const before = statSync(file).ino;
		saveRosterEnabled(agentDir, true);
		expect(statSync(file).ino).not.toBe(before);
		expect(readdirSync(join(agentDir, "extensions"))).toEqual(["agentshell.json"]);
	});

	it("writes no settings file for the empty default roster, and says why", () => {
		const agentDir = tempDir();
		expect(() => saveRosterEnabled(agentDir, true)).toThrow(/does not exist and the personal roster has no entries/);
		expect(existsSync(settingsFilePath(agentDir))).toBe(false);
	});

	it("refuses to overwrite a malformed settings file", () => {
		const agentDir = tempDir();
		writeTree(agentDir, { "extensions/agentshell.json": "{ broken" });
		expect(problemsOf(() => saveRosterEnabled(agentDir, true))[0]).toMatch(/malformed JSON/);
		expect(readFileSync(settingsFilePath(agentDir), "utf8")).toBe("{ broken");
		writeFileSync(settingsFilePath(agentDir), '{"roster": []}');
		expect(problemsOf(() => saveRosterEnabled(agentDir, true))[0]).toMatch(/roster: expected an object, got array/);
	});
});

describe("settings named in the shipped docs", () => {
	it("exist: every limits.<key> that README.md, SECURITY.md or docs/*.md mention is a key of the settings file", () => {
		const root = join(import.meta.dirname, "..", "..");
		const docs = ["README.md", "SECURITY.md", ...readdirSync(join(root, "docs")).map((file) => join("docs", file))];
		const named = docs.flatMap((doc) =>
			[...readFileSync(join(root, doc), "utf8").matchAll(/\blimits\.([a-z_]+)/g)].map((m) => ({ doc, key: m[1] })),
		);
		expect(named.length).toBeGreaterThan(0);
		expect(named.filter(({ key }) => !(key in DEFAULT_SETTINGS.limits))).toEqual([]);
	});
});
