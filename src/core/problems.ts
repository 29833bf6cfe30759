/**
 * One way to report what is wrong with a call or a file: a collector every check adds to, each problem
 * carrying the label of where it is (`task 2: roster entry "x": cwd: …`, `<file>: roster.roles[0]: …`).
 * Checks add what they find and go on, so every problem is listed, not the first; only the tool boundary
 * and the config loaders turn a collector into an error (`LaunchError`, `ConfigError`). See
 * docs/architecture.md "Reporting problems".
 */
import { printable } from "./printable.ts";

/**
 * An error that lists every problem found, one per line. Each problem is made `printable`: a problem quotes
 * names, paths and values from files and calls, and its message reaches the model and the screen.
 */
export abstract class ProblemsError extends Error {
	readonly problems: string[];

	constructor(problems: string | readonly string[]) {
		const list = (typeof problems === "string" ? [problems] : [...problems]).map(printable);
		super(list.length === 1 ? list[0] : `${list.length} problems:\n${list.map((p) => `- ${p}`).join("\n")}`);
		this.problems = list;
	}
}

/**
 * Collects the problems of one subject under a label. `at(label)` gives the collector of one part (a task,
 * a roster entry, a field) that adds to the same list with its label in front.
 */
export class Problems {
	#label: string;
	#parent: Problems | undefined;
	#list: string[] = [];
	#size = 0;

	/** A new, empty collector; a non-empty `label` goes in front of each problem as `label: `. */
	constructor(label = "") {
		this.#label = label;
	}

	/** The collector of a part of this subject: its problems land here, labelled `label: ` (none when empty). */
	at(label: string): Problems {
		const part = new Problems(label);
		part.#parent = this;
		part.#list = this.#list;
		return part;
	}

	/**
	 * Adds one problem, labelled. The line is made `printable` as it is kept: it quotes names, paths and values from
	 * files and calls, and every reader of `list` (tool results, notifications, graph node lines) shows it as it is.
	 */
	add(problem: string): void {
		const labelled = this.#label ? `${this.#label}: ${problem}` : problem;
		this.#size += 1;
		if (this.#parent) this.#parent.add(labelled);
		else this.#list.push(printable(labelled));
	}

	/** How many problems were added through this collector (its parts included). */
	get size(): number {
		return this.#size;
	}

	/** How many problems the whole subject has: every part's, whichever collector of it this is. */
	get subjectSize(): number {
		return this.#list.length;
	}

	/** Every problem of the whole subject, labelled, in the order found. */
	get list(): readonly string[] {
		return this.#list;
	}

	/**
	 * Runs `fn` (a loader that throws a ProblemsError, such as a config file's), adding its problems here.
	 * @returns `fn`'s value, or `undefined` when it threw a ProblemsError; other errors propagate.
	 */
	attempt<T>(fn: () => T): T | undefined {
		try {
			return fn();
		} catch (error) {
			if (!(error instanceof ProblemsError)) throw error;
			for (const problem of error.problems) this.add(problem);
			return undefined;
		}
	}
}
