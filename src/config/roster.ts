/**
 * Roster loading (docs/rules.md §Rosters, §Paths and child environments).
 *
 * Two file formats, told apart by their top-level keys:
 * - native inline: exactly `{ roster: { enabled?, roles? } }`, each role a full entry;
 * - normalized `agent.json`: exactly `{ agent, roster }`, each role exactly `{ agent_file }`.
 * The personal settings file's `roster` uses the inline entry shape.
 *
 * Loading reads only the selected document and, for a normalized one, its direct child definitions
 * (their own `agent_file` references are checked for existence, never read). Self and cyclic
 * references are valid. Every referenced path is checked even when the roster is disabled. All problems
 * are collected and thrown together as one LaunchError whose lines name the file, the entry and the field.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { LaunchError } from "../core/launch-error.ts";
import type { Harness, Resources } from "../core/launch-spec.ts";
import { type PathKind, resolveExisting, rosterBaseDir, settingsBaseDir, settingsFilePath } from "./paths.ts";
import {
	inlineEntrySchema,
	inlineRosterFileSchema,
	normalizedDefinitionSchema,
	type ParsedInlineEntry,
	type ParsedInlineRoster,
	type ParsedNormalizedDefinition,
	type ParsedResources,
} from "./roster-schema.ts";
import { fieldProblems, locateProblem, typeName } from "./zod-issues.ts";

/** Where a loaded roster came from: a native inline file, a normalized `agent.json`, or the settings file. */
export type RosterFormat = "inline" | "normalized" | "settings";

/**
 * One launchable roster entry, with every path absolute and lexical (resolved against the file that
 * declared it; symlinks kept).
 */
export interface RosterEntry {
	/** Case-sensitive, unique within its roster. */
	name: string;
	description: string;
	/** From `agent_type`. */
	harness: Harness;
	/** Harness-native model selector. */
	model: string;
	/** Harness-native effort level. */
	effort: string;
	/** Authoritative child cwd; absent → the caller's cwd (or tool context cwd) applies. */
	cwd?: string;
	/**
	 * The child's roster selection (`PI_AGENTSHELL_ROSTER_FILE`); Pi only. Inline: `roster_file`.
	 * Normalized Pi entries: their own `agent.json`, including leaves.
	 */
	rosterFile?: string;
	/** Resource selection with defaults filled in; absent when the entry has no `resources`. */
	resources?: Resources;
	/** Normalized entries only: the child `agent.json` that owns these settings. */
	agentFile?: string;
	/**
	 * sha256 (hex) of the parsed settings with defaults applied, keys sorted: the inline entry, or the
	 * `agent` section of a normalized child definition. Its `roster` section is not part of the snapshot,
	 * since a child's own roster is read when that child launches.
	 */
	digest: string;
}

/** A validated roster. Entries are snapshots taken at load (docs/rules.md §Rosters; `/reload` after editing). */
export interface LoadedRoster {
	/** Absolute path of the selected file, or `"settings"` for the personal settings file's roster. */
	source: string;
	format: RosterFormat;
	enabled: boolean;
	entries: RosterEntry[];
}

