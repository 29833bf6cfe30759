/**
 * Every provider API Pi supports keeps every field of every tool of this package (docs/tools.md §Tool definitions):
 * the tools go through pi-ai's real request builders for OpenAI chat completions, OpenAI Responses and Anthropic
 * Messages to the fake model server, whose log shows what a provider would receive; Google's two forms
 * (`parametersJsonSchema` and the OpenAPI `parameters`) come from pi-ai's own converter. Each tool arrives with
 * the same property tree it was registered with, and every field of the complete schemas the package checks is
 * named there.
 */
import { convertTools as googleTools } from "@earendil-works/pi-ai/api/google-shared";
import { stream } from "@earendil-works/pi-ai/compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsSchema } from "../../src/tools/jobs-schema.ts";
import { graphParameters } from "../../src/tools/model-parameters.ts";
import { subagentSchema } from "../../src/tools/subagent-schema.ts";
import { graphToolInfo, jobsToolInfo, rosterToolInfo, subagentToolInfo } from "../../src/tools/tool-info.ts";
import { type FakeModelServer, startFakeModelServer } from "../support/fake-model/index.ts";

type Schema = Record<string, unknown>;
const TOOLS = [subagentToolInfo, jobsToolInfo, rosterToolInfo, graphToolInfo].map(
	({ name, description, parameters }) => ({
		name,
		description,
		parameters: parameters as unknown as Schema,
	}),
);
/** The complete schema each tool's calls are checked against (the roster's and the graph's are the ones they register). */
const COMPLETE: Record<string, Schema> = {
	subagent: subagentSchema as unknown as Schema,
	subagent_jobs: jobsSchema as unknown as Schema,
	subagent_roster: rosterToolInfo.parameters as unknown as Schema,
	agent_graph: graphParameters as unknown as Schema,
};

/** Every property path of a schema with its description and type (`tasks[]`, `resources.skills`, …), sorted. */
function propertyTree(schema: unknown, prefix = ""): string[] {
	if (!schema || typeof schema !== "object") return [];
	const node = schema as Schema;
	const out: string[] = [];
	for (const [key, value] of Object.entries((node.properties as Schema | undefined) ?? {})) {
		const property = value as Schema;
		out.push(`${prefix}${key}: ${JSON.stringify([property.type, property.enum, property.description])}`);
		out.push(...propertyTree(property, `${prefix}${key}.`));
		if (property.items) out.push(...propertyTree(property.items, `${prefix}${key}[].`));
		for (const variant of (property.anyOf as unknown[] | undefined) ?? []) {
			out.push(...propertyTree(variant, `${prefix}${key}.`));
		}
	}
	return out.sort();
}

/** Field names of a complete schema, at every depth (item fields of `tasks` / `chain` included). */
function fieldNames(schema: unknown): Set<string> {
	const names = new Set<string>();
	const walk = (node: unknown) => {
		if (!node || typeof node !== "object") return;
		const object = node as Schema;
		for (const [key, value] of Object.entries((object.properties as Schema | undefined) ?? {})) {
			names.add(key);
			walk(value);
		}
		walk(object.items);
		for (const variant of (object.anyOf as unknown[] | undefined) ?? []) walk(variant);
	};
	walk(schema);
	return names;
}

/** The tools of a logged request body, by name, as `{ description, parameters }`. */
type Received = Record<string, { description: string; parameters: Schema }>;

let server: FakeModelServer;
beforeAll(async () => {
	server = await startFakeModelServer();
});
afterAll(async () => server?.close());

const model = <A extends string>(api: A, baseUrl: string) => ({
	id: "fake-model",
	name: "fake",
	api,
	provider: "fake",
	baseUrl,
	reasoning: false,
	input: ["text" as const],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 1_000,
});

/** Sends one request with the package's tools to the fake server through `api` and returns the tools it received. */
async function received(api: string, baseUrl: string, read: (body: Schema) => Received) {
	const before = server.requests.length;
	const context = { messages: [{ role: "user", content: "hello", timestamp: Date.now() }], tools: TOOLS };
	for await (const _event of stream(model(api, baseUrl) as never, context as never, { apiKey: "fake-key" })) {
		// Drain the stream: the request is logged when it arrives, the answer ends it.
	}
	const request = server.requests[before];
	expect(request, "the request reached the fake model server").toBeDefined();
	return read(request?.body as Schema);
}

const byName = (list: Schema[], pick: (tool: Schema) => { name: unknown; description: unknown; parameters: unknown }) =>
	Object.fromEntries(
		list.map((tool) => {
			const { name, description, parameters } = pick(tool);
			return [String(name), { description: String(description), parameters: parameters as Schema }];
		}),
	) as Received;

const PROVIDERS: Record<string, () => Promise<Received>> = {
	"OpenAI chat completions": () =>
		received("openai-completions", server.baseUrl, (body) =>
			byName(body.tools as Schema[], (tool) => tool.function as never),
		),
	"OpenAI Responses": () =>
		received("openai-responses", server.baseUrl, (body) => byName(body.tools as Schema[], (tool) => tool as never)),
	"Anthropic Messages": () =>
		received("anthropic-messages", server.baseUrl.replace(/\/v1$/, ""), (body) =>
			byName(body.tools as Schema[], (tool) => ({ ...tool, parameters: tool.input_schema }) as never),
		),
	"Google (parametersJsonSchema)": async () =>
		byName(
			googleTools(TOOLS as never)?.[0]?.functionDeclarations as Schema[],
			(tool) => ({ ...tool, parameters: tool.parametersJsonSchema }) as never,
		),
	"Google (OpenAPI parameters)": async () =>
		byName(googleTools(TOOLS as never, true)?.[0]?.functionDeclarations as Schema[], (tool) => tool as never),
};

describe("each provider API keeps every field of every tool", () => {
	for (const [provider, receive] of Object.entries(PROVIDERS)) {
		it(`${provider} receives each tool with its whole property tree and description`, async () => {
			const tools = await receive();
			for (const tool of TOOLS) {
				expect(tools[tool.name]?.description, tool.name).toBe(tool.description);
				expect(propertyTree(tools[tool.name]?.parameters), tool.name).toEqual(propertyTree(tool.parameters));
			}
		});
	}

	it("registers all four tools of this package", () => {
		expect(TOOLS.map((tool) => tool.name).sort()).toEqual(Object.keys(COMPLETE).sort());
	});

	it("keeps graph and inputs plain objects, without patternProperties or $ref", () => {
		const seen = JSON.stringify(graphToolInfo.parameters);
		expect(seen).not.toMatch(/patternProperties|\$ref|\$defs/);
		for (const key of ["graph", "inputs"] as const) {
			const { type, properties } = graphParameters.properties[key] as unknown as Schema;
			expect([type, properties], key).toEqual(["object", undefined]);
		}
	});

	it("names every field of the complete schemas in the schema the model sees", () => {
		for (const tool of TOOLS) {
			const seen = JSON.stringify(tool.parameters);
			const missing = [...fieldNames(COMPLETE[tool.name])].filter((name) => !seen.includes(name));
			expect(missing, tool.name).toEqual([]);
		}
	});
});
