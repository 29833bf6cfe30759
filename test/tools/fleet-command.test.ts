/**
 * `/subagent-jobs [cancel|stop <id>]` (src/tools/fleet-command.ts) over a real job registry, and the
 * receipts the user's commands show in words, without the tool's internal codes.
 */
import type { ExtensionCommandContext } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { ChildRun } from "../../src/core/child-run.ts";
import { Fleet } from "../../src/runs/fleet.ts";
import { JobRegistry } from "../../src/runs/jobs.ts";
import { LiveInputs } from "../../src/runs/live-inputs.ts";
import { handleJobsCommand, receiptInWords } from "../../src/tools/fleet-command.ts";

const child = (phase: ChildRun["phase"]): ChildRun => ({ index: 0, harness: "pi", task: "t", phase });

function setup() {
	const jobs = new JobRegistry({ error: () => {} });
	const notes: Array<{ message: string; level: string }> = [];
	const ctx = { ui: { notify: (message: string, level: string) => notes.push({ message, level }) } };
	const deps = { fleet: new Fleet(), jobs, inputs: new LiveInputs(), adapters: {} };
	const run = (args: string) => handleJobsCommand(deps, args, ctx as unknown as ExtensionCommandContext);
	/** A job whose run ends only when its signal aborts. */
	const start = (label: string) =>
		jobs.start(
			"single",
			label,
			(signal, update) =>
				new Promise<ChildRun[]>((resolve) => {
					update([child("running")]);
					signal.addEventListener("abort", () => resolve([child("aborted")]), { once: true });
				}),
			() => "cancelled",
		);
	return { jobs, notes, run, start };
}

describe("/subagent-jobs", () => {
	it("lists the jobs, cancels one by id, and refuses an unknown id or a finished job", async () => {
		const { jobs, notes, run, start } = setup();
		const job = start("pi: look around");
		await run("");
		expect(notes.at(-1)?.message).toMatch(new RegExp(`^/subagent-jobs:\\n${job.id} pi: look around · running · `));
		await run(`cancel ${job.id}`);
		expect(notes.at(-1)).toEqual({
			message: `/subagent-jobs: job ${job.id} cancelled; its children were stopped`,
			level: "info",
		});
		expect(jobs.get(job.id)?.status).toBe("cancelled");
		await run(`cancel ${job.id}`);
		expect(notes.at(-1)).toEqual({ message: `/subagent-jobs: job ${job.id} is already cancelled`, level: "error" });
		await run("stop nope");
		expect(notes.at(-1)).toEqual({ message: "/subagent-jobs: there is no job nope", level: "error" });
		await run("delete x");
		expect(notes.at(-1)?.message).toBe("usage: /subagent-jobs [cancel <job id> | stop <job id>]");
	});

	it("stops a job gracefully: a child without an input channel is killed at once", async () => {
		const { jobs, notes, run, start } = setup();
		const job = start("pi: x");
		await run(`stop ${job.id}`);
		expect(notes.at(-1)?.message).toBe(
			`/subagent-jobs: job ${job.id} stopped (children that could not be asked, or did not end their turn in time, were killed)`,
		);
		expect(jobs.get(job.id)?.status).toBe("stopped");
	});
});

describe("receipts for the user", () => {
	it("say what happened without internal codes", () => {
		expect(receiptInWords({ status: "refused", reason: "exited", message: "the child has ended" })).toBe(
			"not sent: the child has ended",
		);
		expect(receiptInWords({ status: "delivered", inputId: "input-1", ack: "pi: steer delivered" })).toBe(
			"delivered: pi: steer delivered",
		);
		expect(receiptInWords({ status: "requested", ack: "pi: abort requested" })).toBe(
			"asked to stop: pi: abort requested",
		);
	});
});
