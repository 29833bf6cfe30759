/**
 * `/agentshell-roster [enable | disable]` (docs/tools.md §Slash commands), found by the new-user attack: the word
 * after it is read (another is refused), only the roster's flag changes until `/reload`, and a symlinked settings
 * file keeps its link and is written where it leads.
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnv, settingsFileOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession, type UiCall } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";

let env: E2eEnv;
beforeAll(async () => {
	env = await startE2eEnv({ agents: { echo: { description: "Answers", body: "You answer." } }, mode: "rpc" });
});
afterAll(async () => env?.close());
afterEach(() => rmSync(settingsFileOf(env), { force: true }));

const roster = (enabled: boolean) => ({
	enabled,
	roles: [{ name: "r", description: "d", agent_type: "pi", model: "fake/fake-model", effort: "off" }],
});

/** Runs the command line `line` in a new session; resolves with the notices it showed. */
async function runCommand(line: string): Promise<UiCall[]> {
	const uiLog: UiCall[] = [];
	const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc", uiLog });
	try {
		await session.prompt(line);
		return uiLog;
	} finally {
		session.dispose();
	}
}
const rosterCommand = (args: string) => runCommand(`/agentshell-roster ${args}`.trim());
const savedEnabled = () => JSON.parse(readFileSync(settingsFileOf(env), "utf8")).roster.enabled;

describe("/agentshell-roster", () => {
	it("disable keeps a disabled roster disabled, and enable enables it", async () => {
		writeJson(settingsFileOf(env), { roster: roster(false) });
		await rosterCommand("disable");
		expect(savedEnabled()).toBe(false);
		await rosterCommand("enable");
		expect(savedEnabled()).toBe(true);
		await rosterCommand("enable");
		expect(savedEnabled()).toBe(true);
	});

	it("refuses another word, naming it, and changes nothing", async () => {
		writeJson(settingsFileOf(env), { roster: roster(false) });
		const notices = await rosterCommand("off");
		expect(savedEnabled()).toBe(false);
		expect(JSON.stringify(notices)).toContain('unknown word \\"off\\"; usage: /agentshell-roster [enable | disable]');
	});

	it("does not apply an unrelated edit of the settings file: that waits for /reload", async () => {
		const file = settingsFileOf(env);
		const two = {
			tasks: [
				{ agent: "echo", task: "p1" },
				{ agent: "echo", task: "p2" },
			],
		};
		writeJson(file, { limits: { max_parallel_tasks: 1 }, roster: roster(false) });
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir, mode: "rpc" });
		try {
			expect(textOf((await session.callTool("subagent", two)).result)).toContain("at most 1 are allowed per call");
			writeJson(file, { limits: { max_parallel_tasks: 8 }, roster: roster(false) });
			await session.prompt("/agentshell-roster");
			expect(savedEnabled()).toBe(true);
			expect(textOf((await session.callTool("subagent", two)).result)).toContain("at most 1 are allowed per call");
		} finally {
			session.dispose();
		}
	});

	it("/subagents and /subagent-agents refuse a word too, naming it", async () => {
		for (const command of ["subagents", "subagent-agents"]) {
			const notices = await runCommand(`/${command} extra`);
			expect(JSON.stringify(notices)).toContain(`/${command} takes no words; got \\"extra\\"`);
		}
	});

	it("writes through a symlinked settings file and keeps the link", async () => {
		const file = settingsFileOf(env);
		const target = join(env.home.dir, "dotfiles", "agentshell.json");
		writeJson(target, { roster: roster(false) });
		mkdirSync(dirname(file), { recursive: true });
		symlinkSync(target, file);
		await rosterCommand("");
		expect(lstatSync(file).isSymbolicLink(), "the settings path is still a symlink").toBe(true);
		expect(JSON.parse(readFileSync(target, "utf8")).roster.enabled).toBe(true);
	});
});
