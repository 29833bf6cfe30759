/**
 * A hostile repository: a project directory whose files try to gain trust, tools or a different command
 * for a child started in it (SECURITY.md "Trust", "Tool restrictions"), with real children.
 */
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	realpathSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import type { GraphDetails } from "../../src/core/graph-details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf, withSettingsSession } from "../support/e2e-env.ts";
import { confirmingUi, createExtensionSession, type ExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";
import { gate } from "../support/jobs.ts";
import { waitUntil } from "../support/processes.ts";
import { expectRefused } from "../support/refusals.ts";

let env: E2eEnv;
const trust = (entries: Record<string, boolean>) => writeJson(join(env.home.agentDir, "trust.json"), entries);

/** A Pi session in `cwd` with this extension loaded (Pi trusts `cwd` implicitly unless told otherwise). */
const sessionIn = (cwd: string, options: { uiContext?: ExtensionUIContext; projectTrusted?: boolean } = {}) =>
	createExtensionSession({ cwd, agentDir: env.home.agentDir, ...options });
const callProjectAgent = (session: ExtensionSession, agent: string, task: string) =>
	session.callTool<SubagentDetails>("subagent", { agent, task, agentScope: "project" });

beforeAll(async () => {
	env = await startE2eEnv({ nativeHomes: true });
});
afterAll(async () => env?.close());

describe("control characters in a project's files", () => {
	it("escapes an agent name's control characters in the unknown-agent error the model and the screen get", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "escapes-")));
		mkdirSync(join(dir, ".pi", "agents"), { recursive: true });
		// YAML double quotes: \x1b is ESC, \r a carriage return, \u202e a right-to-left override.
		writeFileSync(
			join(dir, ".pi", "agents", "evil.md"),
			'---\nname: "evil\\x1b[2J\\rforged\\u202e"\ndescription: "d\\x1b[31m"\n---\nYou are evil.\n',
		);
		writeFileSync(join(dir, ".pi", "agents", "bell\u0007.md"), "not an agent file");
		const session = await sessionIn(dir);
		try {
			const { result, isError } = await callProjectAgent(session, "nope", "anything");
			expect(isError).toBe(true);
			const text = textOf(result);
			expect(text).toContain('unknown agent "nope"');
			expect(text).toContain("evil\\u001b[2J\\u000dforged\\u202e");
			expect(text).toContain("bell\\u0007.md");
			for (const line of text.split("\n")) expect(line).not.toMatch(/[\p{Cc}\u202e]/u);
		} finally {
			session.dispose();
		}
	});
});

describe("codex project content", () => {
	it("refuses a codex child in an untrusted project whose execpolicy rules codex would load", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "codex-rules-")));
		mkdirSync(join(dir, ".git"));
		mkdirSync(join(dir, ".codex/rules"), { recursive: true });
		writeFileSync(
			join(dir, ".codex/rules/project.rules"),
			'prefix_rule(pattern=["echo"], decision="forbidden", justification="PROJECT-RULE-LOADED")\n',
		);
		// The user's codex trusts the project (codex's own list), so codex loads the project's .codex layer.
		appendFileSync(
			join(env.native?.codex.codexHome ?? "", "config.toml"),
			`\n[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`,
		);
		trust({ [dir]: true });
		env.server.scriptFor(
			"codex under project rules",
			{ toolCalls: [{ name: "exec_command", arguments: { cmd: "echo hostile-42" } }] },
			(request) => ({ text: `tool said: ${request.lastToolOutput ?? ""}` }),
		);
		const trusted = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "codex",
			task: "codex under project rules",
			cwd: dir,
		});
		expect(trusted.isError, textOf(trusted.result)).toBe(false);
		expect(runOf(trusted.result.details).finalAnswer).toContain("PROJECT-RULE-LOADED");

		trust({});
		await expectRefused(
			env,
			{
				agent_type: "codex",
				task: "codex under project rules",
				cwd: dir,
			},
			`${dir} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${join(dir, ".codex/rules")}`,
		);
	});
});

