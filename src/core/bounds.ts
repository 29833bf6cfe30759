/**
 * The one table of how long a string may be, whoever supplied it (docs/rules.md §Bounds). A caller's argument
 * over its limit is refused at the tool boundary, naming the field; a value a child reports is cut (or, for
 * an id that must stay exact, ignored with a diagnostic) as it enters the run result, so nothing longer
 * reaches `details`, the result text, the TUI or a launch record.
 */

/** Longest value of each caller argument, characters. */
export const ARGUMENT_LIMITS = {
	agent: 200,
	roster_entry: 200,
	task_name: 200,
	model: 200,
	effort: 50,
	resume_session_id: 200,
	/** One item of `allowed_tools` / `disallowed_tools` (a claude rule such as `Bash(git *)` included). */
	tool: 1_000,
	cwd: 4_096,
	roster_file: 4_096,
	/** One path of `resources` (skills, plugins, extensions, packages, mcp_servers). */
	resource: 4_096,
	/** The task text (it goes to the child whole; `details` keeps a preview). */
	task: 1_000_000,
	/** `subagent_jobs`: `job_id` and a named `child`. */
	job_id: 100,
	child: 200,
} as const;

/** Longest value of each field a child reports, characters. */
export const REPORTED_LIMITS = {
	/** Longer ids are ignored (a cut id would resume another session): the run then has no session id. */
	nativeSessionId: 200,
	model: 200,
	toolName: 200,
	toolCallId: 200,
	/** An error message of the child's own (its model's or harness's). */
	error: 4_000,
} as const;

/** A caller's `value` for `field` when it is over its limit: the problem to report; otherwise undefined. */
export function overLimit(
	field: keyof typeof ARGUMENT_LIMITS,
	value: string,
	name: string = field,
): string | undefined {
	const limit = ARGUMENT_LIMITS[field];
	if (value.length <= limit) return undefined;
	return `${name}: ${value.length} characters, more than the limit of ${limit}`;
}

/** `text`, or its first `max` characters and `… [N more characters]` (never splitting a surrogate pair). */
export function clipChars(text: string, max: number): string {
	if (text.length <= max) return text;
	const code = text.charCodeAt(max - 1);
	const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
	return `${text.slice(0, end)}… [${text.length - end} more characters]`;
}
