/**
 * What a benchmark's measured run and its baseline each did, and whether that was the same work: a ratio
 * of two runs means something only when both ran the same command, in the same place, with the same
 * environment and input, apart from the one difference the benchmark is about (which it names). `npm run
 * bench` and the bench smoke test refuse a row whose two sides differ anywhere else.
 */

/** One side of a comparison: what it ran, as far as the benchmark can see it. Absent fields are not compared. */
export interface WorkShape {
	/** The command: file, then arguments (an in-process benchmark: `[]`, the work is in `input`). */
	argv: readonly string[];
	/** The complete environment of the process. */
	env?: Readonly<Record<string, string>>;
	cwd?: string;
	/** What it was given to work on: the task, the stdin text, the data framed. */
	input?: string;
	/** What it produced that must be the same: the answer, the records counted. */
	output?: string;
	/** Settings both must share, by name (e.g. `limits` as JSON). */
	options?: Readonly<Record<string, string>>;
}

/** A measured run next to its baseline. */
export interface WorkComparison {
	measured: WorkShape;
	baseline: WorkShape;
	/**
	 * The difference the benchmark is about, declared: each text matching `pattern` (a literal text, or a
	 * RegExp; in argv, environment values, cwd, input, output and options) reads as `as` on both sides before
	 * they are compared.
	 */
	intended?: ReadonlyArray<{ pattern: string | RegExp; as: string }>;
	/** Environment variables only one side has by design (e.g. the run marker the process core adds). */
	envOnlyOneSide?: readonly string[];
}

/** A row whose baseline is not a run (e.g. the parent's RSS before the run): `why` says what it is. */
export interface NoBaselineRun {
	noBaselineRun: string;
}

/**
 * Every difference between the two sides of `comparison`, one line each, naming the field (`argv[3]`,
 * `env NAME`, `cwd`, `input`, `output`, `options NAME`) and both values; `[]` when they did the same work.
 * Pure.
 */
export function workDifferences(comparison: WorkComparison): string[] {
	const rewrite = (text: string) =>
		(comparison.intended ?? []).reduce(
			(current, { pattern, as }) =>
				typeof pattern === "string" ? current.replaceAll(pattern, as) : current.replace(globalOf(pattern), as),
			text,
		);
	const { measured, baseline } = comparison;
	const found: string[] = [];
	const differ = (field: string, a: string | undefined, b: string | undefined) => {
		const [left, right] = [a === undefined ? a : rewrite(a), b === undefined ? b : rewrite(b)];
		if (left !== right) found.push(`${field}: measured ${show(left)}, baseline ${show(right)}`);
	};
	if (measured.argv.length !== baseline.argv.length) {
		found.push(`argv: measured has ${measured.argv.length} parts, baseline ${baseline.argv.length}`);
	}
	for (let i = 0; i < Math.max(measured.argv.length, baseline.argv.length); i++) {
		differ(`argv[${i}]`, measured.argv[i], baseline.argv[i]);
	}
	const skipped = new Set(comparison.envOnlyOneSide ?? []);
	for (const name of unionOfKeys(measured.env, baseline.env)) {
		if (!skipped.has(name)) differ(`env ${name}`, measured.env?.[name], baseline.env?.[name]);
	}
	differ("cwd", measured.cwd, baseline.cwd);
	differ("input", measured.input, baseline.input);
	differ("output", measured.output, baseline.output);
	for (const name of unionOfKeys(measured.options, baseline.options)) {
		differ(`options ${name}`, measured.options?.[name], baseline.options?.[name]);
	}
	return found;
}

/**
 * Throws unless every comparison of the benchmark `bench` is the same work.
 * @throws Error naming the benchmark and listing every difference of every comparison.
 */
export function assertSameWork(bench: string, comparisons: readonly WorkComparison[]): void {
	const problems = comparisons.flatMap((comparison, i) =>
		workDifferences(comparison).map((line) => `comparison ${i + 1}: ${line}`),
	);
	if (problems.length > 0) {
		throw new Error(
			`${bench}: the baseline does not do the same work as the measured run:\n  ${problems.join("\n  ")}`,
		);
	}
}

function unionOfKeys(...records: Array<Readonly<Record<string, string>> | undefined>): string[] {
	return [...new Set(records.flatMap((record) => Object.keys(record ?? {})))].sort();
}

function globalOf(pattern: RegExp): RegExp {
	return pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}

function show(value: string | undefined): string {
	if (value === undefined) return "(none)";
	return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