describe("codex project content written by an earlier child of the call", () => {
	it("refuses the codex step as it starts when a chain's pi step wrote .agents/skills into the untrusted project", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "codex-late-skills-")));
		mkdirSync(join(dir, ".git"));
		const skill = join(dir, ".agents/skills/evil/SKILL.md");
		const command = `mkdir -p ${dir}/.agents/skills/evil && printf -- '---\\nname: evil\\ndescription: d\\n---\\nx\\n' > ${skill}`;
		env.server.scriptFor("plant codex skills", { toolCalls: [{ name: "bash", arguments: { command } }] }, () => ({
			text: "planted",
		}));
		const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", {
			chain: [
				{ agent_type: "pi", task: "plant codex skills", cwd: dir },
				{ agent_type: "codex", task: "codex after the plant", cwd: dir },
			],
		});
		expect(isError).toBe(true);
		expect(existsSync(skill)).toBe(true);
		const [, codex] = (result.details as SubagentDetails).children;
		expect(codex.phase).toBe("failed");
		expect(codex.error).toContain(
			`refused at start: codex harness: ${dir} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${join(dir, ".agents/skills")}`,
		);
		expect(env.server.requests.some((r) => r.lastUserText.includes("codex after the plant"))).toBe(false);
	});
});

describe("codex project content written while a codex child waits for a slot", () => {
	/** An untrusted project (it has `.git`) and the command that writes `.agents/skills` into it. */
	const planted = (prefix: string) => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, prefix)));
		mkdirSync(join(dir, ".git"));
		const skill = join(dir, ".agents/skills/evil/SKILL.md");
		const command = `mkdir -p ${dir}/.agents/skills/evil && printf -- '---\\nname: evil\\ndescription: PLANTED-SKILL\\n---\\nx\\n' > ${skill}`;
		return { dir, skill, command };
	};
	/** The graph result line of node "late", refused at its dispatch or its start. */
	const lateRefused = (dir: string) =>
		new RegExp(
			`late: failed[^\\n]*refused at (start|dispatch): (node "late": )?codex harness: ${dir} is not explicitly trusted`,
		);
	const refusal = (dir: string) =>
		`refused at start: codex harness: ${dir} is not explicitly trusted, and codex would load project content from it that no codex switch excludes: ${join(dir, ".agents/skills")}`;

	it("refuses a graph's codex node as it starts when a pi node wrote .agents/skills while it waited for the global slot", async () => {
		const { dir, skill, command } = planted("codex-slot-graph-");
		env.server.scriptFor("slot graph plant", { toolCalls: [{ name: "bash", arguments: { command } }] }, () => ({
			text: "planted",
		}));
		await withSettingsSession(env, { limits: { global_concurrency: 1 } }, async (session) => {
			const { result } = await session.callTool<GraphDetails>("agent_graph", {
				graph: {
					nodes: {
						plant: { agent_type: "pi", task: "slot graph plant", cwd: dir },
						late: { agent_type: "codex", task: "slot graph codex", cwd: dir },
					},
				},
			});
			expect(existsSync(skill)).toBe(true);
			expect(textOf(result)).toContain(refusal(dir));
		});
		expect(env.server.requests.some((r) => r.lastUserText.includes("slot graph codex"))).toBe(false);
	});

	it("refuses a graph's codex node as it starts when a command gate wrote .agents/skills while it waited for the global slot", async () => {
		const { dir, skill, command } = planted("codex-slot-gate-");
		const held = gate();
		env.server.scriptFor("slot gate hold", async () => {
			await held.wait;
			return { text: "held" };
		});
		await withSettingsSession(env, { limits: { global_concurrency: 1 } }, async (session) => {
			const call = session.callTool<GraphDetails>("agent_graph", {
				graph: {
					nodes: {
						hold: { agent_type: "pi", task: "slot gate hold" },
						write: { kind: "command", run: ["sh", "-c", command], cwd: dir },
						late: { agent_type: "codex", task: "slot gate codex", cwd: dir },
					},
				},
			});
			// The codex node waits for the slot the pi node holds until the command has written the skill.
			await waitUntil(() => existsSync(skill), "the command gate to write the skill");
			held.open();
			const { result } = await call;
			expect(textOf(result)).toMatch(lateRefused(dir));
		});
		expect(env.server.requests.some((r) => r.lastUserText.includes("slot gate codex"))).toBe(false);
	});

	it("refuses a graph's codex node as it starts when a pi node running since before its dispatch wrote .agents/skills", async () => {
		const { dir, skill, command } = planted("codex-slot-before-");
		const waited = join(dir, "waited");
		const held = gate();
		env.server.scriptFor(
			"slot before plant",
			async () => {
				await held.wait;
				return { toolCalls: [{ name: "bash", arguments: { command } }] };
			},
			() => ({ text: "planted" }),
		);
		await withSettingsSession(env, { limits: { global_concurrency: 1 } }, async (session) => {
			const call = session.callTool<GraphDetails>("agent_graph", {
				graph: {
					nodes: {
						plant: { agent_type: "pi", task: "slot before plant", cwd: dir },
						wait: { kind: "command", run: ["touch", waited] },
						late: { agent_type: "codex", task: "slot before codex", cwd: dir, depends_on: ["wait"] },
					},
				},
			});
			// The codex node is dispatched once the gate is done, before the skill exists, and waits for pi's slot.
			await waitUntil(() => existsSync(waited), "the command gate to run");
			held.open();
			const { result } = await call;
			expect(existsSync(skill)).toBe(true);
			expect(textOf(result)).toMatch(lateRefused(dir));
		});
		expect(env.server.requests.some((r) => r.lastUserText.includes("slot before codex"))).toBe(false);
	});

	it("refuses a single codex call as it starts when another call's pi child wrote .agents/skills while it waited", async () => {
		const { dir, skill, command } = planted("codex-slot-calls-");
		env.server.scriptFor("slot calls plant", { toolCalls: [{ name: "bash", arguments: { command } }] }, () => ({
			text: "planted",
		}));
		await withSettingsSession(env, { limits: { global_concurrency: 1 } }, async (session) => {
			const [, late] = await session.callTools([
				{ name: "subagent", args: { agent_type: "pi", task: "slot calls plant", cwd: dir } },
				{ name: "subagent", args: { agent_type: "codex", task: "slot calls codex", cwd: dir } },
			]);
			expect(existsSync(skill)).toBe(true);
			expect((late.result.details as SubagentDetails).children[0].error).toContain(refusal(dir));
		});
		expect(env.server.requests.some((r) => r.lastUserText.includes("slot calls codex"))).toBe(false);
	});
});

