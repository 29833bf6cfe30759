/**
 * The personal settings file `<agentDir>/extensions/agentshell.json` (docs/settings.md §Settings file; docs/rules.md §Rosters: it
 * also owns the limits, silent mode, interactive defaults and the root's `max_sub_agent_depth`, which a selected roster
 * cannot change).
 *
 * Every object is strict: an unknown key is an error naming its path. Absent file or absent keys take
 * the built-in defaults below; a malformed file is never silently replaced by defaults.
 *
 * ```json
 * {
 *   "limits": {
 *     "max_parallel_tasks": 8,       // tasks accepted in one parallel call
 *     "concurrency": 4,              // children of one call running at once
 *     "global_concurrency": 4,       // children running at once across all calls and background jobs
 *     "timeout_ms": 1800000,         // wall-clock limit per child, ms (30 min)
 *     "kill_grace_ms": 5000,         // SIGTERM → SIGKILL grace, ms
 *     "output_max_bytes": 51200,     // final answer cap per child, bytes (50 KB); the rest goes to an artifact
 *     "output_max_lines": 2000,      // final answer cap per child, lines
 *     "max_background_jobs": 8       // background jobs running at once (queued children count); more are refused
 *   },
 *   "silent": false,                 // true: no UI notices for background job progress/completion (the model still gets the result)
 *   "interactive": {
 *     "stay_open": false,            // keep the tmux session after the child finishes
 *     "inactivity_timeout_ms": null, // end an interactive run after this long without screen change; null: never
 *     "dialog_timeout_ms": 120000    // end a run (failed) whose harness shows a first-run dialog this long unchanged, ms
 *   },
 *   "max_sub_agent_depth": 1,        // the root's delegation depth limit; children inherit it
 *   "environment": {                 // which of the parent's variables children inherit (SECURITY.md)
 *     "include": null,               // null: all; else only these names (a trailing * matches a prefix)
 *     "exclude": []                  // names removed from every child (a trailing * matches a prefix)
 *   },
 *   "child_sessions": {              // retention of pi children's session files (docs/rules.md §Child sessions)
 *     "max_age_days": 30,            // files not written for this long are removed at session start
 *     "max_total_bytes": 1073741824  // above this total (1 GiB), the oldest are removed too
 *   },
 *   "roster": { "enabled": false, "roles": [] },  // the personal roster (inline entry shape)
 *   "graphs": {                      // durable agent_graph runs (docs/graphs.md §Durability)
 *     "auto_resume": true,           // resume the session's unfinished runs when it starts again (with a notice)
 *     "max_age_days": 30,            // finished runs older than this are removed at session start
 *     "max_total_bytes": 67108864,   // above this total (64 MiB), the oldest finished runs are removed too
 *     "max_iterations": 10,          // the largest max_iterations a feedback node may set
 *     "max_nesting": 3               // how deep saved graphs may nest through graph nodes
 *   },
 *   "warm_children": {               // idle pi children kept for the next run of a launch (docs/settings.md §Warm pi children)
 *     "enabled": false,              // off by default: each warm child is a pi process left running between calls
 *     "idle_timeout_ms": 120000,     // an unused warm child ends after this long, ms (2 min)
 *     "max": 1                       // warm children waiting at once, across launches (the oldest ends first)
 *   }
 * }
 * ```
 */
