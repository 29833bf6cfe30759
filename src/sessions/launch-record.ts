/**
 * Launch records (docs/rules.md §Resumption): a successful child's
 * native session id with the launch configuration it ran with, persisted as a custom entry on the parent
 * session's branch (`pi.appendEntry`). Approval and tool controls are recorded as what the previous call
 * used; they are never restored.
 */
import { z } from "zod";
import {
	HARNESSES,
	type Harness,
	type InteractiveOptions,
	type LaunchSpec,
	type Resources,
} from "../core/launch-spec.ts";

/** `customType` of the entries this package appends. */
export const LAUNCH_RECORD_TYPE = "pi-native-subagents.launch";

/**
 * What a record locks on resume:
 * - `roster`: launched from a roster entry: harness, cwd, resources, roster source/entry, child roster,
 *   model and effort are all fixed;
 * - `selected`: ad hoc with explicit resources or a child roster: harness, cwd and that selection are fixed;
 *   model and effort may change;
 * - `plain`: ad hoc or from a Markdown agent: harness and cwd are fixed (the native session lives there);
 *   model and effort may change.
 */
export type RecordKind = "roster" | "selected" | "plain";

export interface LaunchRecord {
	version: 1;
	kind: RecordKind;
	nativeSessionId: string;
	harness: Harness;
	cwd: string;
	model?: string;
	effort?: string;
	resources?: Resources;
	rosterFile?: string;
	/** Digest of the child roster's parsed contents (entries and their settings) at launch. */
	childRosterDigest?: string;
	rosterSource?: string;
	rosterEntry?: string;
	/** Normalized `agent.json` of the roster entry, and the digest of its parsed settings. */
	agentDefinitionFile?: string;
	definitionDigest?: string;
	agentName?: string;
	/** The Markdown agent definition the session started from; its body is re-applied on resume. */
	agentFile?: string;
	agentSource?: "user" | "project";
	taskName?: string;
	/** Set when the session ran in its TUI: reused by a resume that omits them (docs/rules.md §Resumption). */
	interactive?: InteractiveOptions;
	/** What the previous call used; never restored (docs/rules.md §Resumption). */
	previousControls: { autoApprove: boolean; allowedTools?: string[]; disallowedTools?: string[] };
	/** ms since the Unix epoch. */
	recordedAt: number;
}

const resourcesSchema = z.object({
	skills: z.array(z.string()),
	plugins: z.array(z.string()),
	extensions: z.array(z.string()),
	packages: z.array(z.string()),
	mcp_servers: z.array(z.string()).nullable(),
	inherit_personal_resources: z.boolean(),
	inherit_project_resources: z.boolean(),
	include_instruction_files: z.boolean(),
	include_home_system_prompt: z.boolean(),
});

/** Schema of a stored record; entries that do not match (another version, hand-edited) are ignored. */
export const launchRecordSchema = z.object({
	version: z.literal(1),
	kind: z.enum(["roster", "selected", "plain"]),
	nativeSessionId: z.string().min(1),
	harness: z.enum(HARNESSES as [Harness, ...Harness[]]),
	cwd: z.string().min(1),
	model: z.string().optional(),
	effort: z.string().optional(),
	resources: resourcesSchema.optional(),
	rosterFile: z.string().optional(),
	childRosterDigest: z.string().optional(),
	rosterSource: z.string().optional(),
	rosterEntry: z.string().optional(),
	agentDefinitionFile: z.string().optional(),
	definitionDigest: z.string().optional(),
	agentName: z.string().optional(),
	agentFile: z.string().optional(),
	agentSource: z.enum(["user", "project"]).optional(),
	taskName: z.string().optional(),
	interactive: z.object({ stayOpen: z.boolean(), inactivityTimeoutMs: z.number().nullable() }).optional(),
	previousControls: z.object({
		autoApprove: z.boolean(),
		allowedTools: z.array(z.string()).optional(),
		disallowedTools: z.array(z.string()).optional(),
	}),
	recordedAt: z.number(),
}) satisfies z.ZodType<LaunchRecord>;

/** The record of a child that ran `spec` and returned `nativeSessionId`. Pure. */
export function recordFor(spec: LaunchSpec, nativeSessionId: string, now: number): LaunchRecord {
	const p = spec.provenance;
	const kind: RecordKind = p.rosterEntry ? "roster" : spec.resources || spec.rosterFile ? "selected" : "plain";
	const record: LaunchRecord = {
		version: 1,
		kind,
		nativeSessionId,
		harness: spec.harness,
		cwd: spec.cwd,
		previousControls: {
			autoApprove: spec.autoApprove,
			allowedTools: spec.allowedTools,
			disallowedTools: spec.disallowedTools,
		},
		recordedAt: now,
	};
	const optional: Partial<LaunchRecord> = {
		model: spec.model,
		effort: spec.effort,
		resources: spec.selectedResources ?? spec.resources,
		rosterFile: spec.rosterFile,
		childRosterDigest: p.childRosterDigest,
		rosterSource: p.rosterSource,
		rosterEntry: p.rosterEntry,
		agentDefinitionFile: p.agentDefinitionFile,
		definitionDigest: p.definitionDigest,
		agentName: p.agentName,
		agentFile: p.agentFile,
		agentSource: p.agentSource,
		taskName: spec.taskName,
		interactive: spec.interactive,
	};
	for (const [key, value] of Object.entries(optional)) {
		if (value !== undefined) (record as unknown as Record<string, unknown>)[key] = value;
	}
	return record;
}
