/** The delegation depth gate (config/depth.ts): read from the environment, checked before any spawn. */
import { describe, expect, it } from "vitest";
import { checkDepth, readDepthState } from "../../src/config/depth.ts";
import { ConfigError } from "../../src/core/config-error.ts";
import { DEPTH_ENV, MAX_DEPTH_ENV } from "../../src/runs/child-env.ts";
import { problemsFound } from "../support/problems.ts";

describe("readDepthState", () => {
	it("starts the root at depth 0 with the local max_sub_agent_depth", () => {
		expect(readDepthState({}, 2)).toEqual({ depth: 0, maxDepth: 2 });
		expect(readDepthState({ [DEPTH_ENV]: "" }, 2)).toEqual({ depth: 0, maxDepth: 2 });
	});

	it("keeps an inherited maximum over the local setting, so a child cannot raise it", () => {
		expect(readDepthState({ [DEPTH_ENV]: "1", [MAX_DEPTH_ENV]: "1" }, 5)).toEqual({ depth: 1, maxDepth: 1 });
		expect(readDepthState({ [DEPTH_ENV]: "1", [MAX_DEPTH_ENV]: "3" }, 0)).toEqual({ depth: 1, maxDepth: 3 });
	});

	it("refuses values that are not non-negative integers, naming the variable", () => {
		expect(() => readDepthState({ [DEPTH_ENV]: "-1" }, 1)).toThrow(ConfigError);
		expect(() => readDepthState({ [DEPTH_ENV]: "-1" }, 1)).toThrow(
			`${DEPTH_ENV} must be a non-negative integer, got "-1"`,
		);
		expect(() => readDepthState({ [MAX_DEPTH_ENV]: "2.5" }, 1)).toThrow(
			`${MAX_DEPTH_ENV} must be a non-negative integer`,
		);
	});
});

describe("checkDepth", () => {
	it("allows a child while its depth stays within the maximum", () => {
		expect(problemsFound((problems) => checkDepth({ depth: 0, maxDepth: 1 }, problems))).toEqual([]);
		expect(problemsFound((problems) => checkDepth({ depth: 2, maxDepth: 3 }, problems))).toEqual([]);
	});

	it("refuses a child past the maximum, naming both numbers", () => {
		expect(problemsFound((problems) => checkDepth({ depth: 1, maxDepth: 1 }, problems))).toEqual([
			expect.stringContaining(
				"this session is at depth 1 and max_sub_agent_depth is 1, so a child at depth 2 is refused",
			),
		]);
		expect(problemsFound((problems) => checkDepth({ depth: 0, maxDepth: 0 }, problems))).toEqual([
			expect.stringContaining("a child at depth 1 is refused"),
		]);
	});
});
