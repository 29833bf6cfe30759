import { afterEach, describe, expect, it, vi } from "vitest";
import { jobLogger } from "../../src/tools/background.ts";

afterEach(() => vi.restoreAllMocks());

describe("the job registry's logger", () => {
	it("notifies through the UI while the session has one", () => {
		const notify = vi.fn();
		const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
		jobLogger(() => ({ hasUI: true, ui: { notify } as never })).error("job x failed");
		expect(notify).toHaveBeenCalledWith("job x failed", "error");
		expect(stderr).not.toHaveBeenCalled();
	});

	it("writes to stderr, and never throws, when the session's context is stale", () => {
		const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
		const stale = {
			get hasUI(): boolean {
				throw new Error("This extension ctx is stale after session replacement or reload.");
			},
			ui: {} as never,
		};
		expect(() => jobLogger(() => stale).error("could not deliver background job y")).not.toThrow();
		expect(stderr).toHaveBeenCalledWith("could not deliver background job y\n");
	});
});
