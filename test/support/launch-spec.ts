/** Launch specs and run limits for tests, so each test names only the fields it is about. */
import type { HarnessAdapter } from "../../src/core/harness-adapter.ts";

import type { LaunchSpec, Resources, RunLimits } from "../../src/core/launch-spec.ts";
import { Problems } from "../../src/core/problems.ts";
import { DEFAULT_RESOURCES } from "../../src/launch/resolve-resources.ts";

/** Limits for specs that are only built or validated, never run: every value 1. */
export const UNUSED_LIMITS: RunLimits = {
	timeoutMs: 1,
	killGraceMs: 1,
	terminalGraceMs: 1,
	drainMs: 1,
	maxLineBytes: 1,
	stderrTailBytes: 1,
};

/** Short graces (300 ms) for scripted stand-in children, so the suite stays fast; the 20 s timeout is only a backstop. */
export const SCRIPTED_LIMITS: RunLimits = {
	timeoutMs: 20_000,
	killGraceMs: 300,
	terminalGraceMs: 300,
	drainMs: 300,
	maxLineBytes: 1024 * 1024,
	stderrTailBytes: 4096,
};

/** Graces (500 ms) for the real pi, codex and claude binaries; the 20 s timeout is only a backstop. */
export const NATIVE_LIMITS: RunLimits = { ...SCRIPTED_LIMITS, killGraceMs: 500, terminalGraceMs: 500, drainMs: 500 };

/**
 * A new session at depth 1 in an untrusted project, without auto-approval, with UNUSED_LIMITS, for the task
 * `-@task` (it looks like a flag and a file reference, which the adapters must deliver as plain text);
 * `fields` override any of these.
 */
export function launchSpec(fields: Pick<LaunchSpec, "harness" | "cwd"> & Partial<LaunchSpec>): LaunchSpec {
	return {
		task: "-@task",
		autoApprove: false,
		projectTrusted: false,
		session: { kind: "new" },
		depth: 1,
		limits: UNUSED_LIMITS,
		provenance: { kind: "ad_hoc" },
		...fields,
	};
}

/** A launch a real binary runs: the task `a task` in a trusted project with NATIVE_LIMITS; `fields` override any of these. */
export function nativeLaunchSpec(fields: Pick<LaunchSpec, "harness" | "cwd"> & Partial<LaunchSpec>): LaunchSpec {
	return launchSpec({ task: "a task", projectTrusted: true, limits: NATIVE_LIMITS, ...fields });
}

/** DEFAULT_RESOURCES with `overrides` applied. */
export const resources = (overrides: Partial<Resources>): Resources => ({ ...DEFAULT_RESOURCES, ...overrides });

/** The problems `adapter.validate(launch)` reports: [] when it accepts the launch. */
export function validationProblems(adapter: Pick<HarnessAdapter, "validate">, launch: LaunchSpec): string[] {
	const problems = new Problems();
	adapter.validate(launch, problems);
	return [...problems.list];
}