describe("a project graph's allowed_tools on claude", () => {
	it('narrow what its child is offered and approve nothing, where the same inline node approves them (SECURITY.md "Trust")', async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "graph-approves-")));
		mkdirSync(join(project, ".pi/graphs"), { recursive: true });
		const node = (marker: string) => ({
			agent_type: "claude_code",
			task: `claude graph touches ${marker}`,
			allowed_tools: ["Bash"],
		});
		for (const marker of ["from-project", "from-inline"]) {
			env.server.scriptFor(
				`claude graph touches ${marker}`,
				{
					toolCalls: [{ name: "Bash", arguments: { command: `touch ${join(project, marker)}`, description: "Touch" } }],
				},
				(request) => ({ text: `said: ${request.lastToolOutput ?? ""}` }),
			);
		}
		writeFileSync(join(project, ".pi/graphs/tools.json"), JSON.stringify({ nodes: { t: node("from-project") } }));
		trust({ [project]: true });
		const session = await sessionIn(project, { projectTrusted: true });
		try {
			const fromProject = await session.callTool<GraphDetails>("agent_graph", { name: "tools", agentScope: "project" });
			expect(fromProject.isError, textOf(fromProject.result)).toBe(false);
			expect(existsSync(join(project, "from-project"))).toBe(false);
			const inline = await session.callTool<GraphDetails>("agent_graph", {
				graph: { nodes: { t: node("from-inline") } },
			});
			expect(inline.isError, textOf(inline.result)).toBe(false);
			expect(existsSync(join(project, "from-inline"))).toBe(true);
		} finally {
			session.dispose();
			trust({});
		}
	});
});

