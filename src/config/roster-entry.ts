/**
 * What a loaded roster is (docs/rules.md §Rosters): its entries with
 * every path absolute, where it came from, and whether it is enabled. Loading lives in `roster.ts`
 * (files), `roster-inline.ts` and `roster-normalized.ts` (the two formats).
 */
import type { Harness, Resources } from "../core/launch-spec.ts";

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
