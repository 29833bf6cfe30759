import { describe, expect, it } from "vitest";
import { readApproveFlag, type TrustInputs, trustPolicy } from "../../src/launch/trust.ts";

const inputs = (overrides: Partial<TrustInputs>): TrustInputs => ({
	parentCwd: "/repo",
	parentTrusted: true,
	parentHadDecision: false,
	approveFlag: undefined,
	store: { get: () => null },
	...overrides,
});

describe("explicit trust per directory", () => {
	it("does not count Pi's implicit trust of a cwd it had nothing to decide about", () => {
		expect(trustPolicy(inputs({}))("/repo")).toBe(false);
	});

	it("counts Pi's decision for the parent's cwd when Pi had one to make, for that cwd only", () => {
		const trust = trustPolicy(inputs({ parentHadDecision: true }));
		expect(trust("/repo")).toBe(true);
		expect(trust("/repo/sub")).toBe(false);
		expect(trustPolicy(inputs({ parentHadDecision: true, parentTrusted: false }))("/repo")).toBe(false);
	});

	it("applies the parent's --approve / --no-approve to its own cwd only", () => {
		expect(trustPolicy(inputs({ approveFlag: true }))("/repo")).toBe(true);
		expect(trustPolicy(inputs({ approveFlag: true }))("/elsewhere")).toBe(false);
		const refused = trustPolicy(inputs({ approveFlag: false, store: { get: () => true } }));
		expect(refused("/repo")).toBe(false);
		expect(refused("/elsewhere")).toBe(true);
	});

	it("takes Pi's trust store for any directory, and treats an unreadable store as no entry", () => {
		const store = { get: (dir: string) => (dir === "/other" ? true : dir === "/denied" ? false : null) };
		const trust = trustPolicy(inputs({ store }));
		expect([trust("/other"), trust("/denied"), trust("/none")]).toEqual([true, false, false]);
		const broken = trustPolicy(
			inputs({
				store: {
					get: () => {
						throw new Error("Invalid trust store");
					},
				},
			}),
		);
		expect(broken("/other")).toBe(false);
	});

	it("reads the last of -a/--approve and -na/--no-approve from argv", () => {
		expect(readApproveFlag(["node", "pi", "-p", "x"])).toBeUndefined();
		expect(readApproveFlag(["node", "pi", "--approve"])).toBe(true);
		expect(readApproveFlag(["node", "pi", "-a", "-na"])).toBe(false);
	});
});