import { mkdirSync, realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";
import { writeFileAtomic } from "../core/atomic-write.ts";
import { ConfigError } from "../core/config-error.ts";
import { DEFAULT_KILL_GRACE_MS, DEFAULT_TIMEOUT_MS, DIALOG_TIMEOUT_MS } from "../core/graces.ts";
import { CHILD_SESSION_DEFAULTS } from "../core/package-dirs.ts";
import { Problems } from "../core/problems.ts";
import { lazySchema, zod } from "../core/zod.ts";
import { settingsFilePath } from "./paths.ts";
import { readJson } from "./read-json.ts";
import { inlineRosterSchema } from "./roster-schema.ts";
import {
	booleanWithDefault,
	describeValue,
	fieldProblems,
	integerAtLeast,
	locateProblem,
	typeName,
} from "./zod-issues.ts";

export { settingsFilePath };

const integer = (min: number, fallback: number, unit: string) => integerAtLeast(min, unit).default(fallback);

const strictSection = <T extends z.core.$ZodLooseShape>(shape: T) =>
	zod().strictObject(shape, {
		error: (issue) => (issue.code === "invalid_type" ? `expected an object, got ${typeName(issue.input)}` : undefined),
	});

/** Limits; see the module docstring for units and meaning. */
const limitsSchema = () =>
	strictSection({
		max_parallel_tasks: integer(1, 8, "tasks"),
		concurrency: integer(1, 4, "children"),
		global_concurrency: integer(1, 4, "children"),
		timeout_ms: integer(1, DEFAULT_TIMEOUT_MS, "ms"),
		kill_grace_ms: integer(0, DEFAULT_KILL_GRACE_MS, "ms"),
		output_max_bytes: integer(1, 50 * 1024, "bytes"),
		output_max_lines: integer(1, 2000, "lines"),
		max_background_jobs: integer(1, 8, "jobs"),
	});

/** Interactive (tmux) defaults, used when a call omits them. */
const interactiveSchema = () =>
	strictSection({
		stay_open: booleanWithDefault(false),
		inactivity_timeout_ms: zod()
			.int({ error: (issue) => `expected an integer (ms) or null, got ${describeValue(issue.input)}` })
			.min(1, "must be at least 1 (ms), or null for no inactivity timeout")
			.nullable()
			.default(null),
		dialog_timeout_ms: integer(1, DIALOG_TIMEOUT_MS, "ms"),
	});

const variableNames = () =>
	zod().array(
		zod()
			.string()
			.regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, "expected a variable name, optionally ending in * (a prefix)"),
		{ error: "expected a list of variable names" },
	);

/** Which of the parent's environment variables children inherit (SECURITY.md "Environment"). */
const environmentSchema = () =>
	strictSection({
		include: variableNames().nullable().default(null),
		exclude: variableNames().default([]),
	});

/** Retention of pi children's session files under `<agent dir>/pi-native-subagents/sessions`. */
const childSessionsSchema = () =>
	strictSection({
		max_age_days: integer(1, CHILD_SESSION_DEFAULTS.max_age_days, "days"),
		max_total_bytes: integer(1, CHILD_SESSION_DEFAULTS.max_total_bytes, "bytes"),
	});

/** Durable graph runs: restore and retention (docs/settings.md §Graph runs). */
const graphsSchema = () =>
	strictSection({
		auto_resume: booleanWithDefault(true),
		max_age_days: integer(1, 30, "days"),
		max_total_bytes: integer(1, 64 * 1024 * 1024, "bytes"),
		max_iterations: integer(1, 10, "rounds of one feedback node"),
		max_nesting: integer(0, 3, "saved graphs inside one another"),
	});

/** Warm pi children (docs/settings.md §Warm pi children). */
const warmChildrenSchema = () =>
	strictSection({
		enabled: booleanWithDefault(false),
		idle_timeout_ms: integer(1, 120_000, "ms"),
		max: integer(1, 1, "warm children"),
	});

/** The whole settings file. */
export const settingsSchema = lazySchema(() =>
	strictSection({
		limits: limitsSchema().prefault({}),
		silent: booleanWithDefault(false),
		interactive: interactiveSchema().prefault({}),
		max_sub_agent_depth: integer(0, 1, "levels of delegation below the root"),
		environment: environmentSchema().prefault({}),
		child_sessions: childSessionsSchema().prefault({}),
		roster: inlineRosterSchema().prefault({}),
		graphs: graphsSchema().prefault({}),
		warm_children: warmChildrenSchema().prefault({}),
	}),
);

export type Settings = z.output<ReturnType<typeof settingsSchema>>;
export type SettingsLimits = Settings["limits"];
export type InteractiveDefaults = Settings["interactive"];
export type EnvironmentPolicy = Settings["environment"];
export type GraphSettings = Settings["graphs"];
export type WarmChildrenSettings = Settings["warm_children"];

/**
 * Built-in defaults (what an absent file means): what `settingsSchema().parse({})` returns (a test holds them
 * equal), written out so that a session without a settings file never loads zod. `max_sub_agent_depth` 1
 * lets the root delegate one level (children at depth 1) and no further; multi-level rosters need a larger
 * value at the root.
 */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
	limits: {
		max_parallel_tasks: 8,
		concurrency: 4,
		global_concurrency: 4,
		timeout_ms: DEFAULT_TIMEOUT_MS,
		kill_grace_ms: DEFAULT_KILL_GRACE_MS,
		output_max_bytes: 50 * 1024,
		output_max_lines: 2000,
		max_background_jobs: 8,
	},
	silent: false,
	interactive: { stay_open: false, inactivity_timeout_ms: null, dialog_timeout_ms: DIALOG_TIMEOUT_MS },
	max_sub_agent_depth: 1,
	environment: { include: null, exclude: [] },
	child_sessions: { max_age_days: 30, max_total_bytes: 1024 * 1024 * 1024 },
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