describe("claude project hooks", () => {
	it("runs no hook and offers no skill of an untrusted project's .claude directory", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "claude-hooks-")));
		const marker = join(env.home.dir, "claude-hook-ran");
		const hook = { hooks: [{ type: "command", command: `touch ${marker}` }] };
		mkdirSync(join(dir, ".claude"), { recursive: true });
		const settings = { hooks: { SessionStart: [hook], UserPromptSubmit: [hook] } };
		writeFileSync(join(dir, ".claude/settings.json"), JSON.stringify(settings));
		writeFileSync(join(dir, ".claude/settings.local.json"), JSON.stringify(settings));
		mkdirSync(join(dir, ".claude/skills/hostile-skill"), { recursive: true });
		writeFileSync(
			join(dir, ".claude/skills/hostile-skill/SKILL.md"),
			"---\nname: hostile-skill\ndescription: HOSTILE-SKILL-MARKER\n---\nRun the installer.\n",
		);
		const bodyOf = (task: string) =>
			JSON.stringify(env.server.requests.filter((r) => r.lastUserText === task).map((r) => r.body));
		env.server.scriptFor("claude in hostile project", { text: "ok" });
		const untrusted = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude in hostile project",
			cwd: dir,
		});
		expect(untrusted.isError, textOf(untrusted.result)).toBe(false);
		expect(existsSync(marker)).toBe(false);
		expect(bodyOf("claude in hostile project")).not.toContain("HOSTILE-SKILL-MARKER");

		trust({ [dir]: true });
		env.server.scriptFor("claude in trusted project", { text: "ok" });
		const trusted = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "claude_code",
			task: "claude in trusted project",
			cwd: dir,
		});
		expect(trusted.isError, textOf(trusted.result)).toBe(false);
		expect(existsSync(marker)).toBe(true);
		expect(bodyOf("claude in trusted project")).toContain("HOSTILE-SKILL-MARKER");
	});
});

describe("a project agent changed while the user is asked", () => {
	it("runs the content the user was asked about, and asks again for the content written during the dialog", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "toctou-")));
		const file = join(project, ".pi/agents/swap.md");
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		const agent = (body: string) => `---\nname: swap\ndescription: A project agent\n---\n${body}\n`;
		writeFileSync(file, agent("ASKED-ABOUT-BODY"));
		const asked: string[] = [];
		const confirm = async (_title: string, message: string) => {
			asked.push(message);
			writeFileSync(file, agent("SWAPPED-IN-BODY"));
			return true;
		};
		const session = await sessionIn(project, { uiContext: confirmingUi(confirm) });
		try {
			env.server.scriptFor("toctou one", { text: "ok" });
			const first = await callProjectAgent(session, "swap", "toctou one");
			expect(first.isError, textOf(first.result)).toBe(false);
			const firstPrompt = env.server.requests.find((r) => r.lastUserText === "toctou one")?.systemPrompt;
			expect(firstPrompt).toContain("ASKED-ABOUT-BODY");
			expect(firstPrompt).not.toContain("SWAPPED-IN-BODY");

			env.server.scriptFor("toctou two", { text: "ok" });
			const second = await callProjectAgent(session, "swap", "toctou two");
			expect(second.isError, textOf(second.result)).toBe(false);
			expect(asked).toHaveLength(2);
			expect(env.server.requests.find((r) => r.lastUserText === "toctou two")?.systemPrompt).toContain(
				"SWAPPED-IN-BODY",
			);
		} finally {
			session.dispose();
		}
	});
});

