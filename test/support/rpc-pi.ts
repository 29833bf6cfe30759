/**
 * A real `pi --mode rpc` parent with this package loaded by its directory (`-e`), and a minimal client for
 * its JSONL protocol (test/e2e/graph-durable.test.ts, test/e2e/background-host.test.ts): commands with their
 * responses, the events it printed, its `ctx.ui.notify` texts, and a stop or a SIGKILL that waits until it
 * and every process it started are gone.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { isRunning, type ProcessIdentity, processTree, waitUntil } from "./processes.ts";

/** This package's directory. */
export const ROOT = resolve(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules", ".bin", "node");
const PI_CLI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");

export interface RpcPi {
	child: ChildProcess;
	/** Every JSON line it printed, parsed, in order. */
	events: Array<Record<string, unknown>>;
	/** What it wrote to stderr so far. */
	stderr(): string;
	/** Texts of `ctx.ui.notify` calls (RPC `extension_ui_request` notify). */
	notices(): string[];
	/** Sends a command and resolves with its response's `data`; rejects when the response is not a success. */
	command(command: Record<string, unknown>): Promise<Record<string, unknown>>;
	/** SIGKILLs it and waits until it and every process it started are gone. */
	killHard(): Promise<void>;
	/** Ends its stdin and SIGTERMs it, then waits until it and every process it started are gone. */
	stop(): Promise<void>;
}

/** Starts `pi --mode rpc -e <package> ...args` in `cwd` with `env` as its whole environment. */
export function startRpcPi(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): RpcPi {
	const child = spawn(NODE, [PI_CLI, "--mode", "rpc", "-e", ROOT, ...args], {
		cwd: options.cwd,
		env: options.env,
		stdio: ["pipe", "pipe", "pipe"],
	});
	// A test may SIGKILL it with its stdin open.
	child.stdin?.on("error", () => {});
	const events: Array<Record<string, unknown>> = [];
	let stderr = "";
	child.stderr?.setEncoding("utf8").on("data", (data: string) => {
		stderr += data;
	});
	createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
		if (line.startsWith("{")) events.push(JSON.parse(line) as Record<string, unknown>);
	});
	let next = 0;
	const exited = new Promise<void>((done) => child.once("exit", () => done()));
	const gone = () => child.exitCode !== null || child.signalCode !== null;
	return {
		child,
		events,
		stderr: () => stderr,
		notices: () =>
			events.filter((e) => e.type === "extension_ui_request" && e.method === "notify").map((e) => String(e.message)),
		async command(command) {
			const id = `req-${++next}`;
			child.stdin?.write(`${JSON.stringify({ id, ...command })}\n`);
			await waitUntil(
				() => events.some((e) => e.type === "response" && e.id === id),
				`the response to ${command.type}`,
				30_000,
			);
			const response = events.find((e) => e.type === "response" && e.id === id) as Record<string, unknown>;
			if (response.success !== true) throw new Error(`${command.type} failed: ${JSON.stringify(response)}`);
			return (response.data ?? {}) as Record<string, unknown>;
		},
		async killHard() {
			const family: ProcessIdentity[] = processTree(child.pid as number);
			child.kill("SIGKILL");
			await exited;
			await waitUntil(() => family.every((p) => !isRunning(p)), "the parent's children to die with it", 10_000);
		},
		async stop() {
			if (gone()) return;
			const family = processTree(child.pid as number);
			child.stdin?.end();
			child.kill("SIGTERM");
			await exited;
			await waitUntil(() => family.every((p) => !isRunning(p)), "the parent's processes to end", 15_000);
		},
	};
}
