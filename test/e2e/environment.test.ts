/** biome-ignore-all lint/suspicious/noTemplateCurlyInString: a graph template is written with ${…} placeholders. */
/**
 * What a child inherits of the parent's environment (SECURITY.md "Environment"), seen from inside a real
 * pi child's bash tool.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, runOf, startE2eEnv, textOf } from "../support/e2e-env.ts";
import { createExtensionSession } from "../support/extension-session.ts";
import { writeJson } from "../support/files.ts";

const PROBE =
	'echo "secret=[$PROBE_SECRET_TOKEN] kept=[$PROBE_KEPT] control=[$PI_AGENTSHELL_ROSTER_FILE] depth=[$PI_AGENTSHELL_DEPTH]"';
let env: E2eEnv;

beforeAll(async () => {
	env = await startE2eEnv({});
	process.env.PROBE_SECRET_TOKEN = "s3cret";
	process.env.PROBE_KEPT = "kept-value";
	process.env.PI_AGENTSHELL_ROSTER_FILE = join(env.home.dir, "no-such-roster.json");
});
afterAll(async () => {
	delete process.env.PROBE_SECRET_TOKEN;
	delete process.env.PROBE_KEPT;
	delete process.env.PI_AGENTSHELL_ROSTER_FILE;
	await env?.close();
});

async function probe(settings: unknown, task: string, command = PROBE): Promise<string> {
	writeJson(join(env.home.agentDir, "extensions/agentshell.json"), settings);
	const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
	try {
		env.server.scriptFor(task, { toolCalls: [{ name: "bash", arguments: { command } }] }, (request) => ({
			text: request.lastToolOutput?.trim() ?? "",
		}));
		const { result, isError } = await session.callTool<SubagentDetails>("subagent", { agent_type: "pi", task });
		expect(isError, textOf(result)).toBe(false);
		return runOf(result.details).finalAnswer;
	} finally {
		session.dispose();
	}
}

describe("the environment of a child", () => {
	it("inherits every parent variable except this package's control variables, which it sets itself", async () => {
		expect(await probe({}, "env by default")).toBe("secret=[s3cret] kept=[kept-value] control=[] depth=[1]");
	});

	it("drops the variables the environment.exclude setting names", async () => {
		expect(await probe({ environment: { exclude: ["PROBE_SECRET_*"] } }, "env excluded")).toBe(
			"secret=[] kept=[kept-value] control=[] depth=[1]",
		);
	});

	it("passes the harnesses' homes whatever environment.include and exclude say: a pi child runs on the parent's agent dir", async () => {
		const homes =
			'echo "agent=[$PI_CODING_AGENT_DIR] codex=[$CODEX_HOME] claude=[$CLAUDE_CONFIG_DIR] secret=[$PROBE_SECRET_TOKEN]"';
		process.env.CODEX_HOME = join(env.home.dir, "codex-home");
		process.env.CLAUDE_CONFIG_DIR = join(env.home.dir, "claude-home");
		try {
			// The child answers at all only with the parent's agent dir: its models and credentials are there.
			const settings = { environment: { include: ["PATH", "HOME"], exclude: ["CODEX_HOME", "PI_*"] } };
			expect(await probe(settings, "env homes", homes)).toBe(
				`agent=[${process.env.PI_CODING_AGENT_DIR}] codex=[${process.env.CODEX_HOME}] claude=[${process.env.CLAUDE_CONFIG_DIR}] secret=[]`,
			);
		} finally {
			delete process.env.CODEX_HOME;
			delete process.env.CLAUDE_CONFIG_DIR;
		}
	});

	it("keeps the filter whole for a graph's command gate, which runs no harness, and sets its depth and roster as a child's", async () => {
		writeJson(join(env.home.agentDir, "extensions/agentshell.json"), {
			environment: { exclude: ["PI_CODING_AGENT_DIR", "CODEX_HOME"] },
		});
		process.env.CODEX_HOME = join(env.home.dir, "codex-home");
		const session = await createExtensionSession({ cwd: env.workDir, agentDir: env.home.agentDir });
		try {
			const { result, isError } = await session.callTool("agent_graph", {
				graph: {
					nodes: {
						show: {
							kind: "command",
							run: [
								"sh",
								"-c",
								'echo "agent=[$PI_CODING_AGENT_DIR] codex=[$CODEX_HOME] roster=[$PI_AGENTSHELL_ROSTER_FILE] depth=[$PI_AGENTSHELL_DEPTH]"',
							],
						},
					},
					outputs: { seen: "${nodes.show.output.stdout_tail}" },
				},
			});
			expect(isError, textOf(result)).toBe(false);
			// One level down as a child is, without the session's roster override: a pi it starts counts that depth.
			expect(textOf(result)).toContain('outputs: {"seen":"agent=[] codex=[] roster=[] depth=[1]\\n"}');
		} finally {
			session.dispose();
			delete process.env.CODEX_HOME;
		}
	});

	it("keeps only the variables the environment.include setting names", async () => {
		const include = ["PATH", "HOME", "PI_*", "NODE_*", "PROBE_KEPT"];
		expect(await probe({ environment: { include } }, "env included")).toBe(
			"secret=[] kept=[kept-value] control=[] depth=[1]",
		);
	});
});