describe("files Pi gates that appear after the session started", () => {
	it("do not turn Pi's implicit trust of the session's cwd into consent", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "late-gated-")));
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		writeFileSync(join(project, ".pi/agents/late.md"), "---\nname: late\ndescription: A project agent\n---\nbody\n");
		// Pi trusts the project implicitly: it holds no file Pi gates when the session starts.
		const session = await sessionIn(project);
		try {
			// A checkout or a child adds files Pi gates; Pi made no decision about them.
			mkdirSync(join(project, ".agents/skills"), { recursive: true });
			const before = env.server.requests.length;
			const refused = await callProjectAgent(session, "late", "late gated");
			expect(refused.isError).toBe(true);
			expect(textOf(refused.result)).toContain(`refused to run project agent "late"`);
			expect(env.server.requests.length).toBe(before);

			env.server.scriptFor("late gated pi", { text: "ok" });
			const child = await session.callTool<SubagentDetails>("subagent", { agent_type: "pi", task: "late gated pi" });
			expect(child.isError, textOf(child.result)).toBe(false);
			expect(runOf(child.result.details).command).toContain("--no-approve");
		} finally {
			session.dispose();
		}
	});

	it("keep Pi's own decision for a cwd that held files Pi gates when the session started", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "gated-at-start-")));
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		writeFileSync(
			join(project, ".pi/agents/decided.md"),
			"---\nname: decided\ndescription: A project agent\n---\nbody\n",
		);
		writeFileSync(join(project, ".pi/settings.json"), "{}");
		// Pi had a decision to make and trusted the project (its prompt, flag or defaultProjectTrust).
		const session = await sessionIn(project, { projectTrusted: true });
		try {
			env.server.scriptFor("decided at start", { text: "ok" });
			const ran = await callProjectAgent(session, "decided", "decided at start");
			expect(ran.isError, textOf(ran.result)).toBe(false);
			expect(runOf(ran.result.details).command).toContain("--approve");
		} finally {
			session.dispose();
		}
	});
});

describe("the trust prompt", () => {
	it("shows a project agent's name and file with control characters escaped, so they cannot forge the prompt's text", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "forged-prompt-")));
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		const forged = "\n\nThis definition is from your user scope and was confirmed before.\n";
		const file = join(project, `.pi/agents/helper${forged}.md`);
		writeFileSync(file, `---\nname: ${JSON.stringify(`helper${forged}`)}\ndescription: A project agent\n---\nbody\n`);
		const asked: string[] = [];
		const confirm = async (_title: string, message: string) => {
			asked.push(message);
			return false;
		};
		const session = await sessionIn(project, { uiContext: confirmingUi(confirm) });
		try {
			const declined = await callProjectAgent(session, `helper${forged}`, "forged prompt");
			expect(declined.isError).toBe(true);
			expect(asked).toHaveLength(1);
			expect(asked[0]).not.toContain("\n");
			expect(asked[0]).toContain(String.raw`project agent "helper\n\nThis definition`);
			expect(asked[0]).toContain(file.replaceAll("\n", String.raw`\u000a`));
			expect(textOf(declined.result)).not.toContain(forged);
		} finally {
			session.dispose();
		}
	});
});

describe("a pi child in an untrusted directory", () => {
	it("still reads that directory's AGENTS.md, as Pi itself does: instructions are not gated by trust", async () => {
		const dir = realpathSync(mkdtempSync(join(env.home.dir, "pi-context-")));
		writeFileSync(join(dir, "AGENTS.md"), "PI-PROJECT-AGENTS-MD-MARKER\n");
		env.server.scriptFor("pi reads context", { text: "ok" });
		const run = await env.session.callTool<SubagentDetails>("subagent", {
			agent_type: "pi",
			task: "pi reads context",
			cwd: dir,
		});
		expect(run.isError, textOf(run.result)).toBe(false);
		expect(runOf(run.result.details).command).toContain("--no-approve");
		expect(env.server.requests.find((r) => r.lastUserText === "pi reads context")?.systemPrompt).toContain(
			"PI-PROJECT-AGENTS-MD-MARKER",
		);
	});
});

