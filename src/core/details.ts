/**
 * The `details` of a `subagent` tool result and the argument fields its call line shows: what the tool
 * (`tools/`) produces and the renderer (`ui/`) reads, so neither imports the other.
 */
import type { CallMode, ChildRun } from "./child-run.ts";

/**
 * `details` of every `subagent` result, partial or final (docs/tools.md §Result details). Pi stores it in the
 * parent's session file, so each child is a bounded copy (`childDetails` in runs/: previews, counts, ids,
 * paths; the whole answer is in the artifact file).
 */
export interface SubagentDetails {
	mode: CallMode | "invalid";
	children: ChildRun[];
	/** Set when the call was refused before anything started. */
	error?: string;
	/** Background calls: the job that runs the children. */
	jobId?: string;
}

/** The fields of one child's arguments that name and preview it (a subset of the tool's arguments). */
export interface ChildCallPreview {
	agent?: string;
	roster_entry?: string;
	agent_type?: string;
	task?: string;
	task_name?: string;
}

/** The fields of a `subagent` call's arguments that its call line shows. */
export interface SubagentCallPreview extends ChildCallPreview {
	tasks?: ChildCallPreview[];
	chain?: ChildCallPreview[];
}
