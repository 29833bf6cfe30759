/** Expecting a `subagent` call to be refused before anything starts (e2e tests). */
import { expect } from "vitest";
import type { SubagentDetails } from "../../src/core/details.ts";
import { type E2eEnv, textOf } from "./e2e-env.ts";

/**
 * Calls `subagent` with `args` and expects a refusal whose text contains each of `messages`, with no
 * model request made (nothing was started).
 */
export async function expectRefused(env: E2eEnv, args: unknown, ...messages: string[]): Promise<void> {
	const before = env.server.requests.length;
	const { result, isError } = await env.session.callTool<SubagentDetails>("subagent", args);
	expect(isError).toBe(true);
	for (const message of messages) expect(textOf(result)).toContain(message);
	expect(env.server.requests.length).toBe(before);
}
