/**
 * The package's Pi entry point (`package.json` `pi.extensions`). It lives at the package root so Pi lists
 * the extension under the package's name (an npm or git install) or its directory's name (a local path)
 * rather than as `src`; the wiring is in src/index.ts. It runs that wiring from the prebuilt bundle, loaded
 * by src/core/bundle-loader.ts, when the bundle is fresh, else from the sources through Pi's loader (docs/design-notes.md
 * §Start-up cost). Either way one copy of each module runs in a load.
 */

import * as piAi from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import * as codingAgent from "@earendil-works/pi-coding-agent";
import * as piTui from "@earendil-works/pi-tui";
import * as typebox from "typebox";
import { firstReport, loadFreshBundle } from "./src/core/native-bundle.ts";

type Factory = typeof import("./src/index.ts").default;

/** Registers the extension with `pi` (src/index.ts), from the bundle when it is fresh. */
export default async function piNativeSubagentsEntry(pi: ExtensionAPI): Promise<void> {
	// Pi's own instances of the peer packages, as its loader resolves them for this file.
	const peers = {
		"@earendil-works/pi-coding-agent": codingAgent,
		"@earendil-works/pi-tui": piTui,
		"@earendil-works/pi-ai": piAi,
		typebox,
	};
	const bundle = loadFreshBundle<{ default: Factory }>(import.meta.dirname, peers);
	const factory = bundle.module?.default ?? (await import("./src/index.ts")).default;
	factory(pi);
	const problem = bundle.problem;
	// A bundle that fails to load: the sources run, and the first session start of the process says why.
	if (problem)
		pi.on("session_start", (_event, ctx) => {
			if (!firstReport(problem)) return;
			if (ctx.hasUI) ctx.ui.notify(problem, "warning");
			else process.stderr.write(`${problem}\n`);
		});
}
