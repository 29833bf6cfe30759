/**
 * The shape a `snapshot.json` must have before anything reads it (docs/graphs.md §Durability): the fields a
 * restore, a control, a listing or the session-start report reads, each of its type. A snapshot that fails is
 * corrupt and reported naming its file; it is never run and never makes a later run's report fail.
 */
import { NODE_STATUSES } from "../core/graph-details.ts";
import { lazySchema } from "../core/zod.ts";

// Built with the first snapshot read (src/core/zod.ts): a session with no stored runs never loads zod.
const snapshotSchema = lazySchema((z) => {
	// Every node and part status the engine knows: it has no way on from any other.
	const status = z.enum(NODE_STATUSES);
	/** ms since the Unix epoch, within what a `Date` holds (listings format it). */
	const timestamp = z.number().int().min(0).max(8.64e15);

	// Usage is summed and shown, never trusted for control: an object is enough.
	const usage = z.object({}).loose();

	const nodeState = z
		.object({
			status,
			attempts: z.number(),
			startedAt: timestamp.optional(),
			endedAt: timestamp.optional(),
			usage,
			error: z.string().optional(),
			note: z.string().optional(),
			parts: z.record(z.string(), z.object({ status, attempts: z.number(), usage }).loose()).optional(),
		})
		.loose();

	const snapshot = z
		.object({
			owner: z.object({ sessionId: z.string() }).loose().optional(),
			createdAt: timestamp,
			updatedAt: timestamp,
			graph: z
				.object({
					name: z.string(),
					definition: z.unknown().optional(),
					inputs: z.unknown().optional(),
					agentScope: z.enum(["user", "project", "both"]),
					cwd: z.string(),
					file: z.string().optional(),
					digest: z.string().optional(),
					subgraphs: z.record(z.string(), z.unknown()).optional(),
				})
				.loose(),
			state: z
				.object({
					nodes: z.record(z.string(), nodeState),
					started: z.number(),
					cancelled: z.string().optional(),
					infrastructureError: z.string().optional(),
					paused: z.boolean().optional(),
					stopped: z.boolean().optional(),
				})
				.loose(),
			finished: z.boolean(),
		})
		.loose();
	return snapshot;
});

/** The first problem of `raw`'s shape (`graph.name: expected string, received number`), or undefined. */
export function snapshotShapeProblem(raw: unknown): string | undefined {
	const checked = snapshotSchema().safeParse(raw);
	if (checked.success) return undefined;
	const issue = checked.error.issues[0];
	return issue ? `${issue.path.join(".") || "(top level)"}: ${issue.message}` : "not a graph run snapshot";
}
