/**
 * Settings → the limits every run and call uses (docs/rules.md §Child processes; settings file `limits`).
 * Values the settings file does not expose are fixed here, with their units.
 */
import { DRAIN_MS, TERMINAL_GRACE_MS } from "../core/graces.ts";
import type { InteractiveOptions, RunLimits } from "../core/launch-spec.ts";
import type { Settings } from "./settings.ts";

export interface EffectiveLimits {
	run: RunLimits;
	/** Answer cap per child given to the model: bytes and lines. */
	caps: { maxBytes: number; maxLines: number };
	maxParallelTasks: number;
	maxChainSteps: number;
	/** Children of one call running at once. */
	concurrency: number;
	/** Children running at once across every call of the parent session. */
	globalConcurrency: number;
	/** Defaults of interactive calls (settings `interactive`). */
	interactive: InteractiveOptions;
	/** Background jobs running at once (a job waiting for a slot counts); a call over it is refused. */
	maxBackgroundJobs: number;
}

/** Most steps in one chain call. */
const MAX_CHAIN_STEPS = 16;

/** The limits in force under `settings` (units as in `EffectiveLimits` and `RunLimits`: ms, bytes). */
export function effectiveLimits(settings: Settings): EffectiveLimits {
	const limits = settings.limits;
	return {
		run: {
			timeoutMs: limits.timeout_ms,
			killGraceMs: limits.kill_grace_ms,
			terminalGraceMs: TERMINAL_GRACE_MS,
			drainMs: DRAIN_MS,
			// Longest stdout record (bytes); Pi's largest records carry whole tool outputs.
			maxLineBytes: 64 * 1024 * 1024,
			stderrTailBytes: 16 * 1024,
		},
		caps: { maxBytes: limits.output_max_bytes, maxLines: limits.output_max_lines },
		maxParallelTasks: limits.max_parallel_tasks,
		maxChainSteps: MAX_CHAIN_STEPS,
		concurrency: limits.concurrency,
		globalConcurrency: limits.global_concurrency,
		interactive: {
			stayOpen: settings.interactive.stay_open,
			inactivityTimeoutMs: settings.interactive.inactivity_timeout_ms,
			dialogTimeoutMs: settings.interactive.dialog_timeout_ms,
		},
		maxBackgroundJobs: limits.max_background_jobs,
	};
}
