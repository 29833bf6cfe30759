/**
 * `npm run demo`: the whole package offline, no API keys. Starts the scripted fake model server, runs
 * the real `pi` with this extension loaded (`pi -e <this package>`), and lets the scripted parent model
 * call `subagent` three times — single, parallel and chain — and then `agent_graph` twice (the saved
 * graphs examples/graphs/explore-and-plan.yaml: two nodes wired by structured results, and
 * review-and-verify.yaml: a fan-out, a saved graph inside it, a feedback loop and a command gate), while
 * real pi children answer. Prints the transcript. Everything lives in a temporary directory that is removed at the end; nothing under ~ is
 * read or written, and this package's variables in the caller's environment (`PI_AGENTSHELL_*`,
 * `PI_NATIVE_SUBAGENTS_*`) are dropped first.
 *
 * Exit code 0 when the parent finished and every child answered; 1 otherwise.
 */
import { copyFileSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type RecordedRequest, type StepData, startFakeModelServer } from "../test/support/fake-model/index.ts";
import { runPiCli } from "../test/support/pi-cli.ts";
import { createPiHome } from "../test/support/pi-home.ts";

const PACKAGE_DIR = resolve(import.meta.dirname, "..");

const PARENT_CALLS: Array<{ name: string; arguments: Record<string, unknown> }> = [
	{ agent: "scout", task: "List the files of this project and say what it is." },
	{
		tasks: [
			{ agent: "scout", task: "Which file documents the project?", task_name: "docs" },
			{ agent: "reviewer", task: "Review notes.md for clarity.", task_name: "review notes" },
		],
	},
	{
		chain: [
			{ agent: "scout", task: "Find the entry point of the project." },
			{ agent: "planner", task: "Plan how to add a --verbose flag, given these findings: {previous}" },
		],
	},
].map((args) => ({ name: "subagent", arguments: args as Record<string, unknown> }));
PARENT_CALLS.push(
	{ name: "agent_graph", arguments: { name: "explore-and-plan", inputs: { goal: "add a --verbose flag" } } },
	{ name: "agent_graph", arguments: { name: "review-and-verify", inputs: { goal: "add a --verbose flag" } } },
);

/** The parent (it alone is offered the `subagent` tool): one call per turn, then a summary. */
function parentStep(request: RecordedRequest): StepData {
	const done = request.roles.filter((role) => role === "tool").length;
	const call = PARENT_CALLS[done];
	if (call) return { toolCalls: [call] };
	return { text: "All five delegations finished: the single scout run, the parallel pair, the chain and both graphs." };
}

/** Children: which agent is answering shows in its system prompt (the agent file's body). */
function childStep(request: RecordedRequest): StepData {
	const agent = /You are (scout|planner|reviewer|worker)\b/.exec(request.systemPrompt)?.[1] ?? "child";
	const task = request.lastUserText;
	// A graph node with an output_schema submits its structured result with the submit_result tool.
	const structured = request.toolNames.includes("submit_result");
	if (agent === "scout") {
		if (request.lastToolOutput === undefined) return { toolCalls: [{ name: "bash", arguments: { command: "ls -1" } }] };
		const list = request.lastToolOutput.trim().split("\n");
		if (structured) return submit({ entry: "main.py", files: list });
		const files = list.join(", ");
		if (task.includes("entry point")) return { text: "The entry point is main.py (it defines main())." };
		if (task.includes("documents")) return { text: "README.md documents the project." };
		return { text: `This is a small Python project. Files: ${files}.` };
	}
	if (agent === "reviewer" && structured) return reviewerResult(task);
	if (agent === "reviewer") return { text: "notes.md is clear; one nit: the second sentence repeats the first." };
	if (agent === "planner" && structured && task.startsWith("Summarize")) {
		// The feedback loop's worker: its second round takes the reviewer's feedback in.
		const feedback = /feedback so far: \[(.*)\]$/.exec(task)?.[1] ?? "";
		return submit({ summary: feedback ? `Every file reviewed; ${feedback}.` : "Every file reviewed." });
	}
	if (agent === "planner" && structured) {
		return submit({ steps: ["Add argparse to main.py", "Add --verbose", "Test it"] });
	}
	if (agent === "planner") {
		const findings = task.slice(task.indexOf("findings:") + 9).trim();
		return { text: `Plan (from "${findings}"):\n1. Add argparse to main.py.\n2. Add --verbose.\n3. Test it.` };
	}
	return { text: `${agent} did: ${task}` };
}

/** The reviewer's structured results: one fan-out item's note, or the feedback loop's verdict. */
function reviewerResult(task: string): StepData {
	const file = /^Review (\S+)/.exec(task)?.[1];
	if (file) return submit({ file, note: `${file} looks fine` });
	if (task.includes("main.py is the entry point")) return submit({ decision: "pass", feedback: "" });
	return submit({ decision: "revise", feedback: "main.py is the entry point" });
}

