/** The check that a benchmark's baseline does the same work as its measured run (bench/work.ts). */
import { describe, expect, it } from "vitest";
import { assertSameWork, type WorkShape, workDifferences } from "../../bench/work.ts";

const launch: WorkShape = {
	argv: [
		"/usr/bin/node",
		"/pi/cli.js",
		"--mode",
		"rpc",
		"--no-approve",
		"--session-dir",
		"/tmp/pi-native-subagents-run-ab12/s",
	],
	env: { HOME: "/tmp/home", PI_CODING_AGENT_DIR: "/tmp/home/agent" },
	cwd: "/tmp/work",
	input: "the task",
	output: "echo: the task",
};

describe("a benchmark's work comparison", () => {
	it("finds no difference between two launches of the same command, environment, cwd, input and output", () => {
		expect(workDifferences({ measured: launch, baseline: { ...launch, argv: [...launch.argv] } })).toEqual([]);
	});

	it("names the argument that differs when the baseline runs another command (--approve vs --no-approve)", () => {
		const baseline = { ...launch, argv: launch.argv.map((arg) => (arg === "--no-approve" ? "--approve" : arg)) };
		expect(workDifferences({ measured: launch, baseline })).toEqual([
			'argv[4]: measured "--no-approve", baseline "--approve"',
		]);
		expect(() => assertSameWork("launcher overhead", [{ measured: launch, baseline }])).toThrow(
			/launcher overhead: the baseline does not do the same work as the measured run:\n {2}comparison 1: argv\[4\]/,
		);
	});

	it("names an extra argument, a changed or missing variable, another cwd, input or output", () => {
		const baseline: WorkShape = {
			argv: [...launch.argv, "--extra"],
			env: { HOME: "/tmp/other" },
			cwd: "/tmp/elsewhere",
			input: "another task",
			output: "echo: another task",
			options: { limits: "{}" },
		};
		expect(workDifferences({ measured: launch, baseline })).toEqual([
			"argv: measured has 7 parts, baseline 8",
			'argv[7]: measured (none), baseline "--extra"',
			'env HOME: measured "/tmp/home", baseline "/tmp/other"',
			'env PI_CODING_AGENT_DIR: measured "/tmp/home/agent", baseline (none)',
			'cwd: measured "/tmp/work", baseline "/tmp/elsewhere"',
			'input: measured "the task", baseline "another task"',
			'output: measured "echo: the task", baseline "echo: another task"',
			'options limits: measured (none), baseline "{}"',
		]);
	});

	it("accepts only the declared differences: rewritten texts and variables one side has by design", () => {
		const baseline: WorkShape = {
			...launch,
			argv: launch.argv.map((arg) => arg.replace("rpc", "json").replace("ab12", "cd34")),
			env: { ...launch.env, PI_NATIVE_SUBAGENTS_RUN: "token/1" },
		};
		const declared = {
			intended: [
				{ pattern: /^(rpc|json)$/, as: "<mode>" },
				{ pattern: /pi-native-subagents-run-[^/]+/, as: "<run dir>" },
			],
			envOnlyOneSide: ["PI_NATIVE_SUBAGENTS_RUN"],
		};
		expect(workDifferences({ measured: launch, baseline, ...declared })).toEqual([]);
		// Undeclared, the same pair differs in three places.
		expect(workDifferences({ measured: launch, baseline })).toHaveLength(3);
	});
});
