/** The tools and the command a call runs, in one module the extension imports on first need (src/index.ts). */

export { agentLoadProblems, agentsCommand } from "./agent-catalogue.ts";
export { handleAttachCommand } from "./attach-command.ts";
export { commandHandlers } from "./command-handlers.ts";
export { handleFleetCommand, handleJobsCommand } from "./fleet-command.ts";
export { graphRuntime } from "./graph-command.ts";
export { createJobsTool } from "./jobs-tool.ts";
export { totalUsage } from "./result-text.ts";
export { createRosterTool, toggleRosterCommand } from "./roster-tool.ts";
export { handleSendCommand } from "./send-command.ts";
export { createSubagentTool } from "./subagent-tool.ts";
export { WarmHolder } from "./warm-holder.ts";
