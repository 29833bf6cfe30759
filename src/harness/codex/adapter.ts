/**
 * The codex harness adapter (docs/harness-support.md): the command builder (`command.ts`), the record parser
 * (`events.ts`) and the rollout reader (`rollout.ts`) behind the shared adapter contract.
 */
import type { HarnessAdapter } from "../../core/harness-adapter.ts";
import { checkCanLaunch } from "../adapter.ts";
import { CODEX_COMMAND_ENV, type NativeCommand } from "../native-command.ts";
import { addMissingSession } from "../session-cwd.ts";
import { buildCodexCommand, buildCodexTuiCommand, codexRefusals, codexTuiRefusals } from "./command.ts";
import { CodexEventParser } from "./events.ts";
import { findThreadRollout, readRolloutCwd, readThreadUsage, THREAD_ID } from "./rollout.ts";

export { codexHomeDir } from "../../core/native-homes.ts";

export interface CodexAdapterOptions {
	/**
	 * How to start codex (see `resolveNativeCommand`); called per launch, so a bad override refuses
	 * launches instead of failing the extension's load.
	 * @throws ConfigError when the command override cannot be used.
	 */
	command: () => NativeCommand;
	/**
	 * The `CODEX_HOME` children use (see `codexHomeDir`). Read only when a thread is resumed, to find
	 * the thread's earlier usage total in its rollout file.
	 */
	codexHome: string;
}

/**
 * Why a running codex child takes no input (docs/background-jobs.md §Talking to running children): `codex exec` reads
 * its whole prompt from stdin to EOF before it starts and reads nothing after.
 */
export const CODEX_INPUT_REFUSAL =
	"codex exec reads its whole prompt before it starts and takes no input while it runs; resume the child (subagent with resume: its native session id) once it has finished";

/** Builds the codex adapter. */
export function createCodexAdapter(options: CodexAdapterOptions): HarnessAdapter {
	const sessionFile = (id: string) => findThreadRollout(options.codexHome, id);
	return {
		harness: "codex",
		commandEnv: CODEX_COMMAND_ENV,
		inputRefusal: CODEX_INPUT_REFUSAL,
		buildCommand: (spec, runDir) => buildCodexCommand(spec, runDir, options.command()),
		// --output-schema: the final agent message is the JSON document.
		structuredResult: { inText: true, howToSubmit: "Answer with only the JSON document of your result." },
		buildTuiCommand: (spec) => buildCodexTuiCommand(spec, options.command()),
		createParser: (spec) =>
			new CodexEventParser(
				spec.session.kind === "resume"
					? {
							threadId: spec.session.nativeSessionId,
							baseline: readThreadUsage(options.codexHome, spec.session.nativeSessionId),
						}
					: undefined,
				(threadId) => readThreadUsage(options.codexHome, threadId),
			),
		validate: (spec, problems) =>
			checkCanLaunch(
				spec,
				options.command,
				problems,
				(refused) => {
					// A thread name is codex's to resolve (it starts a new thread for an unknown one: refused after).
					addMissingSession(spec, sessionFile, `${options.codexHome}/sessions`, refused, (id) => THREAD_ID.test(id));
					codexRefusals(spec, refused);
				},
				(refused, clean) => codexTuiRefusals(spec, options.command, refused, clean),
			),
		sessionCwd: (id) => readRolloutCwd(options.codexHome, id),
		sessionFile,
	};
}
