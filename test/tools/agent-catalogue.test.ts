/**
 * The agent catalogue (docs/agent-libraries.md §Catalogue) says how to select a shadowed definition, and
 * that one hidden by a file that failed to load cannot be selected until that file is fixed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueLines } from "../../src/tools/agent-catalogue.ts";
import { tempDir, writeTree } from "../config/helpers.ts";

const agentMd = (frontmatter: string) => `---\n${frontmatter}\n---\nYou are helpful.\n`;

describe("agent catalogue", () => {
	it("lists a built-in hidden by a broken override as not selectable, naming the broken file", () => {
		const root = tempDir();
		const builtinDir = join(root, "builtin");
		const agentDir = join(root, "agent-home");
		writeTree(builtinDir, {
			"scout.md": agentMd("name: scout\ndescription: Built-in scout"),
			"worker.md": agentMd("name: worker\ndescription: Built-in worker"),
		});
		writeTree(agentDir, {
			"agents/scout.md": agentMd("name: scout\ndescription: Mine\nmodle: x"),
			"agents/worker.md": agentMd("name: worker\ndescription: My worker"),
		});
		const lines = catalogueLines({ cwd: root, agentDir, builtinDir, env: {} });
		const user = join(agentDir, "agents");
		expect(lines).toContain(
			`- shadowed: scout (builtin, pi) ${join(builtinDir, "scout.md")}, by ${join(user, "scout.md")}, which failed to load; not selectable until that file is fixed or renamed`,
		);
		expect(lines).toContain(
			`- shadowed: worker (builtin, pi) ${join(builtinDir, "worker.md")}, by ${join(user, "worker.md")}; not selectable: pi:worker selects ${join(user, "worker.md")} (of the same format)`,
		);
	});
});
