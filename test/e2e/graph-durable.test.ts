/**
 * Durable graph runs under a REAL pi parent (docs/graphs.md §Durability): the parent (`pi --mode rpc` with a
 * session file) runs a graph of real pi children against the fake model, is SIGKILLed mid-graph (its
 * children die with it), and is started again on the same session file. The fake model's request log
 * proves which nodes ran again; the run's snapshot proves how it ended.
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KILL_FAULT_ENV } from "../../src/core/fault-points.ts";
import { graphsRoot } from "../../src/graph/run-dir.ts";
import type { LedgerRecord, RunSnapshot } from "../../src/graph/run-store.ts";
import { waitUntil } from "../support/processes.ts";
import type { RpcPi as Pi } from "../support/rpc-pi.ts";
import { useRpcPiHome } from "../support/rpc-pi-home.ts";

const fixture = useRpcPiHome();
const { startPi } = fixture;

/** The parent model: on `marker`, call agent_graph with `args` once; afterwards answer plainly. */
function parentRuns(marker: string, args: Record<string, unknown>): void {
	fixture.server.route((request) => {
		if (!request.toolNames.includes("agent_graph")) return undefined;
		// The prompt's own turn only: a later prompt in the same session is another scenario's.
		if (!request.lastUserText.includes(marker)) return undefined;
		if (request.lastToolOutput === undefined) return { toolCalls: [{ name: "agent_graph", arguments: args }] };
		return { text: "parent done" };
	});
}

/** A child task that hangs on its first run and answers `answer` on any later one. */
function hangsOnce(task: string, answer: string): void {
	let runs = 0;
	fixture.server.route((request) => {
		if (request.toolNames.includes("agent_graph") || request.lastUserText !== task) return undefined;
		return runs++ === 0 ? { hang: true } : { text: answer };
	});
}

const childRequests = (task: string) =>
	fixture.server.requests.filter((r) => !r.toolNames.includes("agent_graph") && r.lastUserText === task).length;

/** The run directory of the graph named `name` (one per test). */
function runOf(name: string): { dir: string; snapshot: () => RunSnapshot } {
	const root = graphsRoot(fixture.home.agentDir);
	const read = (dir: string) => JSON.parse(readFileSync(join(dir, "snapshot.json"), "utf8")) as RunSnapshot;
	const dir = readdirSync(root)
		.map((id) => join(root, id))
		.find((d) => existsSync(join(d, "snapshot.json")) && read(d).graph.name === name);
	if (!dir) throw new Error(`no run of graph "${name}"`);
	return { dir, snapshot: () => read(dir) };
}

/**
 * Starts the parent on a fresh session file, has it call agent_graph with `args` (`{ graph }`, …), waits until
 * `hangTask` runs, SIGKILLs it; returns the session file.
 */
async function crashWhileRunning(marker: string, args: Record<string, unknown>, hangTask: string): Promise<string> {
	parentRuns(marker, args);
	const pi = startPi(["--session-dir", join(fixture.home.dir, "sessions", marker)]);
	await pi.command({ type: "prompt", message: marker });
	await fixture.server.waitFor((requests) => requests.some((r) => r.lastUserText === hangTask), 60_000);
	const sessionFile = (await pi.command({ type: "get_state" })).sessionFile as string;
	await pi.killHard();
	return sessionFile;
}

/** Starts a parent again on `sessionFile` and waits until the run restored there has finished. */
async function restoreToEnd(sessionFile: string, run: { snapshot: () => RunSnapshot }): Promise<Pi> {
	const again = startPi(["--session", sessionFile]);
	await waitUntil(() => run.snapshot().finished, "the restored run to finish", 120_000);
	return again;
}

/**
 * Waits for `pi`'s notice that the run cannot resume and checks that nothing ran again: `ran` made its one
 * request before the crash, `never` none, and the snapshot is still `before`. Returns the notice.
 */
async function refusedResume(
	pi: Pi,
	run: { snapshot: () => RunSnapshot },
	before: RunSnapshot,
	tasks: { ran: string; never: string },
): Promise<string> {
	await waitUntil(() => pi.notices().some((n) => n.includes("cannot resume")), "the refused resume's notice", 60_000);
	const notice = pi.notices().find((n) => n.includes("cannot resume")) as string;
	expect(notice).toContain(`run ${before.runId} cannot resume`);
	expect(childRequests(tasks.ran)).toBe(1);
	expect(childRequests(tasks.never)).toBe(0);
	expect(run.snapshot().state).toEqual(before.state);
	return notice;
}

