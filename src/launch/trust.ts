/**
 * The trust gate (docs/rules.md §Trust): project-controlled definitions run only when the project is
 * trusted or the user confirms; with no UI they are refused (fail closed).
 */

import { LaunchError } from "../core/launch-error.ts";
import type { LaunchContext } from "./launch-context.ts";

/** A project-controlled definition a launch would use. */
export interface ProjectControlled {
	/** e.g. `project agent "scout"`. */
	what: string;
	/** The file it comes from. */
	file: string;
}

/**
 * Passes when nothing is project-controlled, the project is trusted, or the user confirms.
 * @throws LaunchError naming every project-controlled definition when refused or declined.
 */
export async function assertTrusted(items: ProjectControlled[], context: LaunchContext): Promise<void> {
	if (items.length === 0 || context.projectTrusted) return;
	const list = items.map((item) => `${item.what} (${item.file})`).join(", ");
	if (!context.confirm) {
		throw new LaunchError(
			`refused to run ${list}: it is project-controlled, this project is not trusted, and there is no UI to confirm. Trust the project in Pi (or run with --approve) to allow it.`,
		);
	}
	const ok = await context.confirm(
		"Run project-controlled sub-agent?",
		`This project is not trusted. ${list} is defined by the project and will run with your permissions. Continue?`,
	);
	if (!ok) throw new LaunchError(`declined to run ${list}: it is project-controlled and the project is not trusted`);
}
