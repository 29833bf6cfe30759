/**
 * The private tmux host: its socket directory is private, panes run their program directly, text reaches
 * only a live pane, and closing removes the server and the directory.
 */
import { existsSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findTmux, TmuxHost } from "../../src/interactive/tmux-host.ts";
import { isAlive, waitUntil } from "../support/processes.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const tmux = findTmux();
if (!tmux) throw new Error("tmux is not on PATH; .ci/run installs it");
const host = new TmuxHost(tmux);
afterAll(() => host.close());

const session = (name: string, command: string[]) =>
	host.newSession({ name, cwd: "/", command, width: 80, height: 24 });

describe("the tmux host of a parent session", () => {
	it("keeps its socket in a directory only the user can enter", () => {
		expect(statSync(host.dir).mode & 0o777).toBe(0o700);
		expect(dirname(host.socket)).toBe(host.dir);
	});

	it("runs the program as the pane's own process and types pasted text into it once it is live", async () => {
		const pane = await session("typing", ["/bin/cat"]);
		expect(pane.dead).toBe(false);
		expect(isAlive(pane.pid)).toBe(true);
		await host.sendText("typing", "hello from the parent");
		await waitUntil(
			async () => (await host.capture("typing")).includes("hello from the parent"),
			"the pasted text on the pane",
		);
		await host.killSession("typing", 500);
		expect(await host.pane("typing")).toBeUndefined();
		await waitUntil(() => !isAlive(pane.pid), "cat to exit");
	});

	it("refuses to send text to a pane whose process has exited", async () => {
		await session("exited", ["/bin/sh", "-c", "exit 3"]);
		await waitUntil(async () => (await host.pane("exited"))?.dead === true, "the pane's process to exit");
		expect(await host.pane("exited")).toMatchObject({ dead: true, exitStatus: 3 });
		await expect(host.sendText("exited", "lost keystrokes")).rejects.toThrow(/has exited; nothing was sent/);
		await host.killSession("exited", 500);
	});

	it("closing kills the server with every pane and removes the socket directory", async () => {
		const own = new TmuxHost(tmux as string);
		const pane = await own.newSession({
			name: "left",
			cwd: "/",
			command: ["/bin/sleep", "600"],
			width: 80,
			height: 24,
		});
		await own.close();
		await waitUntil(() => !isAlive(pane.pid), "the pane's process to end");
		expect(existsSync(own.dir)).toBe(false);
		await expect(
			own.newSession({ name: "late", cwd: "/", command: ["/bin/true"], width: 80, height: 24 }),
		).rejects.toThrow(/closed/);
	});

	it("reports a pane dead but not reaped while its process runs with its terminal closed, and its exit once it exits", async () => {
		const dir = makeTempDir("pane-gate-");
		const gate = join(dir, "gate");
		let pid: number | undefined;
		try {
			// tmux closes a pane when it reads the end of its terminal: at an exit that comes a moment before tmux
			// reaps the process; here the process closes its terminal and waits, so the moment lasts.
			const script = `trap '' HUP; exec </dev/null >/dev/null 2>&1; until [ -e ${gate} ]; do sleep 0.05; done; exit 4`;
			const pane = await session("closes-terminal", ["/bin/sh", "-c", script]);
			pid = pane.pid;
			await waitUntil(async () => (await host.pane("closes-terminal"))?.dead === true, "the pane to be dead");
			expect(await host.pane("closes-terminal")).toEqual({ pid: pane.pid, dead: true, reaped: false });
			expect(isAlive(pane.pid)).toBe(true);
			writeFileSync(gate, "");
			await waitUntil(async () => (await host.pane("closes-terminal"))?.reaped === true, "tmux to reap the process");
			expect(await host.pane("closes-terminal")).toMatchObject({ dead: true, exitStatus: 4, exitSignal: undefined });
		} finally {
			writeFileSync(gate, "");
			if (pid !== undefined) await waitUntil(() => !isAlive(pid as number), "the pane's process to be gone");
			rmSync(dir, { recursive: true, force: true });
		}
	});

	// tmux 3.3a misses the SIGCHLD of about one pane exit in thirty: the process stays a zombie and the pane
	// without its status until another child of the server exits. One pane at a time, so none is reaped by the
	// next one's exit: each report here comes from the host's SIGCHLD nudge.
	it("reports how each of many panes that exit at once ended, though tmux misses some of their SIGCHLDs", async () => {
		for (let i = 0; i < 150; i++) {
			const name = `exits-${i}`;
			await session(name, ["/bin/sh", "-c", i % 2 === 0 ? "kill -9 $$" : "exit 5"]);
			await waitUntil(async () => (await host.pane(name))?.reaped === true, `tmux to report ${name}'s end`, 5_000);
			await host.killSession(name, 1_000);
		}
	});

	it("reports the signal that ended a pane's process", async () => {
		await session("killed", ["/bin/sh", "-c", "kill -9 $$"]);
		await waitUntil(async () => (await host.pane("killed"))?.reaped === true, "tmux to reap the process");
		expect(await host.pane("killed")).toMatchObject({ dead: true, exitStatus: undefined, exitSignal: 9 });
	});
});
