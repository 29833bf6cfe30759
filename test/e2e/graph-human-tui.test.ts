/**
 * Human gates in a real interactive Pi (tmux, fake model; docs/graphs.md §Human gates): the parent model
 * calls `agent_graph` with a human node, Pi's select dialog shows the question, and the user answers it
 * with the keyboard, or refuses it with Escape (the node fails `declined` and its dependents are skipped).
 */
/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: graph templates are written with ${…} placeholders. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PiTuiHost, startTuiPi, type TuiPi } from "../support/pi-tui.ts";

let host: PiTuiHost;
let tui: TuiPi | undefined;

beforeAll(async () => {
	tui = await startTuiPi();
	host = tui.host;
});

afterAll(async () => {
	await tui?.close();
});

const graphCall = (nodes: Record<string, unknown>) =>
	host.submit("pi", `TOOL:agent_graph:${JSON.stringify({ graph: { name: "gate", nodes } })}`);
/** The parent's answer to the graph's result (the rules fallback: `Tool said: <result>`). */
const answered = (result: string) => host.waitForScrollback("pi", result, `the parent's answer "${result}"`);

describe("human gates in Pi's TUI", () => {
	it("answers a human gate with the select dialog: the choice is the node's output", async () => {
		graphCall({
			ship: { kind: "human", question: "Ship release 7?", choices: ["hold", "ship"] },
			after: { kind: "command", depends_on: ["ship"], run: ["echo", "${nodes.ship.output}"] },
		});
		const dialog = await host.waitForScreen("pi", (text) => text.includes("Ship release 7?"), "the question");
		expect(dialog).toContain("agent_graph ship: Ship release 7?");
		expect(dialog).toContain("hold");
		host.keys("pi", "Down", "Enter");
		await answered('agent_graph "gate": 2/2 nodes completed');
		expect(host.scrollback("pi")).toContain("answered: ship");
	});

	it("refuses a human gate with Escape: the node fails (declined) and its dependents are skipped", async () => {
		graphCall({
			ask: { kind: "human", question: "Delete the cache?", choices: ["yes", "no"] },
			after: { kind: "command", depends_on: ["ask"], run: ["echo", "never"] },
		});
		await host.waitForScreen("pi", (text) => text.includes("Delete the cache?"), "the question");
		host.keys("pi", "Escape");
		await answered('agent_graph "gate": 0/2 nodes completed');
		const text = host.scrollback("pi");
		expect(text).toContain("- ask: failed (declined)");
		expect(text).toContain("- after: skipped (dependency ask failed)");
	});
});
