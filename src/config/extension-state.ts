/**
 * The configuration state of one extension load: settings, the roster and its enabled flag, and this
 * process's delegation depth. Rebuilt on session start and `/reload`.
 *
 * `/agentshell-roster` semantics (docs/rules.md §Rosters): without a roster override the
 * toggle persists to the settings file; with `PI_AGENTSHELL_ROSTER_FILE` it is an in-memory toggle that
 * `/reload` resets to the file's `enabled` value.
 */

import { ConfigError } from "../core/config-error.ts";
import type { DepthState } from "./depth.ts";
import { readDepthState } from "./depth.ts";
import { type EffectiveLimits, effectiveLimits } from "./effective-limits.ts";
import type { LoadedRoster } from "./roster-entry.ts";
import { loadRuntimeConfig, type RuntimeConfig } from "./runtime-config.ts";
import {
	DEFAULT_SETTINGS,
	type EnvironmentPolicy,
	type GraphSettings,
	saveRosterEnabled,
	type WarmChildrenSettings,
} from "./settings.ts";

/** The roster as the current extension load sees it. */
export interface RosterState {
	roster?: LoadedRoster;
	/** Why the roster could not be loaded. */
	error?: string;
	/** The problems of `error`, one line each. */
	problems?: readonly string[];
	/** Effective enabled flag (the file's, or the in-memory toggle under an override). */
	enabled: boolean;
}

/** What a launch needs from the current configuration; read at each call, so `/reload` applies. */
export interface LaunchState {
	/** `undefined` when calls are refused; `refusal` then says why (e.g. a malformed settings file). */
	limits?: EffectiveLimits;
	refusal?: string;
	roster: RosterState;
	depth: DepthState;
	/** Which of the parent's variables children inherit (settings `environment`). */
	environment: EnvironmentPolicy;
	/** Setting `silent`: no UI notices for background jobs (their results still reach the model). */
	silent: boolean;
	/** Settings `graphs`: restore and retention of durable graph runs. */
	graphs: GraphSettings;
	/** Settings `warm_children`: idle pi children kept for the next run of a launch. */
	warmChildren: WarmChildrenSettings;
}

/** The outcome of `/agentshell-roster`: the roster's new state and the message the user sees. */
export interface RosterToggle {
	enabled: boolean;
	message: string;
}

/** Settings, roster and depth of one extension load; see the module comment for the roster toggle. */
export class ExtensionState {
	private config: RuntimeConfig = {};
	private enabledOverride: boolean | undefined;

	private readonly agentDir: string;
	private readonly env: NodeJS.ProcessEnv;
	private readonly processCwd: string;

	/**
	 * Nothing is read until `reload()` (Pi's `session_start`): until then calls are refused.
	 * @param processCwd base of a relative `PI_AGENTSHELL_ROSTER_FILE` (the parent process cwd at load).
	 */
	constructor(agentDir: string, env: NodeJS.ProcessEnv, processCwd: string) {
		this.agentDir = agentDir;
		this.env = env;
		this.processCwd = processCwd;
	}

	/** Rereads settings and the roster; forgets an in-memory roster toggle. */
	reload(): void {
		this.config = loadRuntimeConfig(this.agentDir, this.env, this.processCwd);
		this.enabledOverride = undefined;
	}

	get runtime(): RuntimeConfig {
		return this.config;
	}

	/** Problems a user should see at load: a malformed settings file or roster (each reported once). */
	get problems(): string[] {
		const { settingsError, rosterError, settings } = this.config;
		// Without valid settings the personal roster's error only repeats the settings error.
		const rosterProblem = settings || this.config.rosterOverride ? rosterError : undefined;
		return [settingsError, rosterProblem].filter((p): p is string => p !== undefined);
	}

	get rosterEnabled(): boolean {
		return this.enabledOverride ?? this.config.roster?.enabled ?? false;
	}

	/**
	 * What the `subagent` tool works with. Built-in defaults apply only when there is no settings file;
	 * a malformed one (or a malformed depth variable) makes `refusal` say why calls are refused.
	 */
	toolState(): LaunchState {
		const settings = this.config.settings;
		let depth: LaunchState["depth"] = { depth: 0, maxDepth: 0 };
		let refusal = this.config.settingsError && `the settings file is malformed:\n${this.config.settingsError}`;
		try {
			depth = readDepthState(this.env, (settings ?? DEFAULT_SETTINGS).max_sub_agent_depth);
		} catch (error) {
			if (!(error instanceof ConfigError)) throw error;
			refusal ??= `this process's environment is invalid: ${error.message}`;
		}
		return {
			limits: settings && !refusal ? effectiveLimits(settings) : undefined,
			environment: (settings ?? DEFAULT_SETTINGS).environment,
			refusal,
			roster: {
				roster: this.config.roster,
				error: this.config.rosterError,
				problems: this.config.rosterProblems,
				enabled: this.rosterEnabled,
			},
			depth,
			silent: (settings ?? DEFAULT_SETTINGS).silent,
			graphs: (settings ?? DEFAULT_SETTINGS).graphs,
			warmChildren: (settings ?? DEFAULT_SETTINGS).warm_children,
		};
	}

	/**
	 * Sets the roster's enabled flag to `target` (default: the other value). Only that flag changes: other edits of
	 * the settings file wait for `/reload`.
	 * @throws ConfigError when the roster or settings file cannot be loaded, or the settings file cannot be written.
	 */
	toggleRoster(target?: boolean): RosterToggle {
		const roster = this.config.roster;
		if (!roster) {
			const problems = this.config.rosterProblems ?? ["no roster"];
			throw new ConfigError(problems.map((problem) => `the roster could not be loaded: ${problem}`));
		}
		const enabled = target ?? !this.rosterEnabled;
		if (this.config.rosterOverride) {
			this.enabledOverride = enabled;
			return {
				enabled,
				message: `roster ${enabled ? "enabled" : "disabled"} for this session only (${this.config.rosterOverride} is selected by PI_AGENTSHELL_ROSTER_FILE; /reload restores the file's value)`,
			};
		}
		if (this.config.settingsError) throw new ConfigError(this.config.settingsError);
		saveRosterEnabled(this.agentDir, enabled);
		this.enabledOverride = enabled;
		return {
			enabled,
			message: `personal roster ${enabled ? "enabled" : "disabled"} (saved to the settings file)`,
		};
	}
}
