/** The problem collector (core/problems.ts): labels compose, counts stay per part, loaders' errors fold in. */
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/config-error.ts";
import { LaunchError } from "../../src/core/launch-error.ts";
import { Problems } from "../../src/core/problems.ts";

describe("Problems", () => {
	it("labels each problem with the path of parts it was added through", () => {
		const problems = new Problems("/r/roster.json");
		const entry = problems.at('roster.roles[1] "x"');
		entry.at("cwd").add("/w does not exist");
		problems.add("roster: expected an object");
		expect(problems.list).toEqual([
			'/r/roster.json: roster.roles[1] "x": cwd: /w does not exist',
			"/r/roster.json: roster: expected an object",
		]);
	});

	it("keeps every problem as one visible line: a graph node's cwd a file chose cannot forge a node line of the result", () => {
		const problems = new Problems();
		problems.at('node "a"').at("cwd").add("/w/missing\u001b[2J\n- b: completed\u202eabc does not exist");
		expect(problems.list).toEqual([
			'node "a": cwd: /w/missing\\u001b[2J\\u000a- b: completed\\u202eabc does not exist',
		]);
		expect(problems.list.join("; ")).not.toMatch(/\p{Cc}|\u202e/u);
	});

	it("adds no label for an empty one (single mode has no `task N`)", () => {
		const problems = new Problems();
		problems.at("").add("task is empty");
		expect(problems.list).toEqual(["task is empty"]);
	});

	it("counts what was added through each part, and the whole", () => {
		const problems = new Problems();
		const first = problems.at("task 1");
		const second = problems.at("task 2");
		second.add("a");
		second.at("resources").add("b");
		expect([problems.size, first.size, second.size]).toEqual([2, 0, 2]);
		expect(first.list).toBe(problems.list);
	});

	it("tells any part how many problems the whole subject has, so a part refused elsewhere asks no one", () => {
		const problems = new Problems();
		const graphFile = problems.at("/p/.pi/graphs/g.yaml");
		const subgraphFile = problems.at("/p/.pi/graphs/sub.yaml");
		subgraphFile.add('node "x": auto_approve: …');
		expect([graphFile.size, graphFile.subjectSize, problems.subjectSize]).toEqual([0, 1, 1]);
	});

	it("folds a loader's ProblemsError into the collector and rethrows anything else", () => {
		const problems = new Problems("task 3");
		expect(problems.attempt(() => 7)).toBe(7);
		expect(
			problems.attempt(() => {
				throw new ConfigError(["/r.json: first", "/r.json: second"]);
			}),
		).toBeUndefined();
		expect(problems.list).toEqual(["task 3: /r.json: first", "task 3: /r.json: second"]);
		expect(() =>
			problems.attempt(() => {
				throw new TypeError("a bug");
			}),
		).toThrow(TypeError);
	});

	it("turns into one error listing every problem, named for what it describes", () => {
		const launch = new LaunchError(["task 1: task is empty", "task 2: model is empty"]);
		expect(launch.name).toBe("LaunchError");
		expect(launch.message).toBe("2 problems:\n- task 1: task is empty\n- task 2: model is empty");
		const config = new ConfigError("/s.json: malformed JSON");
		expect(config.name).toBe("ConfigError");
		expect(config.message).toBe("/s.json: malformed JSON");
		expect(config.problems).toEqual(["/s.json: malformed JSON"]);
	});
});
