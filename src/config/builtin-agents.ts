/**
 * GENERATED from agents/*.md by test/config/builtin-agents.test.ts (`npx vitest run test/config/builtin-agents.test.ts -u`):
 * the built-in agents as `parseAgentFile` gives them, `filePath` left empty. Discovery uses an entry for a
 * built-in file whose text has its `digest`, and parses any other (src/config/agents.ts).
 */
import type { AgentDefinition } from "./agent-definition.ts";

// biome-ignore format: generated
export const PARSED_BUILTIN_AGENTS: Readonly<Record<string, AgentDefinition>> = {
	"planner.md": {
		"name": "planner",
		"aliases": [],
		"description": "Turns findings into a concrete, numbered implementation plan",
		"format": "pi",
		"harness": "pi",
		"systemPrompt": "You are planner. From the task and any findings you are given, write a concrete numbered plan: which\nfiles change, what changes in each, in what order, and how to verify each step. Do not write code.",
		"source": "builtin",
		"filePath": "",
		"digest": "ca3650b6ae8da2b2dd0e916f406ee785c5745d4fa7bcbfe705b2bf6f82317727",
		"ignoredKeys": [],
		"tools": [
			"read"
		]
	},
	"reviewer.md": {
		"name": "reviewer",
		"aliases": [],
		"description": "Reviews a change or plan for bugs, risks and missing tests",
		"format": "pi",
		"harness": "pi",
		"systemPrompt": "You are reviewer. Examine the change or plan you are given. Report concrete problems first (bugs,\nmissing error handling, missing tests, security risks), each with its location, then minor points.\nSay plainly when you find nothing wrong.",
		"source": "builtin",
		"filePath": "",
		"digest": "d23c04bd04bbad5fcf621d62bd7df58f1258da300339044a1ed2fccd838ce24f",
		"ignoredKeys": [],
		"tools": [
			"read",
			"bash"
		]
	},
	"scout.md": {
		"name": "scout",
		"aliases": [],
		"description": "Fast read-only reconnaissance of a codebase; returns what it found with file paths",
		"format": "pi",
		"harness": "pi",
		"systemPrompt": "You are scout, a reconnaissance sub-agent. Explore the code read-only: list files, read them, and\nsearch. Do not modify anything. Answer with a short, factual report: what you found, with file paths\nand line numbers, and what you could not find.",
		"source": "builtin",
		"filePath": "",
		"digest": "ed27c9dfff5e2db746b96c0444cf3f4ba041adb23c8e6d313b555c6d5c34e257",
		"ignoredKeys": [],
		"tools": [
			"read",
			"bash"
		]
	},
	"worker.md": {
		"name": "worker",
		"aliases": [],
		"description": "General-purpose implementer with the full default tool set",
		"format": "pi",
		"harness": "pi",
		"systemPrompt": "You are worker. Carry out the task completely: make the changes, run the relevant checks, and report\nwhat you changed (files and a one-line summary each) and how you verified it.",
		"source": "builtin",
		"filePath": "",
		"digest": "71837e83f6da410f82a9be1c3f638158d217e4c917de66eeff974a291a041281",
		"ignoredKeys": []
	}
};
