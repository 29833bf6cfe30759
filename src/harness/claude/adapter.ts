/**
 * The claude_code harness adapter (docs/harness-support.md): the command builder (`command.ts`) and the record
 * parser (`events.ts`) behind the shared adapter contract.
 */
import type { HarnessAdapter } from "../../core/harness-adapter.ts";
import { checkCanLaunch } from "../adapter.ts";
import { CLAUDE_COMMAND_ENV } from "../native-command.ts";
import { addMissingSession } from "../session-cwd.ts";
import {
	buildClaudeCommand,
	buildClaudeTuiCommand,
	type ClaudeAdapterOptions,
	claudeRefusals,
	claudeTuiRefusals,
} from "./command.ts";
import { ClaudeEventParser } from "./events.ts";
import { claudeConfigDir, findClaudeTranscript, readClaudeSessionCwd } from "./transcript.ts";

/** Builds the claude_code adapter. */
export function createClaudeAdapter(options: ClaudeAdapterOptions): HarnessAdapter {
	const configDir = () => options.configDir ?? claudeConfigDir(process.env);
	const sessionFile = (id: string) => findClaudeTranscript(configDir(), id);
	return {
		harness: "claude_code",
		commandEnv: CLAUDE_COMMAND_ENV,
		buildCommand: (spec, runDir) => buildClaudeCommand(spec, runDir, options),
		buildTuiCommand: (spec, runDir) => buildClaudeTuiCommand(spec, runDir, options),
		// --json-schema: claude offers the model a StructuredOutput tool; `result.structured_output` carries it.
		structuredResult: { inText: false, howToSubmit: "Call the StructuredOutput tool with your result." },
		createParser: (spec) => new ClaudeEventParser(spec.allowedTools),
		validate: (spec, problems) =>
			checkCanLaunch(
				spec,
				options.command,
				problems,
				(refused) => {
					addMissingSession(spec, sessionFile, `${configDir()}/projects`, refused);
					claudeRefusals(spec, options, refused);
				},
				(refused, clean) => claudeTuiRefusals(spec, options, refused, clean),
			),
		sessionCwd: (id) => readClaudeSessionCwd(configDir(), id),
		sessionFile,
	};
}
