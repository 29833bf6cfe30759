/**
 * The contract of one harness adapter: LaunchSpec → native command (headless, or the harness's own TUI),
 * and native record → RunEvents (from stdout, or from the harness's records of a TUI run). Nothing else
 * lives in an adapter. Implemented under `harness/`; the run layer (`runs/`, `interactive/`) drives it.
 */
import type { InputCodec } from "./child-input.ts";
import type { Harness, LaunchSpec } from "./launch-spec.ts";
import type { Problems } from "./problems.ts";
import type { RunEvent } from "./run-event.ts";

/** A native command before the process layer adds cwd and the base environment. */
export interface HarnessCommand {
	file: string;
	args: string[];
	/** Variables to set (string) or remove (`undefined`) on top of the launch environment. */
	env: Record<string, string | undefined>;
	/** Task text delivered on stdin (then closed); `undefined` means stdin is ignored. */
	stdin?: string;
	/**
	 * Set when the child is kept in conversation over an open stdin (docs/background-jobs.md
	 * §Talking to running children): the codec writes the task and encodes sends; `stdin` is then unused.
	 */
	conversation?: InputCodec;
}

/**
 * A harness's TUI command for an interactive run: built from the same launch arguments as its headless
 * command (docs/harness-support.md "Interactive runs"), the task as the last argument.
 */
export interface TuiCommand {
	file: string;
	args: string[];
	/** Variables to set (string) or remove (`undefined`) on top of the launch environment. */
	env: Record<string, string | undefined>;
	/** The native session id, when the launch chooses it (pi, claude, any resume); codex picks its own. */
	nativeSessionId?: string;
	/**
	 * Prepares the harness's own files before its TUI starts, given the child's complete environment
	 * (claude: records the first-run answers the parent already gave).
	 */
	beforeStart?(env: Record<string, string>): void;
	/** Reads this run's events from the harness's own records (never from the screen). */
	openRecords(run: TuiRun): TuiRecordReader;
}

/** What a TUI's record reader needs to know about the run once it has started. */
export interface TuiRun {
	/** The child's complete environment (where the harness keeps its records: `HOME`, `CODEX_HOME`, …). */
	env: Record<string, string>;
	/** The pid of the pane's process (the harness itself), once it has started. */
	panePid(): number | undefined;
}

/**
 * What a run in a TUI learns from the harness's own records: RunEvents, with `done` once the records show
 * that the turn ended.
 */
export interface TuiRecordReader {
	/** The RunEvents of records written since the last call; includes `done` when the turn has ended. */
	poll(): RunEvent[];
	/**
	 * True once the records read so far show that the TUI took the run's first prompt (pi: its user
	 * message). A harness whose reader has this takes typed text into the running turn only from then on:
	 * pi keeps text entered before its first prompt is under way as its *next* prompt, sent after the turn
	 * the run ends at. Without it, a TUI takes typed text once it reads keystrokes.
	 */
	promptTaken?(): boolean;
}

/** Maps native stdout records to RunEvents; one parser per run, since some harnesses need state. */
export interface EventParser {
	parse(record: unknown): RunEvent[];
	/**
	 * Called once after the process has ended (however it ended): events the harness recorded only outside
	 * its stream, such as the usage of a turn that failed or was killed before reporting it.
	 */
	finish?(): RunEvent[];
}

/** How a harness's child submits a result of the spec's `outputSchema`. */
export interface StructuredResultMechanism {
	/**
	 * True when the result is the final answer's text, a JSON document (codex `--output-schema`); false when
	 * a `structured_output` run event carries it (pi's `submit_result` tool, claude's `structured_output`).
	 */
	inText: boolean;
	/** What the child is told to do in the repair turn, as an imperative sentence ("Call the submit_result tool."). */
	howToSubmit: string;
}

export interface HarnessAdapter {
	harness: Harness;
	/** The environment variable that overrides how this harness is started (named in spawn failures). */
	commandEnv: string;
	/**
	 * Maps a spec that passed `validate` to the native command (no second validation pass).
	 * @param runDir a private (0700) directory for this run's files (e.g. a system-prompt file),
	 *   removed by the caller after the run.
	 */
	buildCommand(spec: LaunchSpec, runDir: string): HarnessCommand;
	/**
	 * Maps a spec with `interactive` set that passed `validate` to the harness's TUI command, from the same
	 * launch arguments as {@link buildCommand} (no second validation pass).
	 * @param runDir as for {@link buildCommand}.
	 */
	buildTuiCommand(spec: LaunchSpec, runDir: string): TuiCommand;
	/**
	 * Why a running child of this harness cannot be sent input, when it cannot (a harness that reads its
	 * whole prompt before it starts); the refusal message of every send and stop.
	 */
	inputRefusal?: string;
	/**
	 * How a child of this harness gives a structured result (docs/structured-output.md); a harness without
	 * it refuses `outputSchema`.
	 */
	structuredResult?: StructuredResultMechanism;
	/**
	 * How a child of this harness, started with its stdin open and not yet given its task, says it reads its
	 * input (docs/settings.md §Warm pi children): `line` is written to its stdin, and the stdout record
	 * `isAnswer` accepts is its answer (held back from the run that adopts the child). A harness without it
	 * has no warm children.
	 */
	warmProbe?: { line: string; isAnswer(record: unknown): boolean };
	/**
	 * The files and directories (absolute, possibly absent) a child of `spec` with the complete environment
	 * `env` reads when it starts: a warm child of the harness is taken only while none of them changed since it
	 * started (docs/settings.md §Warm pi children). Required with `warmProbe`.
	 */
	startupInputs?(spec: LaunchSpec, env: Readonly<Record<string, string>>): string[];
	/** A fresh parser for one run of `spec` (some harnesses need the spec, e.g. a resumed thread's usage). */
	createParser(spec: LaunchSpec): EventParser;
	/**
	 * Checks, without side effects, that this harness can honour `spec`; run once for every child of a
	 * call before any of them is spawned. Adds each option it cannot honour to `problems`, labelled
	 * `<harness> harness`, and a command override that cannot be used. For an interactive spec it also
	 * builds the TUI command (writing no file) and adds what a TUI cannot take, labelled
	 * `<harness> harness: interactive`.
	 */
	validate(spec: LaunchSpec, problems: Problems): void;
	/**
	 * The working directory a native session was started in, read from the harness's own session store
	 * (pi session header, claude transcript, codex rollout); `undefined` when the session is not found.
	 * A resume without a launch record runs there.
	 */
	sessionCwd?(nativeSessionId: string): string | undefined;
	/** The absolute path of a native session's file in the harness's own store; `undefined` when not found. */
	sessionFile?(nativeSessionId: string): string | undefined;
}

/**
 * Every harness's adapter, made on demand (src/harness/adapters.ts): `loaded` holds the ones made so far (pi
 * always); `load` makes the named ones (an adapter's modules are imported then) and resolves when they are in
 * `loaded`. Whoever reads `loaded[harness]` for a harness a call may use loads it first.
 */
export interface HarnessAdapters {
	loaded: Partial<Record<Harness, HarnessAdapter>>;
	load(harnesses: Iterable<Harness>): Promise<void>;
	/** Every harness's adapter, each made first when it is not yet. */
	all(): Promise<Record<Harness, HarnessAdapter>>;
}
