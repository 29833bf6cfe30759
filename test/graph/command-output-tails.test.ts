/**
 * A command gate's output is `{ exit_code, stdout_tail, stderr_tail }`, each tail the last 4 KiB of what the
 * command wrote, byte for byte (docs/graphs.md §Command gates): a last line without a newline, JSON as
 * written, a line longer than the tail, a flood with no newline at all, and a cut inside a character (the
 * tail starts at the next whole one). Real processes in the engine.
 */
import { describe, expect, it } from "vitest";
import { COMMAND_TAIL_BYTES } from "../../src/graph/command-gate.ts";
import { runGraph } from "../../src/graph/engine.ts";
import type { SpecRunner } from "../../src/graph/execution.ts";
import { compiledGraph } from "../support/graphs.ts";
import { SCRIPTED_LIMITS } from "../support/launch-spec.ts";

const noChildren: SpecRunner = async () => {
	throw new Error("no child runs in these graphs");
};

type Output = { exit_code: number; stdout_tail: string; stderr_tail: string };

/** The output of a command gate running `node -e script`. */
async function outputOf(script: string): Promise<Output> {
	const graph = compiledGraph({ f: { kind: "command", run: [process.execPath, "-e", script] } });
	const { state } = await runGraph(graph, {
		defaultConcurrency: 1,
		resolve: async () => undefined,
		run: noChildren,
		gates: {
			command: {
				context: () => ({ cwd: process.cwd(), env: { PATH: process.env.PATH ?? "" }, limits: SCRIPTED_LIMITS }),
			},
		},
	});
	expect(state.nodes.f.status, state.nodes.f.error).toBe("completed");
	return state.nodes.f.output as Output;
}

describe("a command gate's output tails", () => {
	it("keep the last bytes of stdout and stderr as written: an unterminated line, JSON with its spacing", async () => {
		const json = '{"a":   1, "b": [ 2 ]}\n';
		const output = await outputOf(
			`process.stdout.write(${JSON.stringify(`${json}hello`)}); process.stderr.write("warn\\r\\nlast")`,
		);
		expect(output).toEqual({ exit_code: 0, stdout_tail: `${json}hello`, stderr_tail: "warn\r\nlast" });
	});

	it("keep the last 4 KiB of a line longer than that, and of a flood of 50 MB without a newline", async () => {
		const long = await outputOf("process.stdout.write('a'.repeat(100000) + 'y'.repeat(5000) + '\\n')");
		expect(long.stdout_tail).toBe(`${"y".repeat(COMMAND_TAIL_BYTES - 1)}\n`);
		const flood = await outputOf("process.stdout.write('x'.repeat(50e6) + 'end')");
		expect(flood.stdout_tail).toBe(`${"x".repeat(COMMAND_TAIL_BYTES - 3)}end`);
	});

	it("start at the next whole character when the cut falls inside one", async () => {
		// 6001 bytes, two-byte characters then one: the cut, 4096 bytes from the end, falls in the middle of one.
		const output = await outputOf("process.stdout.write('é'.repeat(3000) + '.')");
		expect(output.stdout_tail).toBe(`${"é".repeat(COMMAND_TAIL_BYTES / 2 - 1)}.`);
	});
});
