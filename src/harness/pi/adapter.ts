/**
 * The pi harness adapter (docs/harness-support.md): the command builder (`command.ts`) and the record parser
 * (`events.ts`) behind the shared adapter contract.
 */
import type { HarnessAdapter } from "../../core/harness-adapter.ts";
import { assertCanLaunch } from "../adapter.ts";
import { buildPiCommand, type PiAdapterOptions, piProblems } from "./command.ts";
import { PiEventParser } from "./events.ts";
import { PI_COMMAND_ENV } from "./invocation.ts";

/** Builds the pi adapter. */
export function createPiAdapter(options: PiAdapterOptions): HarnessAdapter {
	return {
		harness: "pi",
		commandEnv: PI_COMMAND_ENV,
		buildCommand: (spec, runDir) => buildPiCommand(spec, runDir, options),
		createParser: () => new PiEventParser(),
		validate: (spec) => assertCanLaunch("pi", options.invocation, piProblems(spec, options)),
	};
}
