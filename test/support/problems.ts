/** Runs checks that report into a `Problems` collector, for tests that assert what was found. */
import { Problems } from "../../src/core/problems.ts";

/** What `check` added to a fresh collector, and what it returned. */
export function collect<T>(check: (problems: Problems) => T): { value: T; problems: string[] } {
	const problems = new Problems();
	const value = check(problems);
	return { value, problems: [...problems.list] };
}

/** The problems `check` added to a fresh collector ([] when it found none). */
export function problemsFound(check: (problems: Problems) => unknown): string[] {
	return collect(check).problems;
}

/**
 * The parts `text` lacks, in the order given ([] when it has them all): `expect(missingFrom(text, [...]))
 * .toEqual([])` names every missing line of a refusal at once.
 */
export function missingFrom(text: string, parts: readonly string[]): string[] {
	return parts.filter((part) => !text.includes(part));
}