/** The run's ledger records, in order. */
function ledgerOf(run: { dir: string }): LedgerRecord[] {
	return readFileSync(join(run.dir, "ledger.jsonl"), "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as LedgerRecord);
}

const node = (task: string, extra: Record<string, unknown> = {}) => ({ agent_type: "pi", task, ...extra });

describe("a graph run survives its parent's SIGKILL", () => {
	it("completes after a restart on the same session file: settled nodes make no new request, the running node runs again as attempt 2", {
		timeout: 180_000,
	}, async () => {
		fixture.server.scriptFor("durable-crash: scan", { text: "scanned" });
		hangsOnce("durable-crash: fix", "fixed");
		const graph = {
			name: "durable-crash",
			nodes: {
				scan: node("durable-crash: scan"),
				fix: node("durable-crash: fix", { depends_on: ["scan"] }),
				report: node("durable-crash: report", { depends_on: ["fix"] }),
			},
		};
		fixture.server.scriptFor("durable-crash: report", { text: "reported" });
		const sessionFile = await crashWhileRunning("durable crash parent", { graph }, "durable-crash: fix");
		const run = runOf("durable-crash");
		expect(run.snapshot().finished).toBe(false);
		expect(run.snapshot().state.nodes.scan.status).toBe("completed");

		const again = await restoreToEnd(sessionFile, run);
		const { state } = run.snapshot();
		expect(Object.fromEntries(Object.entries(state.nodes).map(([k, n]) => [k, [n.status, n.attempts]]))).toEqual({
			scan: ["completed", 1],
			fix: ["completed", 2],
			report: ["completed", 1],
		});
		expect(childRequests("durable-crash: scan")).toBe(1);
		expect(childRequests("durable-crash: fix")).toBe(2);
		expect(childRequests("durable-crash: report")).toBe(1);
		expect(again.notices().some((n) => n.includes(`resuming graph run ${basenameOf(run.dir)} "durable-crash"`))).toBe(
			true,
		);
		expect(
			ledgerOf(run)
				.filter((r) => r.node === "fix" && r.event.type === "admit")
				.map((r) => r.attempt),
		).toEqual([1, 2]);
	});

	it("applies a skip whose disposition was durable when the parent died before the kill: the node stays skipped", {
		timeout: 180_000,
	}, async () => {
		hangsOnce("durable-skip: slow", "never asked again");
		const graph = {
			name: "durable-skip",
			nodes: {
				slow: node("durable-skip: slow"),
				after: node("durable-skip: after", { depends_on: ["slow"] }),
			},
		};
		// The parent starts the graph in the background, then skips "slow" by run_id; the fault point kills it
		// right after the disposition is durable.
		fixture.server.route((request) => {
			if (
				!request.toolNames.includes("agent_graph") ||
				!request.userTexts.some((t) => t.includes("durable skip parent"))
			)
				return undefined;
			const runId = /run_id ([0-9a-f-]{36})/.exec(request.lastToolOutput ?? "")?.[1];
			if (!request.roles.includes("tool"))
				return { toolCalls: [{ name: "agent_graph", arguments: { graph, background: true } }] };
			// The skip comes once "slow" runs (its child asked the model), so there is a child to kill.
			if (runId)
				return fixture.server
					.waitFor((requests) => requests.some((r) => r.lastUserText === "durable-skip: slow"), 60_000)
					.then(() => ({
						toolCalls: [{ name: "agent_graph", arguments: { action: "skip", run_id: runId, node: "slow" } }],
					}));
			return { text: "parent done" };
		});
		const pi = startPi(["--session-dir", join(fixture.home.dir, "sessions", "skip")], {
			[KILL_FAULT_ENV]: "after-disposition",
		});
		await pi.command({ type: "prompt", message: "durable skip parent" });
		await waitUntil(
			() => pi.child.exitCode !== null || pi.child.signalCode !== null,
			"the fault point to kill the parent",
			90_000,
		);
		expect(pi.child.signalCode).toBe("SIGKILL");
		const run = runOf("durable-skip");
		expect(run.snapshot().state.nodes.slow.disposition).toBe("skip");
		const sessionFile = readdirSync(join(fixture.home.dir, "sessions", "skip")).map((f) =>
			join(fixture.home.dir, "sessions", "skip", f),
		)[0];
		expect(childRequests("durable-skip: slow")).toBe(1);

		await restoreToEnd(sessionFile, run);
		const { nodes } = run.snapshot().state;
		expect(nodes.slow).toMatchObject({ status: "skipped", skip: { kind: "request" }, attempts: 1 });
		expect(nodes.after).toMatchObject({ status: "skipped", skip: { kind: "dependency", node: "slow" } });
		expect(childRequests("durable-skip: slow")).toBe(1);
		expect(childRequests("durable-skip: after")).toBe(0);
	});

	it("fails the resume before any child starts when a remaining node's roster entry was disabled meanwhile", {
		timeout: 180_000,
	}, async () => {
		const settings = join(fixture.home.agentDir, "extensions", "agentshell.json");
		const roster = (enabled: boolean) =>
			writeFileSync(
				settings,
				JSON.stringify({
					roster: {
						enabled,
						roles: [
							{ name: "reviewer", description: "Reviews", agent_type: "pi", model: "fake/fake-model", effort: "off" },
						],
					},
				}),
			);
		mkdirSync(join(fixture.home.agentDir, "extensions"), { recursive: true });
		roster(true);
		try {
			hangsOnce("durable-roster: first", "first done");
			const graph = {
				name: "durable-roster",
				nodes: {
					first: node("durable-roster: first"),
					review: { roster_entry: "reviewer", task: "durable-roster: review", depends_on: ["first"] },
				},
			};
			const sessionFile = await crashWhileRunning("durable roster parent", { graph }, "durable-roster: first");
			roster(false);
			const run = runOf("durable-roster");
			const before = run.snapshot();

			const again = startPi(["--session", sessionFile]);
			const tasks = { ran: "durable-roster: first", never: "durable-roster: review" };
			expect(await refusedResume(again, run, before, tasks)).toContain('node "review"');
		} finally {
			writeFileSync(settings, "{}");
		}
	});

	it("fails the resume before any child starts when a remaining node's project agent is no longer trusted (the user declines)", {
		timeout: 180_000,
	}, async () => {
		const trustFile = join(fixture.home.agentDir, "trust.json");
		const agentFile = join(fixture.workDir, ".pi", "agents", "local.md");
		mkdirSync(join(fixture.workDir, ".pi", "agents"), { recursive: true });
		writeFileSync(agentFile, "---\nname: local\ndescription: A project agent\n---\nYou are the project's agent.\n");
		writeFileSync(trustFile, JSON.stringify({ [fixture.workDir]: true }));
		try {
			hangsOnce("durable-trust: first", "first done");
			const graph = {
				name: "durable-trust",
				nodes: {
					first: node("durable-trust: first"),
					local: { agent: "local", task: "durable-trust: local", depends_on: ["first"] },
				},
			};
			const args = { graph, agentScope: "both" };
			const sessionFile = await crashWhileRunning("durable trust parent", args, "durable-trust: first");
			const run = runOf("durable-trust");
			const before = run.snapshot();
			writeFileSync(trustFile, JSON.stringify({ [fixture.workDir]: false }));

			const again = startPi(["--session", sessionFile]);
			// The project is no longer explicitly trusted: the restore asks (RPC confirm), and the user declines.
			const asks = () => again.events.filter((e) => e.type === "extension_ui_request" && e.method === "confirm");
			await waitUntil(() => asks().length > 0, "the trust question", 60_000);
			expect(String(asks()[0].message)).toContain(`project agent "local" (${agentFile})`);
			again.child.stdin?.write(
				`${JSON.stringify({ type: "extension_ui_response", id: asks()[0].id, confirmed: false })}\n`,
			);
			const tasks = { ran: "durable-trust: first", never: "durable-trust: local" };
			const notice = await refusedResume(again, run, before, tasks);
			expect(notice).toContain(`declined to run project agent "local" (${agentFile})`);
		} finally {
			rmSync(join(fixture.workDir, ".pi"), { recursive: true, force: true });
			rmSync(trustFile, { force: true });
		}
	});

	it("asks about a restored project graph again, its commands named, and runs nothing of it when the user declines", {
		timeout: 180_000,
	}, async () => {
		const trustFile = join(fixture.home.agentDir, "trust.json");
		const graphFile = join(fixture.workDir, ".pi", "graphs", "durable-ship.json");
		const marker = join(fixture.home.dir, "durable-ship-ran");
		mkdirSync(join(fixture.workDir, ".pi", "graphs"), { recursive: true });
		const ship = [process.execPath, "-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`];
		writeFileSync(
			graphFile,
			JSON.stringify({
				name: "durable-ship",
				nodes: {
					first: node("durable-ship: first"),
					ship: { kind: "command", depends_on: ["first"], run: ship },
				},
			}),
		);
		writeFileSync(trustFile, JSON.stringify({ [fixture.workDir]: true }));
		try {
			hangsOnce("durable-ship: first", "first done");
			const args = { name: "durable-ship", agentScope: "project" };
			const sessionFile = await crashWhileRunning("durable ship parent", args, "durable-ship: first");
			const run = runOf("durable-ship");
			const before = run.snapshot();
			// The project is explicitly trusted no more; what the first process was allowed does not carry over.
			writeFileSync(trustFile, JSON.stringify({ [fixture.workDir]: false }));

			const again = startPi(["--session", sessionFile]);
			const asks = () => again.events.filter((e) => e.type === "extension_ui_request" && e.method === "confirm");
			await waitUntil(() => asks().length > 0, "the trust question", 60_000);
			expect(String(asks()[0].message)).toContain(`project graph "durable-ship" (${graphFile}; runs commands:`);
			expect(String(asks()[0].message)).toContain(process.execPath);
			again.child.stdin?.write(
				`${JSON.stringify({ type: "extension_ui_response", id: asks()[0].id, confirmed: false })}\n`,
			);
			const tasks = { ran: "durable-ship: first", never: "durable-ship: first (again)" };
			const notice = await refusedResume(again, run, before, tasks);
			expect(notice).toContain(`declined to run project graph "durable-ship" (${graphFile}`);
			expect(existsSync(marker)).toBe(false);
		} finally {
			rmSync(join(fixture.workDir, ".pi"), { recursive: true, force: true });
			rmSync(trustFile, { force: true });
		}
	});

	it("with graphs.auto_resume false only announces the unfinished run, its name one visible line; agent_graph resume then completes it", {
		timeout: 180_000,
	}, async () => {
		const settings = join(fixture.home.agentDir, "extensions", "agentshell.json");
		mkdirSync(join(fixture.home.agentDir, "extensions"), { recursive: true });
		writeFileSync(settings, JSON.stringify({ graphs: { auto_resume: false } }));
		try {
			hangsOnce("durable-manual: work", "worked");
			// A name is the caller's or a file's: a control character in it is shown, never obeyed.
			const name = "durable-manual\u001b[2J";
			const graph = { name, nodes: { work: node("durable-manual: work") } };
			const sessionFile = await crashWhileRunning("durable manual parent", { graph }, "durable-manual: work");
			const run = runOf(name);
			const runId = run.snapshot().runId;

			const again = startPi(["--session", sessionFile]);
			await waitUntil(() => again.notices().some((n) => n.includes("is unfinished")), "the notice", 60_000);
			expect(again.notices()).toContain(
				`pi-native-subagents: graph run ${runId} "durable-manual\\u001b[2J" is unfinished; resume it with agent_graph({ action: "resume", run_id: "${runId}" }) or /graph resume ${runId}`,
			);
			expect(childRequests("durable-manual: work")).toBe(1);
			fixture.server.route((request) => {
				if (!request.toolNames.includes("agent_graph") || request.lastUserText !== "resume it now") return undefined;
				if (request.lastToolOutput === undefined)
					return { toolCalls: [{ name: "agent_graph", arguments: { action: "resume", run_id: runId } }] };
				return { text: "resumed" };
			});
			await again.command({ type: "prompt", message: "resume it now" });
			await waitUntil(() => run.snapshot().finished, "the resumed run to finish", 120_000);
			expect(run.snapshot().state.nodes.work).toMatchObject({ status: "completed", attempts: 2 });
			expect(childRequests("durable-manual: work")).toBe(2);
		} finally {
			writeFileSync(settings, "{}");
		}
	});

	it("lets only one of two Pi processes on the same session file drive the run", { timeout: 180_000 }, async () => {
		fixture.server.scriptFor("durable-two: one", { text: "one" });
		const pis: Pi[] = [];
		const all = () => pis.flatMap((pi) => pi.notices());
		const refusedOnce = () => all().some((n) => n.includes("is driven by"));
		// Attempt 1 hangs until the crash; attempt 2 answers only once the other process has been refused, so
		// both processes look at the run while it is driven.
		let runs = 0;
		fixture.server.route((request) => {
			if (request.toolNames.includes("agent_graph") || request.lastUserText !== "durable-two: two") return undefined;
			if (runs++ === 0) return { hang: true };
			return waitUntil(refusedOnce, "the other process's refusal", 60_000).then(() => ({ text: "two" }));
		});
		const graph = {
			name: "durable-two",
			nodes: { one: node("durable-two: one"), two: node("durable-two: two", { depends_on: ["one"] }) },
		};
		const sessionFile = await crashWhileRunning("durable two parent", { graph }, "durable-two: two");
		const run = runOf("durable-two");

		pis.push(startPi(["--session", sessionFile]), startPi(["--session", sessionFile]));
		await waitUntil(() => run.snapshot().finished, "the restored run to finish", 120_000);
		expect(all().filter((n) => n.includes("resuming graph run"))).toHaveLength(1);
		expect(
			all().filter((n) => n.includes(`run ${run.snapshot().runId} cannot resume: the run is driven by pid`)),
		).toHaveLength(1);
		expect(childRequests("durable-two: two")).toBe(2);
		expect(childRequests("durable-two: one")).toBe(1);
		expect(run.snapshot().state.nodes.two).toMatchObject({ status: "completed", attempts: 2 });
	});

	it("stays resumable when its session is replaced (/new) while it runs as a job, and completes when that session is opened again", {
		timeout: 180_000,
	}, async () => {
		hangsOnce("durable-new: work", "worked");
		const graph = { name: "durable-new", nodes: { work: node("durable-new: work") } };
		parentRuns("durable new parent", { graph, background: true });
		const pi = startPi(["--session-dir", join(fixture.home.dir, "sessions", "new")]);
		await pi.command({ type: "prompt", message: "durable new parent" });
		await fixture.server.waitFor((requests) => requests.some((r) => r.lastUserText === "durable-new: work"), 60_000);
		const oldFile = (await pi.command({ type: "get_state" })).sessionFile as string;
		expect((await pi.command({ type: "new_session" })).cancelled).toBe(false);
		const run = runOf("durable-new");
		// The job was cancelled with the session; the run's record is as it was before, not cancelled.
		await waitUntil(() => !existsSync(join(run.dir, "lease.json")), "the run's lease to be released", 30_000);
		expect(run.snapshot()).toMatchObject({ finished: false });
		expect(run.snapshot().state.cancelled).toBeUndefined();
		await pi.stop();

		await restoreToEnd(oldFile, run);
		expect(run.snapshot().state.nodes.work).toMatchObject({ status: "completed", attempts: 2 });
		expect(childRequests("durable-new: work")).toBe(2);
	});
});

function basenameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

describe("a feedback loop survives its parent's SIGKILL", () => {
	it("killed in round 2 and restored goes on in round 2 (attempt 2), never back at round 1", {
		timeout: 180_000,
	}, async () => {
		const verdicts = [
			{ decision: "revise", feedback: "again" },
			{ decision: "pass", feedback: "" },
		];
		let judged = 0;
		fixture.server.route((request) => {
			if (request.toolNames.includes("agent_graph") || request.lastUserText !== "durable-fb judge") return undefined;
			if (request.lastToolOutput !== undefined) return { text: "judged" };
			return { toolCalls: [{ name: "submit_result", arguments: verdicts[judged++] }] };
		});
		fixture.server.scriptFor("durable-fb work: []", { text: "first draft" });
		hangsOnce("durable-fb work: [again]", "second draft");
		const graph = {
			name: "durable-fb",
			nodes: {
				loop: {
					kind: "feedback",
					worker: node("durable-fb work: [${feedback}]"),
					evaluator: node("durable-fb judge", {
						output_schema: {
							type: "object",
							properties: { decision: { enum: ["pass", "revise"] }, feedback: { type: "string" } },
							required: ["decision", "feedback"],
						},
					}),
					max_iterations: 3,
				},
			},
		};
		const sessionFile = await crashWhileRunning("durable fb parent", { graph }, "durable-fb work: [again]");
		const run = runOf("durable-fb");
		expect(run.snapshot().finished).toBe(false);
		expect(run.snapshot().state.nodes.loop.parts?.["round 1 evaluator"]?.status).toBe("completed");

		startPi(["--session", sessionFile]);
		await waitUntil(() => run.snapshot().finished, "the restored loop to finish", 120_000);
		const { loop } = run.snapshot().state.nodes;
		expect(loop.status).toBe("completed");
		expect(
			Object.fromEntries(Object.entries(loop.parts ?? {}).map(([name, p]) => [name, [p.status, p.attempts]])),
		).toEqual({
			"round 1 worker": ["completed", 1],
			"round 1 evaluator": ["completed", 1],
			"round 2 worker": ["completed", 2],
			"round 2 evaluator": ["completed", 1],
		});
		expect(childRequests("durable-fb work: []")).toBe(1);
		expect(childRequests("durable-fb work: [again]")).toBe(2);
		const admissions = ledgerOf(run).flatMap((r) =>
			r.event.type === "part" && r.event.step.kind === "admit" ? [[r.event.part, r.iteration, r.attempt]] : [],
		);
		expect(admissions).toEqual([
			["round 1 worker", 1, 1],
			["round 1 evaluator", 1, 1],
			["round 2 worker", 2, 1],
			["round 2 worker", 2, 2],
			["round 2 evaluator", 2, 1],
		]);
	});
});
