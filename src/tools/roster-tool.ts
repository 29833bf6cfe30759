/**
 * The `subagent_roster` tool (spec §Calling the existing tool: "`subagent_roster` lists the effective
 * entries, including resolved resource paths") and the `/agentshell-roster` command.
 */
import type { ExtensionAPI, ToolDefinition } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { describeAgent, discoverAgents, formatAgentFileErrors } from "../config/agents.ts";
import type { ExtensionState } from "../config/extension-state.ts";
import type { RosterEntry } from "../config/roster.ts";
import { LaunchError } from "../core/launch-error.ts";

const rosterSchema = Type.Object({});

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
): ToolDefinition<typeof rosterSchema, RosterDetails> {
	return {
		name: "subagent_roster",
		label: "Subagent roster",
		description:
			"List the roster entries subagent({ roster_entry }) can run, with harness, model, effort, cwd, child roster and resolved resource paths, and the user's Markdown agents subagent({ agent }) can run (with the keys of other tools' formats they ignore).",
		promptSnippet: "List the roster entries available to the subagent tool",
		parameters: rosterSchema,
		async execute() {
			const config = state.runtime;
			const roster = config.roster;
			if (!roster) {
				const error = config.rosterError ?? "no roster";
				return {
					content: [
						{ type: "text", text: `The roster could not be loaded:\n${error}\n\n${agentLines(agentDir).join("\n")}` },
					],
					details: { enabled: false, entries: [], error },
					isError: true,
				};
			}
			const enabled = state.rosterEnabled;
			const source = roster.source === "settings" ? "personal roster (settings file)" : roster.source;
			const lines = [
				`Roster: ${source} (${roster.format}), ${enabled ? "enabled" : "disabled — enable it with /agentshell-roster"}`,
			];
			if (roster.entries.length === 0) lines.push("No entries.");
			for (const entry of roster.entries) lines.push("", ...describeEntry(entry));
			lines.push("", ...agentLines(agentDir));
			return {
				content: [{ type: "text", text: lines.join("\n") }],
				details: { source: roster.source, format: roster.format, enabled, entries: roster.entries },
			};
		},
	};
}

/** The user-scope Markdown agents, each with the foreign keys it ignores, and the files that failed to load. */
function agentLines(agentDir: string): string[] {
	const { agents, errors } = discoverAgents({ cwd: agentDir, agentDir, scope: "user" });
	const lines = [`Markdown agents (${agentDir}/agents):`];
	if (agents.length === 0) lines.push("none");
	for (const agent of agents) lines.push(`- ${describeAgent(agent)} [${agent.harness}]: ${agent.description}`);
	for (const line of formatAgentFileErrors(errors)) lines.push(`- failed to load: ${line}`);
	return lines;
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

/** Registers `/agentshell-roster`: toggles the roster (persisted without an override, in memory with one). */
export function registerRosterCommand(pi: ExtensionAPI, state: ExtensionState): void {
	pi.registerCommand("agentshell-roster", {
		description:
			"Enable or disable the sub-agent roster (persisted to agentshell.json unless PI_AGENTSHELL_ROSTER_FILE is set)",
		handler: async (_args, ctx) => {
			try {
				const toggle = state.toggleRoster();
				ctx.ui.notify(toggle.message, "info");
			} catch (error) {
				if (!(error instanceof LaunchError)) throw error;
				ctx.ui.notify(`/agentshell-roster: ${error.message}`, "error");
			}
		},
	});
}
