/**
 * The pi harness adapter (docs/harness-support.md): the command builder (`command.ts`) and the record parser
 * (`events.ts`) behind the shared adapter contract.
 */
import type { HarnessAdapter } from "../../core/harness-adapter.ts";
import { checkCanLaunch } from "../adapter.ts";
import { SUBMIT_RESULT_TOOL } from "../tool-names.ts";
import { buildPiCommand, buildPiTuiCommand, type PiAdapterOptions, piRefusals, piTuiRefusals } from "./command.ts";
import { PiEventParser } from "./events.ts";
import { PI_COMMAND_ENV } from "./invocation.ts";
import { piWarmProbe } from "./rpc.ts";
import { findPiSessionFile, readPiSessionCwd } from "./session-file.ts";
import { piStartupInputs } from "./startup-inputs.ts";

/** Builds the pi adapter. */
export function createPiAdapter(options: PiAdapterOptions): HarnessAdapter {
	return {
		harness: "pi",
		commandEnv: PI_COMMAND_ENV,
		buildCommand: (spec, runDir) => buildPiCommand(spec, runDir, options),
		buildTuiCommand: (spec, runDir) => buildPiTuiCommand(spec, runDir, options),
		// The submit_result tool's arguments (submit-result-extension.ts).
		structuredResult: { inText: false, howToSubmit: `Call the ${SUBMIT_RESULT_TOOL} tool with your result.` },
		// A started `pi --mode rpc` answers get_state once it reads commands (warm children).
		warmProbe: piWarmProbe,
		startupInputs: (spec, env) => piStartupInputs(spec, options.agentDir, env.HOME),
		// Only a new session's first system message lists every tool (a resumed one lists what was added).
		createParser: (spec) => new PiEventParser(spec.session.kind === "new" ? spec.allowedTools : undefined),
		validate: (spec, problems) =>
			checkCanLaunch(
				spec,
				options.invocation,
				problems,
				(refused) => piRefusals(spec, options, refused),
				(refused, clean) => piTuiRefusals(spec, options, refused, clean),
			),
		sessionCwd: (id) => readPiSessionCwd(options.sessionDir, id),
		sessionFile: (id) => findPiSessionFile(options.sessionDir, id),
	};
}