/** sha256 (hex) of `canonicalJson(value)`: equal parsed settings give equal digests whatever the formatting. */
export function settingsDigest(value: unknown): string {
	return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/** JSON with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
	if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
	const keys = Object.keys(value)
		.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
		.sort();
	return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(",")}}`;
}

type ReadResult = { ok: true; value: unknown } | { ok: false; missing: boolean; problem: string };

function readJson(file: string): ReadResult {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, missing: true, problem: "file does not exist" };
		if (code === "EISDIR") return { ok: false, missing: false, problem: "is a directory, not a JSON file" };
		return { ok: false, missing: false, problem: `cannot read file (${code})` };
	}
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch (error) {
		return { ok: false, missing: false, problem: `malformed JSON: ${(error as Error).message}` };
	}
}

const RESOURCE_PATH_KINDS: Record<"skills" | "plugins" | "extensions", PathKind> = {
	skills: "any",
	plugins: "dir",
	extensions: "any",
};

/**
 * Resolves parsed `resources` against `baseDir` and checks each listed path exists
 * (skills/extensions: file or directory; plugins: directory). Problems are pushed as `<where>.<field>[i]: …`.
 */
export function resolveResources(
	parsed: ParsedResources,
	baseDir: string,
	where: string,
	problems: string[],
): Resources {
	const resolveList = (field: "skills" | "plugins" | "extensions") =>
		parsed[field].map((raw, i) =>
			resolveExisting(baseDir, raw, RESOURCE_PATH_KINDS[field], `${where}resources.${field}[${i}]`, problems),
		);
	return {
		skills: resolveList("skills"),
		plugins: resolveList("plugins"),
		extensions: resolveList("extensions"),
		packages: [],
		mcp_servers: parsed.mcp_servers === null ? null : [],
		inherit_personal_resources: parsed.inherit_personal_resources,
		inherit_project_resources: parsed.inherit_project_resources,
		include_instruction_files: parsed.include_instruction_files,
		include_home_system_prompt: parsed.include_home_system_prompt,
	};
}

/**
 * Inline entries → RosterEntries: unique names, `roster_file` Pi-only, every path resolved against
 * `baseDir` and checked. `prefix` starts each problem (the file path and `: `).
 */
function buildInlineEntries(
	roles: Array<ParsedInlineEntry | undefined>,
	baseDir: string,
	prefix: string,
	problems: string[],
): RosterEntry[] {
	const entries: RosterEntry[] = [];
	const firstIndex = new Map<string, number>();
	roles.forEach((role, index) => {
		if (role === undefined) return;
		const where = `${prefix}roster.roles[${index}] "${role.name}": `;
		const earlier = firstIndex.get(role.name);
		if (earlier !== undefined) {
			problems.push(`${where}name: duplicate name "${role.name}" (already used by roster.roles[${earlier}])`);
		} else {
			firstIndex.set(role.name, index);
		}
		const entry: RosterEntry = {
			name: role.name,
			description: role.description,
			harness: role.agent_type,
			model: role.model,
			effort: role.effort,
			digest: settingsDigest(role),
		};
		if (role.cwd !== undefined) entry.cwd = resolveExisting(baseDir, role.cwd, "dir", `${where}cwd`, problems);
		if (role.roster_file !== undefined) {
			if (role.agent_type !== "pi") {
				problems.push(
					`${where}roster_file: is Pi-only, but agent_type is "${role.agent_type}"; remove roster_file from this entry`,
				);
			}
			entry.rosterFile = resolveExisting(baseDir, role.roster_file, "file", `${where}roster_file`, problems);
		}
		if (role.resources !== undefined) entry.resources = resolveResources(role.resources, baseDir, where, problems);
		entries.push(entry);
	});
	return entries;
}

interface CheckedDefinition {
	definition: ParsedNormalizedDefinition;
	cwd?: string;
	resources?: Resources;
	/** Resolved `agent_file` of each role, in order. */
	roleFiles: string[];
}

type DefinitionResult = { ok: true; checked: CheckedDefinition } | { ok: false; missing: boolean };

/**
 * Reads and validates one normalized definition without reading the definitions it references:
 * schema, non-Pi roster rule, its agent's cwd/resources (against its own directory) and the existence
 * of each role's `agent_file`.
 */
function checkDefinitionFile(file: string, prefix: string, problems: string[]): DefinitionResult {
	const read = readJson(file);
	if (!read.ok) {
		problems.push(`${prefix}${read.problem}`);
		return { ok: false, missing: read.missing };
	}
	return checkDefinitionValue(read.value, file, prefix, problems);
}

function checkDefinitionValue(raw: unknown, file: string, prefix: string, problems: string[]): DefinitionResult {
	const parsed = normalizedDefinitionSchema.safeParse(raw);
	if (!parsed.success) {
		for (const problem of fieldProblems(parsed.error.issues)) problems.push(`${prefix}${locateProblem(raw, problem)}`);
		return { ok: false, missing: false };
	}
	const definition = parsed.data;
	const baseDir = rosterBaseDir(file);
	const before = problems.length;
	const { agent, roster } = definition;
	if (agent.agent_type !== "pi") {
		if (roster.enabled) {
			problems.push(
				`${prefix}roster.enabled: must be false because agent_type is "${agent.agent_type}" (Pi delegation cannot be configured on another harness)`,
			);
		}
		if (roster.roles.length > 0) {
			problems.push(
				`${prefix}roster.roles: must be empty because agent_type is "${agent.agent_type}" (Pi delegation cannot be configured on another harness)`,
			);
		}
	}
	const checked: CheckedDefinition = { definition, roleFiles: [] };
	if (agent.cwd !== undefined) checked.cwd = resolveExisting(baseDir, agent.cwd, "dir", `${prefix}agent.cwd`, problems);
	if (agent.resources !== undefined) {
		checked.resources = resolveResources(agent.resources, baseDir, `${prefix}agent.`, problems);
	}
	roster.roles.forEach((role, index) => {
		checked.roleFiles.push(
			resolveExisting(baseDir, role.agent_file, "file", `${prefix}roster.roles[${index}]: agent_file`, problems),
		);
	});
	return problems.length === before ? { ok: true, checked } : { ok: false, missing: false };
}

function entryFromDefinition(checked: CheckedDefinition, agentFile: string): RosterEntry {
	const { agent } = checked.definition;
	const entry: RosterEntry = {
		name: agent.name,
		description: agent.description,
		harness: agent.agent_type,
		model: agent.model,
		effort: agent.effort,
		agentFile,
		digest: settingsDigest(agent),
	};
	if (checked.cwd !== undefined) entry.cwd = checked.cwd;
	if (agent.agent_type === "pi") entry.rosterFile = agentFile;
	if (checked.resources !== undefined) entry.resources = checked.resources;
	return entry;
}

function loadNormalized(raw: unknown, file: string): LoadedRoster {
	const problems: string[] = [];
	const result = checkDefinitionValue(raw, file, `${file}: `, problems);
	const entries: RosterEntry[] = [];
	if (result.ok) {
		const firstIndex = new Map<string, number>();
		result.checked.roleFiles.forEach((childFile, index) => {
			const childPrefix = `${file}: roster.roles[${index}] → ${childFile}: `;
			const child = checkDefinitionFile(childFile, childPrefix, problems);
			if (!child.ok) return;
			const entry = entryFromDefinition(child.checked, childFile);
			const earlier = firstIndex.get(entry.name);
			if (earlier !== undefined) {
				problems.push(
					`${file}: roster.roles[${index}] "${entry.name}": name: duplicate name "${entry.name}" (already used by roster.roles[${earlier}])`,
				);
			} else {
				firstIndex.set(entry.name, index);
			}
			entries.push(entry);
		});
	}
	if (!result.ok || problems.length > 0) throw new LaunchError(problems);
	return { source: file, format: "normalized", enabled: result.checked.definition.roster.enabled, entries };
}

function loadInline(raw: unknown, file: string): LoadedRoster {
	const problems: string[] = [];
	const parsed = inlineRosterFileSchema.safeParse(raw);
	if (!parsed.success) {
		problems.push(...fieldProblems(parsed.error.issues).map((p) => `${file}: ${locateProblem(raw, p)}`));
		// List every problem at once: entries that are well-formed on their own still get their
		// duplicate-name, Pi-only and path checks.
		const roles = (raw as { roster?: { roles?: unknown } }).roster?.roles;
		if (Array.isArray(roles)) {
			const wellFormed = roles.map((role) => {
				const entry = inlineEntrySchema.safeParse(role);
				return entry.success ? entry.data : undefined;
			});
			buildInlineEntries(wellFormed, rosterBaseDir(file), `${file}: `, problems);
		}
		throw new LaunchError(problems);
	}
	const entries = buildInlineEntries(parsed.data.roster.roles, rosterBaseDir(file), `${file}: `, problems);
	if (problems.length > 0) throw new LaunchError(problems);
	return { source: file, format: "inline", enabled: parsed.data.roster.enabled, entries };
}

/**
 * Loads a roster file selected by `PI_AGENTSHELL_ROSTER_FILE` or a `roster_file` argument.
 *
 * @param file path of the file; made absolute lexically (a symlinked file keeps its pathname, and its
 *   relative paths resolve against that pathname's directory).
 * @returns the validated roster; entries keep their file order.
 * @throws LaunchError listing every problem, each `<file>: <entry>: <field>: <reason>`: unreadable or
 *   malformed JSON, unknown keys, missing/empty required strings, bad `agent_type` or resource values,
 *   non-empty `packages`/`mcp_servers`, duplicate names, `roster_file` on a non-Pi entry, a non-Pi
 *   normalized definition with an enabled or non-empty roster, and missing referenced paths (also when
 *   the roster is disabled).
 */
export function loadRosterFile(file: string): LoadedRoster {
	const absolute = resolve(file);
	const read = readJson(absolute);
	if (!read.ok) throw new LaunchError(`${absolute}: ${read.problem}`);
	const raw = read.value;
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
		throw new LaunchError(
			`${absolute}: expected a JSON object ({ "roster": … } or { "agent": …, "roster": … }), got ${typeName(raw)}`,
		);
	}
	if ("agent" in raw) return loadNormalized(raw, absolute);
	if ("roster" in raw) return loadInline(raw, absolute);
	const keys = Object.keys(raw);
	throw new LaunchError(
		`${absolute}: expected a native inline roster { "roster": … } or a normalized definition { "agent": …, "roster": … }; found ${keys.length === 0 ? "no keys" : `keys ${keys.map((k) => `"${k}"`).join(", ")}`}`,
	);
}