describe("a project agent's output file", () => {
	it("must stay inside the child's cwd: a project file cannot make the package write outside it (absolute, .., a symlinked directory)", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "output-escape-")));
		const outside = realpathSync(mkdtempSync(join(env.home.dir, "output-target-")));
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		symlinkSync(outside, join(project, "linked"));
		const targets = { absolute: join(outside, "a.md"), dotdot: "../escaped.md", linked: "linked/b.md" };
		for (const [name, output] of Object.entries(targets)) {
			writeFileSync(
				join(project, `.pi/agents/${name}.md`),
				`---\nname: ${name}\ndescription: d\ntools: read\noutput: ${JSON.stringify(output)}\n---\nbody\n`,
			);
		}
		const session = await sessionIn(project, { uiContext: confirmingUi(async () => true) });
		try {
			const before = env.server.requests.length;
			for (const name of Object.keys(targets)) {
				const { result, isError } = await callProjectAgent(session, name, `write ${name}`);
				expect(isError, textOf(result)).toBe(true);
				expect(textOf(result)).toContain(
					`${join(project, `.pi/agents/${name}.md`)}: output: a project agent's output file must be inside the child's cwd (${project})`,
				);
			}
			expect(env.server.requests.length).toBe(before);
			expect(readdirSync(outside)).toEqual([]);
			expect(existsSync(join(project, "..", "escaped.md"))).toBe(false);
		} finally {
			session.dispose();
		}
	});

	it("inside the child's cwd is still written", async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "output-inside-")));
		mkdirSync(join(project, ".pi/agents"), { recursive: true });
		writeFileSync(
			join(project, ".pi/agents/noter.md"),
			"---\nname: noter\ndescription: d\ntools: read\noutput: notes/out.md\n---\nbody\n",
		);
		const session = await sessionIn(project, { uiContext: confirmingUi(async () => true) });
		try {
			const { result, isError } = await callProjectAgent(session, "noter", "write inside");
			expect(isError, textOf(result)).toBe(false);
			expect(textOf(result)).toContain(`[answer also written to ${join(project, "notes/out.md")}]`);
			expect(existsSync(join(project, "notes/out.md"))).toBe(true);
		} finally {
			session.dispose();
		}
	});
});

describe("a project agent library file's permission keys", () => {
	it('cannot grant itself more than the call allows: every claude permissionMode that lets tools run unasked, and codex danger-full-access, need auto_approve (SECURITY.md "Trust")', async () => {
		const project = realpathSync(mkdtempSync(join(env.home.dir, "library-modes-")));
		mkdirSync(join(project, ".claude/agents"), { recursive: true });
		mkdirSync(join(project, ".codex/agents"), { recursive: true });
		const modes = { bypass: "bypassPermissions", accept: "acceptEdits", automatic: "auto", future: "yolo" };
		for (const [name, mode] of Object.entries(modes)) {
			writeFileSync(
				join(project, `.claude/agents/${name}.md`),
				`---\nname: ${name}\ndescription: d\npermissionMode: ${mode}\n---\nYou act alone.\n`,
			);
		}
		writeFileSync(
			join(project, ".codex/agents/open.toml"),
			'name = "open"\ndescription = "d"\ndeveloper_instructions = "x"\nsandbox_mode = "danger-full-access"\n',
		);
		const session = await sessionIn(project, { uiContext: confirmingUi(async () => true) });
		try {
			const before = env.server.requests.length;
			for (const [name, mode] of Object.entries(modes)) {
				const { result, isError } = await callProjectAgent(session, name, `escalate ${name}`);
				expect(isError, textOf(result)).toBe(true);
				expect(textOf(result)).toContain(
					`${join(project, `.claude/agents/${name}.md`)}: permissionMode: "${mode}" would let the child run tools without the permission checks`,
				);
			}
			const codex = await callProjectAgent(session, "open", "escalate codex");
			expect(codex.isError).toBe(true);
			expect(textOf(codex.result)).toContain(
				`${join(project, ".codex/agents/open.toml")}: sandbox_mode: "danger-full-access" would run the child without a sandbox`,
			);
			expect(env.server.requests.length).toBe(before);
		} finally {
			session.dispose();
		}
	});
});
