import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Problems } from "../../src/core/problems.ts";
import type { ResumeCall } from "../../src/launch/child-call.ts";
import type { LaunchContext } from "../../src/launch/launch-context.ts";
import { resolveChildCalls } from "../../src/launch/resolve-calls.ts";
import { DEFAULT_RESOURCES } from "../../src/launch/resolve-resources.ts";
import { resolveResumeCall } from "../../src/launch/resolve-resume.ts";
import { ConsentRecord } from "../../src/launch/trust.ts";
import type { LaunchRecord } from "../../src/sessions/launch-record.ts";
import { recordFor } from "../../src/sessions/launch-record.ts";
import { LaunchRecords } from "../../src/sessions/launch-records.ts";
import { launchSpec, UNUSED_LIMITS } from "../support/launch-spec.ts";
import { collect } from "../support/problems.ts";
import { releaseDirectories } from "../support/teardown.ts";
import { makeTempDir } from "../support/temp-dir.ts";

const cwd = makeTempDir("resume-policy-");
afterAll(() => releaseDirectories([cwd]));
const context: LaunchContext = {
	cwd,
	agentDir: cwd,
	trust: () => true,
	consents: new ConsentRecord(),
	depth: 0,
	maxDepth: 1,
	limits: UNUSED_LIMITS,
};

function resolve(call: Partial<ResumeCall> & Pick<ResumeCall, "resumeSessionId">, records: LaunchRecords) {
	const { value: spec, problems } = collect((found) =>
		resolveResumeCall(
			{ kind: "resume", task: "next", ...call },
			records,
			{ enabled: false },
			context,
			found,
			() => undefined,
		),
	);
	return { spec, problems };
}

function withRecord(record: LaunchRecord): LaunchRecords {
	const records = new LaunchRecords();
	records.add(record);
	return records;
}

/** The launch record of a pi session started from roster entry "owner" of `/r.json`. */
function rosterRecord(id: string): LaunchRecord {
	const provenance = { kind: "roster_entry" as const, rosterEntry: "owner", rosterSource: "/r.json" };
	return recordFor(launchSpec({ harness: "pi", cwd, provenance }), id);
}

describe("resume policy", () => {
	it("reuses the saved cwd, harness and model of a plain session, taking tool controls from this call only", () => {
		const saved = recordFor(
			launchSpec({ harness: "codex", cwd, model: "m1", effort: "low", autoApprove: true, disallowedTools: ["x"] }),
			"plain-1",
		);
		const { spec, problems } = resolve({ resumeSessionId: "plain-1", effort: "high" }, withRecord(saved));
		expect(problems).toEqual([]);
		expect(spec).toMatchObject({
			harness: "codex",
			cwd,
			model: "m1",
			effort: "high",
			autoApprove: false,
			session: { kind: "resume", nativeSessionId: "plain-1" },
		});
		expect(spec?.disallowedTools).toBeUndefined();
	});

	it("keeps a selected session's resources and lets its model change", () => {
		const resources = { ...DEFAULT_RESOURCES, include_instruction_files: false };
		const saved = recordFor(launchSpec({ harness: "pi", cwd, model: "m1", resources }), "sel-1");
		const { spec, problems } = resolve({ resumeSessionId: "sel-1", model: "m2" }, withRecord(saved));
		expect(problems).toEqual([]);
		expect(spec?.resources).toEqual(resources);
		expect(spec?.model).toBe("m2");
		const changed = resolve(
			{ resumeSessionId: "sel-1", resources: { include_instruction_files: true } },
			withRecord(saved),
		);
		expect(changed.problems[0]).toContain("resources");
		expect(changed.problems[0]).toContain("conflicts with the session's saved");
	});

	it("refuses to add resources to a plain session", () => {
		const saved = recordFor(launchSpec({ harness: "pi", cwd }), "plain-2");
		const { problems } = resolve({ resumeSessionId: "plain-2", resources: { extensions: [] } }, withRecord(saved));
		expect(problems).toEqual([
			'resume_session_id "plain-2": the session was started without resources or a child roster; they cannot be added on resume, start a new session',
		]);
	});

	it("refuses a roster-selected session when the roster is not loaded", () => {
		const saved = rosterRecord("ros-1");
		const { problems } = resolve({ resumeSessionId: "ros-1" }, withRecord(saved));
		expect(problems).toEqual([
			'resume_session_id "ros-1": roster entry "owner": the roster could not be loaded: no roster',
		]);
	});

	it("refuses a roster entry that cannot be used in the same words for a new call and a resume", async () => {
		const entry = { name: "owner", description: "", harness: "pi" as const, model: "m", effort: "low", digest: "d" };
		const roster = { source: "/r.json", format: "inline" as const, enabled: false, entries: [entry] };
		const disabled = { roster, enabled: false };
		const saved = rosterRecord("ros-2");
		const resumed = collect((found) =>
			resolveResumeCall(
				{ kind: "resume", task: "next", resumeSessionId: "ros-2" },
				withRecord(saved),
				disabled,
				context,
				found,
				() => undefined,
			),
		).problems;
		const started = new Problems();
		await resolveChildCalls(
			[{ kind: "roster_entry", task: "t", rosterEntry: "owner" }],
			[""],
			"user",
			context,
			disabled,
			new LaunchRecords(),
			started,
		);
		const refusal = 'roster entry "owner": the roster (/r.json) is disabled; enable it with /agentshell-roster';
		expect(resumed).toEqual([`resume_session_id "ros-2": ${refusal}`]);
		expect(started.list).toEqual([refusal]);
	});

	it("refuses a resume whose agent file became a FIFO or a symlink to a device, without reading it", () => {
		const fifo = join(cwd, "scout-fifo.md");
		execFileSync("mkfifo", [fifo]);
		const linked = join(cwd, "scout-stdin.md");
		symlinkSync("/dev/null", linked);
		for (const [file, id, kind] of [
			[fifo, "agent-fifo", "a FIFO"],
			[linked, "agent-device", "a character device"],
		]) {
			const saved = recordFor(
				launchSpec({
					harness: "pi",
					cwd,
					provenance: { kind: "agent", agentName: "scout", agentFile: file, agentSource: "project" },
				}),
				id,
			);
			const { spec, problems } = resolve({ resumeSessionId: id }, withRecord(saved));
			expect(spec).toBeUndefined();
			expect(problems).toEqual([
				`resume_session_id "${id}": the session's agent definition ${file} cannot be read (it is not a regular file (${kind})); start a new session`,
			]);
		}
	});
});
