/**
 * Launch records (docs/rules.md §Resumption): a successful child's
 * native session id with the launch configuration it ran with, persisted as a custom entry on the parent
 * session's branch (`pi.appendEntry`). Approval and tool controls are recorded as what the previous call
 * used; they are never restored.
 */
import type { z } from "zod";
import {
	HARNESSES,
	type Harness,
	type InteractiveOptions,
	type LaunchProvenance,
	type LaunchSpec,
	type Resources,
} from "../core/launch-spec.ts";
import { lazySchema, type ZodNamespace } from "../core/zod.ts";

/** `customType` of the entries this package appends (a session start reads it, so it lives in core). */
export { LAUNCH_RECORD_TYPE } from "../core/package-dirs.ts";

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

/** One launch record as stored (version 2; version 1 records, with the provenance flattened in, are read too). */
export interface LaunchRecord {
	version: 2;
	kind: RecordKind;
	nativeSessionId: string;
	harness: Harness;
	cwd: string;
	model?: string;
	effort?: string;
	resources?: Resources;
	rosterFile?: string;
	taskName?: string;
	/** Set when the session ran in its TUI: reused by a resume that omits them (docs/rules.md §Resumption). */
	interactive?: InteractiveOptions;
	/** Where the launch's settings came from (agent file, roster entry, digests), as its spec carried it. */
	provenance: LaunchProvenance;
	/** What the previous call used; never restored (docs/rules.md §Resumption). */
	previousControls: { autoApprove: boolean; allowedTools?: string[]; disallowedTools?: string[] };
}

const resourcesSchema = (z: ZodNamespace) =>
	z.object({
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

/** The provenance fields as stored: flat and optional (`kind` is derived from them when read). */
const provenanceFields = (z: ZodNamespace) => ({
	agentName: z.string().optional(),
	agentFile: z.string().optional(),
	agentSource: z.enum(["builtin", "user", "project"]).optional(),
	agentFormat: z.enum(["pi", "claude", "codex"]).optional(),
	rosterSource: z.string().optional(),
	rosterEntry: z.string().optional(),
	agentDefinitionFile: z.string().optional(),
	definitionDigest: z.string().optional(),
	childRosterDigest: z.string().optional(),
});

const launchFields = (z: ZodNamespace) => ({
	kind: z.enum(["roster", "selected", "plain"]),
	nativeSessionId: z.string().min(1),
	harness: z.enum(HARNESSES as [Harness, ...Harness[]]),
	cwd: z.string().min(1),
	model: z.string().optional(),
	effort: z.string().optional(),
	resources: resourcesSchema(z).optional(),
	rosterFile: z.string().optional(),
	taskName: z.string().optional(),
	interactive: z.object({ stayOpen: z.boolean(), inactivityTimeoutMs: z.number().nullable() }).optional(),
	previousControls: z.object({
		autoApprove: z.boolean(),
		allowedTools: z.array(z.string()).optional(),
		disallowedTools: z.array(z.string()).optional(),
	}),
});

type StoredProvenance = z.infer<z.ZodObject<ReturnType<typeof provenanceFields>>>;

/**
 * The provenance a stored one stands for: a roster entry when it names one, an agent when it names an agent
 * file, else ad hoc. Records written before `kind` was stored read the same way.
 */
function provenanceOf(stored: StoredProvenance): LaunchProvenance {
	const { agentName, agentFile, rosterSource, rosterEntry, definitionDigest, childRosterDigest } = stored;
	if (rosterEntry !== undefined && rosterSource !== undefined) {
		const { agentDefinitionFile } = stored;
		return definedOnly({
			kind: "roster_entry",
			rosterSource,
			rosterEntry,
			agentDefinitionFile,
			definitionDigest,
			childRosterDigest,
		});
	}
	if (agentFile !== undefined && agentName !== undefined) {
		const { agentSource = "user", agentFormat } = stored;
		return definedOnly({
			kind: "agent",
			agentName,
			agentFile,
			agentSource,
			agentFormat,
			definitionDigest,
			childRosterDigest,
		});
	}
	return definedOnly({ kind: "ad_hoc", childRosterDigest });
}

/**
 * Schema of a stored record; entries that do not match (another version, hand-edited) are ignored. A version 1
 * record (the provenance fields at the top level, and a `recordedAt` nothing read) is read as version 2.
 */
export const launchRecordSchema = lazySchema((z) => {
	const launch = launchFields(z);
	const provenance = provenanceFields(z);
	const version1 = z
		.object({ version: z.literal(1), ...launch, ...provenance, recordedAt: z.number() })
		.transform((v1): LaunchRecord => {
			const { version: _v1, recordedAt: _unused, ...rest } = v1;
			const fields = pickDefined(rest, Object.keys(launch) as (keyof typeof launch)[]);
			const stored = pickDefined(rest, Object.keys(provenance) as (keyof typeof provenance)[]);
			return { ...fields, version: 2, provenance: provenanceOf(stored) };
		});
	const version2 = z
		.object({ version: z.literal(2), ...launch, provenance: z.object(provenance) })
		.transform((v2): LaunchRecord => ({ ...v2, provenance: provenanceOf(v2.provenance) }));
	return z.union([version2, version1]) satisfies z.ZodType<LaunchRecord, unknown>;
});

/** The record of a child that ran `spec` and returned `nativeSessionId`. Pure. */
export function recordFor(spec: LaunchSpec, nativeSessionId: string): LaunchRecord {
	const kind: RecordKind =
		spec.provenance.kind === "roster_entry" ? "roster" : spec.resources || spec.rosterFile ? "selected" : "plain";

	const optional = definedOnly({
		model: spec.model,
		effort: spec.effort,
		resources: spec.selectedResources ?? spec.resources,
		rosterFile: spec.rosterFile,
		taskName: spec.taskName,
		interactive: spec.interactive,
	});
	return {
		version: 2,
		kind,
		nativeSessionId,
		harness: spec.harness,
		cwd: spec.cwd,
		...optional,
		provenance: definedOnly(startedFrom(spec.provenance)),
		previousControls: {
			autoApprove: spec.autoApprove,
			allowedTools: spec.allowedTools,
			disallowedTools: spec.disallowedTools,
		},
	};
}

/**
 * `provenance` as the record keeps it: an agent file's current digest describes this launch only; the record
 * keeps what the session started from.
 */
function startedFrom(provenance: LaunchProvenance): LaunchProvenance {
	if (provenance.kind !== "agent") return provenance;
	const { agentDigest: _current, ...started } = provenance;
	return started;
}

/** The members `keys` of `value` that are set. */
function pickDefined<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
	return definedOnly(Object.fromEntries(keys.map((key) => [key, value[key]])) as Pick<T, K>);
}

/** `value` without its `undefined` members, so stored records hold only what was set. */
function definedOnly<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