/**
 * The personal roster from the settings file (`roster` key of `<agentDir>/extensions/agentshell.json`,
 * inline entry shape), with paths resolved against `<agentDir>/extensions`.
 * @throws LaunchError naming the settings file, entry and field for duplicate names, `roster_file` on a
 *   non-Pi entry, and missing paths (checked even when disabled).
 */
export function rosterFromSettings(settings: { roster: ParsedInlineRoster }, agentDir: string): LoadedRoster {
	const problems: string[] = [];
	const entries = buildInlineEntries(
		settings.roster.roles,
		settingsBaseDir(agentDir),
		`${settingsFilePath(agentDir)}: `,
		problems,
	);
	if (problems.length > 0) throw new LaunchError(problems);
	return { source: "settings", format: "settings", enabled: settings.roster.enabled, entries };
}

/**
 * Before each launch/resume of a normalized entry: rereads its `agent.json`, validates it again, and
 * compares its `agent` settings with the load-time snapshot (docs/rules.md §Paths and child environments:
 * "Changed/deleted definitions fail instead of silently launching stale settings"). Inline and settings
 * entries (no `agentFile`) pass unchanged.
 * @throws LaunchError naming the file and saying to run `/reload` when the definition was deleted,
 *   became invalid, or changed.
 */
export function recheckNormalizedEntry(entry: RosterEntry): void {
	const file = entry.agentFile;
	if (file === undefined) return;
	const problems: string[] = [];
	const result = checkDefinitionFile(file, `${file}: `, problems);
	const reload = "run /reload to load the current definitions for new sessions";
	if (!result.ok) {
		if (result.missing) {
			throw new LaunchError(
				`${file}: the agent definition of roster entry "${entry.name}" was deleted after load; ${reload}`,
			);
		}
		throw new LaunchError([
			`${file}: the definition of roster entry "${entry.name}" is no longer valid; fix it (and if you changed its agent settings, ${reload})`,
			...problems,
		]);
	}
	if (settingsDigest(result.checked.definition.agent) !== entry.digest) {
		throw new LaunchError(
			`${file}: the agent definition of roster entry "${entry.name}" changed after load; ${reload}`,
		);
	}
}
