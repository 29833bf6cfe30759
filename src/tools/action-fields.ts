/**
 * A tool field its action does not read is refused, not ignored (docs/tools.md `subagent_jobs`, docs/graphs.md
 * §Controls): a `text` given to `cancel` would not be delivered, a `node` given to `cancel` would cancel the whole
 * run. One check for `subagent_jobs` and `agent_graph`.
 */

/**
 * Why `params` cannot run as `action`: `<tool>: action "<action>" does not use <fields> (it reads <fields>)`;
 * `undefined` when every field it has besides `action` is in `reads`.
 */
export function unreadFields(
	tool: string,
	action: string,
	params: object,
	reads: readonly string[],
): string | undefined {
	const unread = Object.entries(params)
		.filter(([key, value]) => key !== "action" && value !== undefined && !reads.includes(key))
		.map(([key]) => key);
	if (unread.length === 0) return undefined;
	const fields = reads.length > 0 ? `it reads ${reads.join(", ")}` : "it reads no other field";
	return `${tool}: action "${action}" does not use ${unread.join(", ")} (${fields})`;
}
