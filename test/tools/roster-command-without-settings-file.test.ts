/**
 * `/agentshell-roster [enable | disable]` (docs/tools.md §Slash commands) with no settings file: it writes none and
 * says so with the verb the user asked for (the word given, or for no word the change it would have made).
 */
import { existsSync } from "node:fs";
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { ExtensionState } from "../../src/config/extension-state.ts";
import { settingsFilePath } from "../../src/config/settings.ts";
import { toggleRosterCommand } from "../../src/tools/roster-tool.ts";
import { tempDirsRemovedAfter } from "../support/temp-dir.ts";

const tempDir = tempDirsRemovedAfter(afterEach);

/** Runs `/agentshell-roster <args>` for an agent dir with no settings file; the one notice it shows. */
function rosterCommand(args: string) {
	const agentDir = tempDir("roster-command-");
	const state = new ExtensionState(agentDir, {}, agentDir);
	state.reload();
	const notes: Array<{ message: string; level: string }> = [];
	const ctx = { ui: { notify: (message: string, level: string) => notes.push({ message, level }) } };
	toggleRosterCommand(state, args, ctx as unknown as ExtensionCommandContext);
	expect(existsSync(settingsFilePath(agentDir)), "no settings file is written").toBe(false);
	expect(notes).toHaveLength(1);
	return notes[0];
}

describe("/agentshell-roster with no settings file", () => {
	it.each([
		["disable", "nothing to disable"],
		["enable", "nothing to enable"],
		["", "nothing to enable"],
	])("%j says %s and writes nothing", (args, says) => {
		expect(rosterCommand(args)).toEqual({
			message: expect.stringContaining(
				`does not exist and the personal roster has no entries: ${says}, nothing was written`,
			),
			level: "error",
		});
	});
});
