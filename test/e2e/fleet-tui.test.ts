/**
 * Watching and steering children in a real interactive Pi (tmux, fake model; docs/tools.md §How results
 * are shown, docs/background-jobs.md §The fleet view): a running child's card ticks with no event from the
 * child, a chain's headline counts a failed step as failed, `/subagents` lists a foreground child and a
 * background job at once, opens a child's transcript with its tool output and cancels a job on `x`, a
 * background job's report is drawn as a card, and `x` on a graph node skips that node (docs/graphs.md
 * §Controls) rather than the whole job.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeModelServer } from "../support/fake-model/index.ts";
import { Gate } from "../support/gate.ts";
import { type PiTuiHost, startedJobs, startTuiPi, type TuiPi } from "../support/pi-tui.ts";
import { waitUntil } from "../support/processes.ts";

let server: FakeModelServer;
let host: PiTuiHost;
let tui: TuiPi | undefined;
const gate = new Gate();

beforeAll(async () => {
	tui = await startTuiPi();
	({ server, host } = tui);
});

afterAll(async () => {
	// Held requests are answered so nothing waits on the server while it closes.
	while (gate.held > 0) gate.releaseOne();
	await tui?.close();
});

const call = (args: Record<string, unknown>) => host.submit("pi", `TOOL:subagent:${JSON.stringify(args)}`);
/** The parent's answer to a call's result (the rules fallback: `Tool said: <result>`). */
const answered = (result: string) =>
	host.waitForScrollback("pi", `Tool said: ${result}`, `the parent's answer to "${result}"`);
const elapsedOf = (text: string) => Number(/waiting for the model · (\d+\.\d)s/.exec(text)?.[1]);

describe("live cards in Pi's TUI", () => {
	it("a running child's elapsed time advances by a second or more between two captures with no child event in between", async () => {
		server.route(gate.rule("fleet tick", () => ({ text: "tick answer" })));
		call({ agent_type: "pi", task: "fleet tick" });
		await gate.waitHeld(1, 45_000);
		const first = await host.waitForScreen(
			"pi",
			(text) => elapsedOf(text) >= 0,
			"the held child waiting for its model",
		);
		const requests = server.requests.length;
		// The acceptance case itself: a later capture shows the time advanced by a second or more while the
		// model holds the child's only request (waited for, not slept: a loaded machine renders late).
		// "last activity" shows once the child has been quiet for a second, which on a loaded machine can come
		// after the elapsed time first advanced (its start-up events arrive late).
		let second = first;
		try {
			await waitUntil(() => {
				second = host.screen("pi");
				return elapsedOf(second) - elapsedOf(first) >= 1 && /last activity \d+s ago/.test(second);
			}, "the elapsed time to advance by a second, and the last activity to show");
			expect(server.requests.length).toBe(requests);
			expect(gate.held).toBe(1);
		} finally {
			// Answered whatever happened, so the next test's call does not wait behind this one.
			gate.releaseOne();
		}
		await answered("tick answer");
	});

	it("the headline of a chain with a failed step counts it as failed", async () => {
		call({
			chain: [
				{ agent_type: "pi", task: "fleet chain one" },
				{ agent_type: "pi", task: "fleet chain two ERROR:400" },
				{ agent_type: "pi", task: "fleet chain three {previous}" },
			],
		});
		const text = await host.waitForScreen(
			"pi",
			(screen) => screen.includes("1 ✓ · 1 ✗ · 1 skipped"),
			"the chain's headline",
		);
		expect(text).not.toMatch(/\d\/3 done/);
		await answered("1/3 steps completed");
	});
});

