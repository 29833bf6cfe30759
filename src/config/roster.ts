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
 * are collected and thrown together as one ConfigError whose lines name the file, the entry and the field.
 */
import { resolve } from "node:path";
import { ConfigError } from "../core/config-error.ts";
import { Problems } from "../core/problems.ts";
import { readJson } from "./read-json.ts";
import type { LoadedRoster } from "./roster-entry.ts";
import { loadInline } from "./roster-inline.ts";
import { loadNormalized } from "./roster-normalized.ts";
import { typeName } from "./zod-issues.ts";

/**
 * Loads a roster file selected by `PI_AGENTSHELL_ROSTER_FILE` or a `roster_file` argument.
 *
 * @param file path of the file; made absolute lexically (a symlinked file keeps its pathname, and its
 *   relative paths resolve against that pathname's directory).
 * @returns the validated roster; entries keep their file order.
 * @throws ConfigError listing every problem, each `<file>: <entry>: <field>: <reason>`: unreadable or
 *   malformed JSON, unknown keys, missing/empty required strings, bad `agent_type` or resource values,
 *   non-empty `packages`/`mcp_servers`, duplicate names, `roster_file` on a non-Pi entry, a non-Pi
 *   normalized definition with an enabled or non-empty roster, and missing referenced paths (also when
 *   the roster is disabled).
 */
export function loadRosterFile(file: string): LoadedRoster {
	const absolute = resolve(file);
	const problems = new Problems(absolute);
	const read = readJson(absolute, problems);
	if (!read) throw new ConfigError(problems.list);
	const raw = read.value;
	if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
		throw new ConfigError(
			`${absolute}: expected a JSON object ({ "roster": … } or { "agent": …, "roster": … }), got ${typeName(raw)}`,
		);
	}
	if ("agent" in raw) return loadNormalized(raw, absolute);
	if ("roster" in raw) return loadInline(raw, absolute);
	const keys = Object.keys(raw);
	throw new ConfigError(
		`${absolute}: expected a native inline roster { "roster": … } or a normalized definition { "agent": …, "roster": … }; found ${keys.length === 0 ? "no keys" : `keys ${keys.map((k) => `"${k}"`).join(", ")}`}`,
	);
}
