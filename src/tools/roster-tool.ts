/**
 * The `subagent_roster` tool (docs/configuration.md §Rosters: it lists the effective entries, with resolved resource paths) and
 * the `/agentshell-roster` command.
 */
import type { ExtensionCommandContext, ToolDefinition } from "@earendil-works/pi-coding-agent";
import type { ExtensionState } from "../config/extension-state.ts";
import { settingsFilePath } from "../config/paths.ts";
import type { RosterEntry } from "../config/roster-entry.ts";
import { ConfigError } from "../core/config-error.ts";
import { printable } from "../core/printable.ts";
import { catalogueLines } from "./agent-catalogue.ts";
import { ROSTER_COMMAND, rosterToolInfo } from "./tool-info.ts";

export interface RosterDetails {
	source?: string;
	format?: string;
	enabled: boolean;
	entries: RosterEntry[];
	error?: string;
}

/** The `subagent_roster` tool definition: the effective roster, entries with resolved paths. */
export function createRosterTool(
	state: ExtensionState,
	agentDir: string,
): ToolDefinition<typeof rosterToolInfo.parameters, RosterDetails> {
	return {
		...rosterToolInfo,
		async execute(_id, _params, _signal, _onUpdate, ctx) {
			const agentLines = () => catalogueLines({ cwd: ctx.cwd, agentDir });
			const config = state.runtime;
			const roster = config.roster;
			if (!roster) {
				const error = config.rosterError ?? "no roster";
				return {
					content: [{ type: "text", text: `The roster could not be loaded:\n${error}\n\n${agentLines().join("\n")}` }],
					details: { enabled: false, entries: [], error },
					isError: true,
				};
			}
			const enabled = state.rosterEnabled;
			// The settings file's roster has the inline entry shape (docs/configuration.md §Native inline roster).
			const [source, format] =
				roster.source === "settings"
					? [`the personal roster in ${settingsFilePath(agentDir)}`, "inline"]
					: [roster.source, roster.format];
			const lines = [
				`Roster: ${source} (${format} format), ${enabled ? "enabled" : "disabled — enable it with /agentshell-roster"}`,
			];
			if (roster.entries.length === 0) lines.push("No entries.");
			for (const entry of roster.entries) lines.push("", ...describeEntry(entry));
			lines.push("", ...agentLines());
			return {
				// Names, descriptions and paths come from roster and agent files: one visible line each.
				content: [{ type: "text", text: lines.map(printable).join("\n") }],
				details: { source: roster.source, format: roster.format, enabled, entries: roster.entries },
			};
		},
	};
}

function describeEntry(entry: RosterEntry): string[] {
	const lines = [
		`- ${entry.name}: ${entry.description}`,
		`  harness: ${entry.harness}, model: ${entry.model}, effort: ${entry.effort}`,
	];
	lines.push(`  cwd: ${entry.cwd ?? "(the caller's)"}`);
	if (entry.rosterFile) lines.push(`  child roster: ${entry.rosterFile}`);
	if (entry.agentFile) lines.push(`  agent file: ${entry.agentFile}`);
	if (entry.resources) lines.push(`  resources: ${JSON.stringify(entry.resources)}`);
	return lines;
}

/**
 * `/agentshell-roster [enable | disable]`: enables or disables the roster (no word: the other state), persisted
 * without an override, in memory with one, and says so. Another word is refused, changing nothing.
 */
export function toggleRosterCommand(state: ExtensionState, args: string, ctx: ExtensionCommandContext): void {
	const word = args.trim();
	if (word !== "" && word !== "enable" && word !== "disable") {
		ctx.ui.notify(
			`/${ROSTER_COMMAND.name}: unknown word "${word}"; usage: /${ROSTER_COMMAND.name} [enable | disable]`,
			"error",
		);
		return;
	}
	try {
		const toggle = state.toggleRoster(word === "" ? undefined : word === "enable");
		ctx.ui.notify(toggle.message, "info");
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		ctx.ui.notify(`/${ROSTER_COMMAND.name}: ${error.message}`, "error");
	}
}
