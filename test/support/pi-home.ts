/**
 * An isolated pi home for end-to-end runs of the real `pi` binary against the fake model server.
 *
 * Layout under a fresh temp dir `<dir>`:
 * - `<dir>/agent/` = `PI_CODING_AGENT_DIR`: `models.json` (provider `fake`, api `openai-completions`,
 *   `baseUrl` = the server's `/v1` URL, `apiKey` `fake-key`), `settings.json`, `agents/<name>.md`;
 * - `<dir>/home/` = `HOME` (so nothing reads or writes the real `~/.pi`, `~/.codex`, `~/.claude`);
 * - `<dir>/compile-cache/` = `NODE_COMPILE_CACHE`.
 *
 * Models (pi `models.json` schema, docs/models.md):
 * - `fake/fake-model`: `reasoning: false`; pi sends no `reasoning_effort` and reports `thinkingLevel: "off"`.
 * - `fake/fake-reasoner`: `reasoning: true`; `--thinking <level>` (or `:level` suffix) is sent as the
 *   top-level `reasoning_effort` field of the chat-completions body (default level `medium`).
 * Both have a small non-zero cost, {@link FAKE_MODEL_COST} (USD per million tokens), so tests can see
 * `usage.cost.total > 0` in pi's `message_end`.
 *
 * Settings: `defaultProvider: "fake"`, `defaultModel: "fake-model"`, `retry.enabled: false` (pi's default
 * is 3 retries with a 2 s exponential base), `compaction.enabled: false`; `options.settings` is merged on top
 * (shallow per top-level key, objects merged one level deep).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeJson } from "./files.ts";
import { createIsolatedHome, type IsolatedHome } from "./isolated-home.ts";

/** Cost of both fake models in USD per million tokens (pi's `models.json` `cost` unit). */
export const FAKE_MODEL_COST = { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 } as const;

/** Model ids `createPiHome` configures under provider `fake`. */
export const FAKE_MODELS = { plain: "fake-model", reasoner: "fake-reasoner" } as const;

/**
 * A Markdown agent definition written to `<agentDir>/agents/<name>.md`: a raw file text, or frontmatter
 * fields plus body. Field values that are arrays are written as comma-separated lists (pi's `tools` format).
 */
export type AgentDefinitionInput =
	| string
	| { description: string; body: string; tools?: string[]; model?: string; fields?: Record<string, string | string[]> };

/** Options of {@link createPiHome}. */
export interface PiHomeOptions {
	/** Agent definitions by name (`<agentDir>/agents/<name>.md`). */
	agents?: Record<string, AgentDefinitionInput>;
	/** Settings merged over the defaults into `<agentDir>/settings.json`. */
	settings?: Record<string, unknown>;
	/** Extra environment variables to put in `env` (override the defaults). */
	env?: Record<string, string>;
}

/**
 * An isolated pi home: `agentDir` (`PI_CODING_AGENT_DIR`), `homeDir` (`HOME`) and `compileCache`; `env`
 * holds `PI_CODING_AGENT_DIR`, `HOME`, `PI_OFFLINE=1`, `PI_SKIP_VERSION_CHECK=1`, `PI_TELEMETRY=0`,
 * `NODE_COMPILE_CACHE`, plus `options.env`.
 */
export type PiHome = IsolatedHome<"agentDir" | "homeDir" | "compileCache">;

/** Create a home whose `fake` provider points at `server.baseUrl` (e.g. `http://127.0.0.1:PORT/v1`). */
export function createPiHome(server: { baseUrl: string }, options: PiHomeOptions = {}): PiHome {
	const home = createIsolatedHome(
		"pi-home-",
		{ agentDir: "agent", homeDir: "home", compileCache: "compile-cache" },
		(paths) => ({
			PI_CODING_AGENT_DIR: paths.agentDir,
			HOME: paths.homeDir,
			PI_OFFLINE: "1",
			PI_SKIP_VERSION_CHECK: "1",
			PI_TELEMETRY: "0",
			NODE_COMPILE_CACHE: paths.compileCache,
		}),
		options.env,
	);
	const { agentDir } = home;
	const model = (id: string, name: string, reasoning: boolean) => ({
		id,
		name,
		reasoning,
		input: ["text"],
		contextWindow: 128_000,
		maxTokens: 4096,
		cost: FAKE_MODEL_COST,
	});
	const models = {
		providers: {
			fake: {
				baseUrl: server.baseUrl,
				api: "openai-completions",
				apiKey: "fake-key",
				models: [model(FAKE_MODELS.plain, "Fake Model", false), model(FAKE_MODELS.reasoner, "Fake Reasoner", true)],
			},
		},
	};
	writeJson(join(agentDir, "models.json"), models);
	writeJson(join(agentDir, "settings.json"), mergeSettings(defaultSettings(), options.settings ?? {}));

	const agents = Object.entries(options.agents ?? {});
	if (agents.length > 0) mkdirSync(join(agentDir, "agents"));
	for (const [name, definition] of agents) {
		writeFileSync(join(agentDir, "agents", `${name}.md`), agentMarkdown(name, definition));
	}

	return home;
}

function defaultSettings(): Record<string, unknown> {
	return {
		defaultProvider: "fake",
		defaultModel: FAKE_MODELS.plain,
		retry: { enabled: false },
		compaction: { enabled: false },
	};
}

function mergeSettings(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
	const merged = { ...base };
	for (const [key, value] of Object.entries(extra)) {
		const current = merged[key];
		merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
	}
	return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function agentMarkdown(name: string, definition: AgentDefinitionInput): string {
	if (typeof definition === "string") return definition;
	const fields: Record<string, string | string[]> = { name, description: definition.description };
	if (definition.tools) fields.tools = definition.tools;
	if (definition.model) fields.model = definition.model;
	Object.assign(fields, definition.fields);
	const lines = Object.entries(fields).map(
		([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : value}`,
	);
	return `---\n${lines.join("\n")}\n---\n\n${definition.body}\n`;
}
