/**
 * Normalized rosters (docs/rules.md §Rosters): an `agent.json`
 * that is exactly `{ agent, roster }`, each role exactly `{ agent_file }`. Loading reads the selected
 * document and its direct child definitions only (their own `agent_file` references are checked for
 * existence, never read); self and cyclic references are valid. Before each launch a normalized entry's
 * file is read again and compared with its load-time snapshot.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../core/config-error.ts";
import type { Resources } from "../core/launch-spec.ts";
import { Problems } from "../core/problems.ts";
import { resolveExisting, rosterBaseDir } from "./paths.ts";
import { readJson } from "./read-json.ts";
import type { LoadedRoster, RosterEntry } from "./roster-entry.ts";
import { checkUniqueNames } from "./roster-names.ts";
import { resolveResources } from "./roster-resources.ts";
import { normalizedDefinitionSchema, type ParsedNormalizedDefinition } from "./roster-schema.ts";
import { settingsDigest } from "./settings-digest.ts";
import { fieldProblems, locateProblem } from "./zod-issues.ts";

interface CheckedDefinition {
	definition: ParsedNormalizedDefinition;
	cwd?: string;
	resources?: Resources;
	/** Resolved `agent_file` of each role, in order; `undefined` where it is missing (a problem says so). */
	roleFiles: Array<string | undefined>;
	/** No problem beyond the schema either: the definition can be used. */
	clean: boolean;
}

/**
 * Reads and validates one normalized definition without reading the definitions it references:
 * schema, non-Pi roster rule, its agent's cwd/resources (against its own directory) and the existence
 * of each role's `agent_file`.
 * @returns the checked definition (`clean` false when a problem was added to `problems` past the schema), or
 *   `undefined` when it fails its schema (every problem added).
 */
function checkDefinitionFile(file: string, problems: Problems): CheckedDefinition | undefined {
	const read = readJson(file, problems);
	return read && checkDefinitionValue(read.value, file, problems);
}

function checkDefinitionValue(raw: unknown, file: string, problems: Problems): CheckedDefinition | undefined {
	const parsed = normalizedDefinitionSchema().safeParse(raw);
	if (!parsed.success) {
		for (const problem of fieldProblems(parsed.error.issues)) problems.add(locateProblem(raw, problem));
		return undefined;
	}
	const definition = parsed.data;
	const baseDir = rosterBaseDir(file);
	const before = problems.size;
	const { agent, roster } = definition;
	if (agent.agent_type !== "pi") {
		const why = `because agent_type is "${agent.agent_type}" (Pi delegation cannot be configured on another harness)`;
		if (roster.enabled) problems.add(`roster.enabled: must be false ${why}`);
		if (roster.roles.length > 0) problems.add(`roster.roles: must be empty ${why}`);
	}
	const checked: CheckedDefinition = { definition, roleFiles: [], clean: false };
	if (agent.cwd !== undefined) checked.cwd = resolveExisting(baseDir, agent.cwd, "dir", problems.at("agent.cwd"));
	if (agent.resources !== undefined) {
		checked.resources = resolveResources(agent.resources, baseDir, problems, "agent.resources");
	}
	roster.roles.forEach((role, index) => {
		const found = problems.size;
		const path = resolveExisting(baseDir, role.agent_file, "file", problems.at(`roster.roles[${index}]: agent_file`));
		checked.roleFiles.push(problems.size === found ? path : undefined);
	});
	checked.clean = problems.size === before;
	return checked;
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

/** A normalized `agent.json`'s parsed JSON → LoadedRoster. @throws ConfigError listing every problem. */
export function loadNormalized(raw: unknown, file: string): LoadedRoster {
	const problems = new Problems(file);
	const checked = checkDefinitionValue(raw, file, problems);
	if (!checked) throw new ConfigError(problems.list);
	const entries: RosterEntry[] = [];
	// Each child's `agent` as read, for the duplicate-name check of every child with a readable name, valid or not;
	// the children that exist are read whatever else the parent has wrong, so one answer lists every problem.
	const agents: unknown[] = [];
	checked.roleFiles.forEach((childFile, index) => {
		if (childFile === undefined) {
			agents.push(undefined);
			return;
		}
		// A role that is the file itself (docs/rules.md §Rosters: self references are valid) is the definition
		// checked above: its problems are listed once.
		if (resolve(childFile) === resolve(file)) {
			agents.push(checked.definition.agent);
			if (checked.clean) entries.push(entryFromDefinition(checked, childFile));
			return;
		}
		const childProblems = problems.at(`roster.roles[${index}] → ${childFile}`);
		const read = readJson(childFile, childProblems);
		agents.push((read?.value as { agent?: unknown } | undefined)?.agent);
		const child = read && checkDefinitionValue(read.value, childFile, childProblems);
		if (child?.clean) entries.push(entryFromDefinition(child, childFile));
	});
	checkUniqueNames(agents, problems);
	if (problems.size > 0) throw new ConfigError(problems.list);
	return { source: file, format: "normalized", enabled: checked.definition.roster.enabled, entries };
}

/**
 * Before each launch/resume of a normalized entry: rereads its `agent.json`, validates it again, and
 * compares its `agent` settings with the load-time snapshot (docs/rules.md §Paths and child environments:
 * "Changed/deleted definitions fail instead of silently launching stale settings"). Inline and settings
 * entries (no `agentFile`) pass unchanged.
 * @returns false when the definition was deleted, became invalid, or changed, with problems naming the
 *   file and saying to run `/reload` added to `problems`.
 */
export function recheckNormalizedEntry(entry: RosterEntry, problems: Problems): boolean {
	const file = entry.agentFile;
	if (file === undefined) return true;
	const reload = "run /reload to load the current definitions for new sessions";
	if (!existsSync(file)) {
		problems.add(`${file}: the agent definition of roster entry "${entry.name}" was deleted after load; ${reload}`);
		return false;
	}
	const found = new Problems(file);
	const checked = checkDefinitionFile(file, found);
	if (!checked?.clean) {
		problems.add(
			`${file}: the definition of roster entry "${entry.name}" is no longer valid; fix it (and if you changed its agent settings, ${reload})`,
		);
		for (const problem of found.list) problems.add(problem);
		return false;
	}
	if (settingsDigest(checked.definition.agent) !== entry.digest) {
		problems.add(`${file}: the agent definition of roster entry "${entry.name}" changed after load; ${reload}`);
		return false;
	}
	return true;
}
