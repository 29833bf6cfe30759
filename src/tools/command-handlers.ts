/**
 * The handler of each user command (docs/tools.md §Slash commands), by name: what `src/index.ts` registers
 * for each entry of `COMMANDS` (tool-info.ts) once the runtime is loaded.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import type { InteractiveRuns } from "../interactive/interactive-runs.ts";
import { agentsCommand } from "./agent-catalogue.ts";
import { handleAttachCommand } from "./attach-command.ts";
import { handleFleetCommand, handleJobsCommand } from "./fleet-command.ts";
import { toggleRosterCommand } from "./roster-tool.ts";
import { handleSendCommand } from "./send-command.ts";
import {
	AGENTS_COMMAND,
	ATTACH_COMMAND,
	FLEET_COMMAND,
	GRAPH_COMMAND,
	JOBS_COMMAND,
	ROSTER_COMMAND,
	SEND_COMMAND,
} from "./tool-info.ts";

/** One command's handler, as Pi calls it. */
export type CommandHandler = (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;

/** What the commands work on: the fleet, jobs, inputs and adapters (`/subagents`), and the tmux host. */
export type CommandDeps = Parameters<typeof handleFleetCommand>[0] & { interactive: InteractiveRuns };

/** The handler of each command, by name; `/graph` is the graph runtime's own. */
export function commandHandlers(
	config: Parameters<typeof toggleRosterCommand>[0],
	agentDir: string,
	deps: CommandDeps,
	graph: CommandHandler,
): Record<string, CommandHandler> {
	return {
		[ROSTER_COMMAND.name]: (args, ctx) => toggleRosterCommand(config, args, ctx),
		[SEND_COMMAND.name]: (args, ctx) => handleSendCommand(deps.inputs, args, ctx),
		[AGENTS_COMMAND.name]: wordless(AGENTS_COMMAND.name, (ctx) => agentsCommand({ cwd: ctx.cwd, agentDir }, ctx)),
		[ATTACH_COMMAND.name]: (args, ctx) => handleAttachCommand(deps.interactive, args, ctx),
		[FLEET_COMMAND.name]: wordless(FLEET_COMMAND.name, (ctx) => handleFleetCommand(deps, ctx)),
		[JOBS_COMMAND.name]: (args, ctx) => handleJobsCommand(deps, args, ctx),
		[GRAPH_COMMAND.name]: graph,
	};
}

/** A command that reads no word: one given is refused with an error notice, and nothing runs. */
function wordless(name: string, run: (ctx: ExtensionCommandContext) => Promise<void> | void): CommandHandler {
	return (args, ctx) => {
		if (args.trim() === "") return run(ctx);
		ctx.ui.notify(`/${name} takes no words; got "${args.trim()}"`, "error");
	};
}