/**
 * The parsed settings file, or `undefined` when there is none.
 * @throws ConfigError naming the file: not a regular file, too large, unreadable, malformed JSON, a key
 *   said twice (see `readJson`).
 */
export function readSettingsFile(file: string): { value: unknown } | undefined {
	const problems = new Problems(file);
	const read = readJson(file, problems, { missing: "absent" });
	if (!read) throw new ConfigError(problems.list);
	return "absent" in read ? undefined : read;
}

/**
 * Validates settings already parsed from JSON. Pure.
 * @param file used only in messages.
 * @throws ConfigError listing every problem as `<file>: <field path>: <reason>` (roster entries are
 *   named: `<file>: roster.roles[0] "scout": model: must not be empty`).
 */
export function parseSettings(raw: unknown, file: string): Settings {
	const result = settingsSchema().safeParse(raw);
	if (!result.success) {
		throw new ConfigError(
			fieldProblems(result.error.issues).map((problem) => `${file}: ${locateProblem(raw, problem)}`),
		);
	}
	return result.data;
}

/**
 * Loads `<agentDir>/extensions/agentshell.json`, applying built-in defaults for an absent file or
 * absent keys. Roster paths are not checked here (see `rosterFromSettings`).
 * @throws ConfigError naming the file and each bad field: unreadable file, malformed JSON, unknown keys,
 *   wrong types or out-of-range values.
 */
export function loadSettings(agentDir: string): Settings {
	const file = settingsFilePath(agentDir);
	const read = readSettingsFile(file);
	if (read === undefined) return structuredClone(DEFAULT_SETTINGS) as Settings;
	return parseSettings(read.value, file);
}

/**
 * Persists the personal roster's `enabled` toggle (the `/agentshell-roster` command without a roster
 * override). Every other key of the file is kept as parsed (JSON formatting becomes 2-space indented);
 * an absent file is not created (the personal roster then has no entries, so there is nothing to toggle).
 *
 * Atomic: the new content is written and fsynced to a temporary file in the same directory, then
 * renamed over the settings file, and the directory is fsynced, so readers see either the old or the new
 * file, never a partial one, and the change survives a crash (`writeFileAtomic`).
 * @throws ConfigError when there is no settings file, when the existing file is unreadable, is malformed JSON, or its `roster` is not an
 *   object (the file is left untouched); or when writing fails.
 */
export function saveRosterEnabled(agentDir: string, enabled: boolean): void {
	const file = settingsFilePath(agentDir);
	const read = readSettingsFile(file);
	if (read === undefined) {
		// No file: the personal roster is the default one, without entries; enabling or disabling it would change nothing.
		throw new ConfigError(
			`${file} does not exist and the personal roster has no entries: nothing to ${enabled ? "enable" : "disable"}, nothing was written; define roster.roles there first (docs/configuration.md §Rosters)`,
		);
	}
	const raw = read.value;
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
		throw new ConfigError(`${file}: expected a JSON object, got ${typeName(raw)}; not changing it`);
	}
	const document = raw as Record<string, unknown>;
	const roster = document.roster ?? {};
	if (roster === null || typeof roster !== "object" || Array.isArray(roster)) {
		throw new ConfigError(`${file}: roster: expected an object, got ${typeName(roster)}; not changing it`);
	}
	document.roster = { ...(roster as Record<string, unknown>), enabled };
	writeSettingsFile(file, `${JSON.stringify(document, null, 2)}\n`);
}

function writeSettingsFile(link: string, content: string): void {
	// A symlinked settings file (a dotfiles checkout, say) is written where it leads; the link stays.
	const file = realPathOrSelf(link);
	let mode = 0o600;
	try {
		mode = statSync(file).mode & 0o777;
	} catch {
		// A new file: private by default, since it may name local paths.
	}
	try {
		mkdirSync(dirname(file), { recursive: true });
		writeFileAtomic(file, content, mode);
	} catch (error) {
		throw new ConfigError(`${file}: cannot write settings file (${(error as NodeJS.ErrnoException).code ?? error})`);
	}
}

function realPathOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}