function submit(value: Record<string, unknown>): StepData {
	return { toolCalls: [{ name: "submit_result", arguments: value }] };
}

/**
 * This package's own variables the caller may have (a sub-agent's depth, a roster override, a pi or harness
 * command override): the demo runs its own pi on its own home, so none of them reaches it.
 */
function dropPackageVariables(env: NodeJS.ProcessEnv): void {
	for (const name of Object.keys(env)) {
		if (name.startsWith("PI_AGENTSHELL_") || name.startsWith("PI_NATIVE_SUBAGENTS_")) delete env[name];
	}
}

async function main(): Promise<number> {
	dropPackageVariables(process.env);
	const server = await startFakeModelServer({
		fallback: (request) => (request.toolNames.includes("subagent") ? parentStep(request) : childStep(request)),
	});
	const home = createPiHome(server);
	try {
		for (const dir of ["agents", "graphs"]) {
			const from = dir === "graphs" ? join(PACKAGE_DIR, "examples", "graphs") : join(PACKAGE_DIR, dir);
			mkdirSync(join(home.agentDir, dir), { recursive: true });
			for (const file of readdirSync(from)) copyFileSync(join(from, file), join(home.agentDir, dir, file));
		}
		const project = join(realpathSync(home.dir), "project");
		mkdirSync(project);
		writeFileSync(join(project, "README.md"), "# tiny\nA tiny demo project.\n");
		writeFileSync(join(project, "main.py"), "def main():\n    print('hi')\n");
		writeFileSync(join(project, "notes.md"), "Notes. These are notes.\n");

		console.log(
			"pi-native-subagents demo: a real pi parent delegates to real pi children (model: scripted, offline)\n",
		);
		const prompt = "Explore this project with your sub-agents.";
		console.log(`user> ${prompt}\n`);
		const events = await runPi(["-e", PACKAGE_DIR, "--mode", "json", "--no-session", prompt], project, {
			...process.env,
			...home.env,
		});
		let answered = 0;
		let failed = 0;
		let graphsCompleted = 0;
		for (const event of events) {
			if (event.type === "message_end" && event.message?.role === "assistant") {
				for (const part of event.message.content ?? []) {
					if (part.type === "text" && part.text) console.log(`parent> ${part.text}\n`);
					if (part.type === "toolCall") console.log(`parent calls ${part.name} ${JSON.stringify(part.arguments)}\n`);
				}
			}
			if (event.type === "tool_execution_end" && event.toolName === "agent_graph") {
				console.log(indent((event.result?.content ?? []).map((c: { text?: string }) => c.text ?? "").join(""), "  │ "));
				console.log("");
				if (!event.isError) graphsCompleted++;
			}
			if (event.type === "tool_execution_end" && event.toolName === "subagent") {
				const text = (event.result?.content ?? []).map((c: { text?: string }) => c.text ?? "").join("");
				console.log(indent(text, "  │ "));
				for (const child of event.result?.details?.children ?? []) {
					for (const tool of child.result?.tools ?? []) {
						console.log(`  (${child.agent} child ran ${tool.toolName}: ${JSON.stringify(tool.args)})`);
					}
					if (child.phase === "completed") answered++;
					else failed++;
				}
				console.log("");
			}
		}
		const children = server.requests.filter((r) => !r.toolNames.includes("subagent")).length;
		console.log(
			`children answered: ${answered}, failed: ${failed}; graphs completed: ${graphsCompleted}/2; model requests: ${server.requests.length} (${children} from children)`,
		);
		return answered === 5 && failed === 0 && graphsCompleted === 2 ? 0 : 1;
	} finally {
		await home.cleanup();
		await server.close();
	}
}

// biome-ignore lint/suspicious/noExplicitAny: Pi's JSON events, printed loosely.
type PiEvent = Record<string, any>;

/** The JSON events of one pi run; throws with its stderr when it does not exit 0. */
async function runPi(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<PiEvent[]> {
	const { code, stdout, stderr } = await runPiCli(args, { cwd, env });
	if (code !== 0) throw new Error(`pi exited with ${code}\n${stderr}`);
	return stdout
		.split("\n")
		.filter((line) => line.startsWith("{"))
		.map((line) => JSON.parse(line) as PiEvent);
}

function indent(text: string, prefix: string): string {
	return text
		.split("\n")
		.map((line) => prefix + line)
		.join("\n");
}

main().then(
	(code) => process.exit(code),
	(error: Error) => {
		console.error(`demo failed: ${error.message}`);
		process.exit(1);
	},
);