describe("/subagents", () => {
	it("lists a foreground child and a background job at once, shows a child's tool output on Enter, and cancels the job on x", async () => {
		server.route(gate.rule("fleet bg job", () => ({ text: "bg answer" })));
		let fgRelease: () => void = () => {};
		// The foreground child runs one shell command, then its next request is held.
		server.route((request) =>
			request.lastUserText.startsWith("fleet fg") && request.lastToolOutput?.includes("fleet-tool-output")
				? new Promise((resolve) => {
						fgRelease = () => resolve({ text: "fg answer" });
					})
				: undefined,
		);
		call({ agent_type: "pi", task: "fleet bg job", background: true });
		await gate.waitHeld(1, 45_000);
		await host.waitForScrollback("pi", (text) => startedJobs(text).length === 1, "the started job");
		const [job] = startedJobs(host.scrollback("pi"));
		call({ agent_type: "pi", task: "fleet fg TOOL:bash:echo fleet-tool-output" });
		await server.waitFor((requests) => requests.some((r) => r.lastToolOutput?.includes("fleet-tool-output")), 45_000);

		host.submit("pi", "/subagents");
		const list = await host.waitForScreen(
			"pi",
			(text) => text.includes("Sub-agents of this session"),
			"the fleet view",
		);
		expect(list).toMatch(new RegExp(`pi: fleet bg job .*background ${job}`));
		expect(list).toMatch(/› .*pi: fleet fg .*\$ echo fleet-tool-output.* foreground/);

		host.keys("pi", "Enter");
		const transcript = await host.waitForScreen("pi", (text) => text.includes("Transcript"), "the transcript");
		expect(transcript).toContain("→ $ echo fleet-tool-output");
		expect(transcript).toMatch(/^ {4}fleet-tool-output/m);
		expect(transcript).toContain("session file: ");

		host.keys("pi", "Escape", "Down", "x");
		await host.waitForScreen("pi", (text) => text.includes(`cancel background job ${job}`), "the confirmation");
		host.keys("pi", "y");
		await host.waitForScreen("pi", (text) => text.includes(`job ${job} cancelled`), "the cancellation");
		await host.waitForScreen("pi", (text) => /⊘ pi: fleet bg job .*aborted/.test(text), "the job's child aborted");
		host.keys("pi", "Escape");
		fgRelease();
		await host.waitForScreen("pi", (text) => /✓ pi completed .*fleet fg/.test(text), "the foreground child's card");
		// The cancelled job's report joins the parent's running turn, and the parent answers it.
		await host.waitForScrollback("pi", `echo: Background job ${job}`, "the parent's turn");
	});
});

describe("a background job's report", () => {
	it("renders as a card", async () => {
		// The parent's turn that the report starts answers briefly.
		server.route((request) => (request.lastUserText.startsWith("Background job") ? { text: "noted" } : undefined));
		call({ agent_type: "pi", task: "fleet card job", task_name: "carded", background: true });
		await host.waitForScrollback("pi", (text) => startedJobs(text).length === 2, "the second job");
		const job = startedJobs(host.scrollback("pi"))[1];
		const text = await host.waitForScreen(
			"pi",
			(screen) => new RegExp(`✓ background job ${job} pi "carded" completed`).test(screen),
			"the report's headline",
		);
		expect(text).toMatch(/✓ pi "carded" completed · \d+\.\ds/);
		expect(text).toContain("echo: fleet card job");
		expect(text).not.toContain("[pi-native-subagents.job]");
	});
});

describe("x on a graph node in /subagents", () => {
	it("skips that node through its run's controls: its child is killed, its dependent never runs, the job goes on to its end", async () => {
		server.route(gate.rule("fleet graph slow", () => ({ text: "never released" })));
		const graph = {
			name: "fleet-skip",
			nodes: {
				slow: { agent_type: "pi", task: "fleet graph slow" },
				after: { agent_type: "pi", task: "fleet graph after", depends_on: ["slow"] },
			},
		};
		const jobsBefore = startedJobs(host.scrollback("pi")).length;
		host.submit("pi", `TOOL:agent_graph:${JSON.stringify({ graph, background: true })}`);
		await gate.waitHeld(1, 45_000);
		await host.waitForScrollback("pi", (text) => startedJobs(text).length > jobsBefore, "the graph's job");
		const job = startedJobs(host.scrollback("pi"))[jobsBefore];
		const runId = /run_id ([0-9a-f-]{36})/.exec(host.scrollback("pi"))?.[1];

		host.submit("pi", "/subagents");
		const list = await host.waitForScreen(
			"pi",
			(text) => text.includes("Sub-agents of this session"),
			"the fleet view",
		);
		// The newest call first: the graph job's running node is selected.
		expect(list).toMatch(new RegExp(`› .*pi "slow" .*background ${job}`));
		host.keys("pi", "x");
		await host.waitForScreen(
			"pi",
			(text) => text.includes(`skip node "slow" of graph run ${runId}`),
			"the confirmation naming the node",
		);
		host.keys("pi", "y");
		await host.waitForScreen("pi", (text) => text.includes("skip accepted"), "the control's answer");
		await host.waitForScreen("pi", (text) => /⊘ pi "slow" .*aborted/.test(text), "the node's child killed");
		host.keys("pi", "Escape");
		// The job's report reaches the parent as a follow-up turn.
		const isReport = (text: string) => text.startsWith(`Background job ${job}`);
		await server.waitFor((requests) => requests.some((r) => isReport(r.lastUserText)), 45_000);
		const report = server.requests.find((r) => isReport(r.lastUserText))?.lastUserText ?? "";
		expect(report).toContain("- slow: skipped (request)");
		expect(report).toContain("- after: skipped (dependency slow skipped)");
		expect(server.requests.some((r) => r.lastUserText === "fleet graph after")).toBe(false);
	});
});
