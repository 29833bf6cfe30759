/**
 * The configuration one extension load works with (docs/rules.md §Rosters, §Paths and child environments): the settings
 * file, and the roster — the file selected by `PI_AGENTSHELL_ROSTER_FILE`, else the settings file's personal roster.
 * Loaded at session start and on `/reload`; entries are snapshots until the next load.
 */

import { ConfigError } from "../core/config-error.ts";
import { Problems, ProblemsError } from "../core/problems.ts";
import { ROSTER_FILE_ENV } from "../runs/child-env.ts";
import { resolveRosterOverride, settingsBaseDir, settingsFilePath } from "./paths.ts";
import { loadRosterFile } from "./roster.ts";
import type { LoadedRoster } from "./roster-entry.ts";
import { checkMalformedRoles, rosterFromSettings } from "./roster-inline.ts";
import { inlineRosterSchema } from "./roster-schema.ts";
import { loadSettings, readSettingsFile, type Settings } from "./settings.ts";

export interface RuntimeConfig {
	/** `undefined` when the settings file is malformed (`settingsError` says why); never silently defaulted. */
	settings?: Settings;
	settingsError?: string;
	/** The effective roster; `undefined` when it failed to load (`rosterError` says why). */
	roster?: LoadedRoster;
	rosterError?: string;
	/** The problems of `rosterError`, one line each (a roster file may have several). */
	rosterProblems?: readonly string[];
	/** Absolute roster file selected by `PI_AGENTSHELL_ROSTER_FILE`, when set. */
	rosterOverride?: string;
}

/**
 * Loads settings and the roster. Never throws: problems are kept as messages and reported by every call
 * that needs the broken part (a malformed roster never falls back to the personal one).
 * @param processCwd base of a relative `PI_AGENTSHELL_ROSTER_FILE` (the parent process cwd at load).
 */
export function loadRuntimeConfig(agentDir: string, env: NodeJS.ProcessEnv, processCwd: string): RuntimeConfig {
	const config: RuntimeConfig = {};
	try {
		config.settings = loadSettings(agentDir);
	} catch (error) {
		config.settingsError = messageOf(withRosterProblems(error, agentDir));
	}
	let override: string | undefined;
	try {
		override = resolveRosterOverride(env[ROSTER_FILE_ENV], processCwd);
	} catch (error) {
		setRosterError(config, error);
		return config;
	}
	config.rosterOverride = override;
	try {
		if (override) config.roster = loadRosterFile(override);
		else if (config.settings) config.roster = rosterFromSettings(config.settings, agentDir);
		else
			setRosterError(
				config,
				`the personal roster is unavailable because the settings file is malformed: ${config.settingsError}`,
			);
	} catch (error) {
		setRosterError(config, error);
	}
	return config;
}

/**
 * A malformed settings file's error with its personal roster's problems past the schema added (docs/rules.md
 * §Configuration files: every problem at once): when its `roster` is valid in shape, its path and duplicate-name
 * checks (`rosterFromSettings`); when not, the same checks of the entries that allow them (`checkMalformedRoles`;
 * the shape problems are in the error already). Other errors are returned as they are.
 */
function withRosterProblems(error: unknown, agentDir: string): unknown {
	if (!(error instanceof ConfigError)) return error;
	// rosterFromSettings' problems name the file already; the others get its name here.
	const problems = new Problems();
	problems.attempt(() => checkRosterOfMalformedSettings(agentDir, problems.at(settingsFilePath(agentDir))));
	return problems.size === 0 ? error : new ConfigError([...error.problems, ...problems.list]);
}

/**
 * Adds to `problems` the personal roster's problems past the schema of a settings file that failed `loadSettings`;
 * nothing when the file cannot be read as a JSON object.
 * @throws ConfigError from `rosterFromSettings` (a roster valid in shape whose entries have problems).
 */
function checkRosterOfMalformedSettings(agentDir: string, problems: Problems): void {
	let raw: unknown;
	try {
		raw = readSettingsFile(settingsFilePath(agentDir))?.value;
	} catch {
		return;
	}
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return;
	const rawRoster = (raw as Record<string, unknown>).roster ?? {};
	const roster = inlineRosterSchema().safeParse(rawRoster);
	if (roster.success) rosterFromSettings({ roster: roster.data }, agentDir);
	else checkMalformedRoles((rawRoster as { roles?: unknown }).roles, settingsBaseDir(agentDir), problems);
}

/** `error` as the roster's error: its message, and its problems one line each. */
function setRosterError(config: RuntimeConfig, error: unknown): void {
	config.rosterError = messageOf(error);
	config.rosterProblems = error instanceof ProblemsError ? error.problems : [config.rosterError];
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
