/**
 * The structured result of one child run (docs/structured-output.md): what the child submitted at the end
 * of each turn, checked against the spec's `outputSchema`; one repair turn when it is missing or invalid;
 * then the verdict on the run result. The run layer delivers the repair turn (an open conversation's next
 * turn, or a resume of the session).
 */
import type { StructuredResultMechanism } from "../core/harness-adapter.ts";
import type { RunResult } from "../core/run-result.ts";
import { type StructuredOutputCheck, validateStructuredOutput, validateStructuredText } from "./structured-output.ts";

/** Repair turns a child gets for a missing or invalid result (issue 23 §1: one). */
export const REPAIR_TURNS = 1;

/** The words every repair message starts with (tests count repair requests by them). */
export const REPAIR_PREFIX = "Your result does not satisfy the required output schema (output_schema):";

/** One child's structured result, turn by turn. */
export class StructuredResult {
	readonly #schema: Record<string, unknown>;
	readonly #mechanism: StructuredResultMechanism;
	#repairsLeft = REPAIR_TURNS;
	#submitted: { value: unknown } | undefined;
	#last: StructuredOutputCheck | undefined;

	/** @param mechanism how the child's harness submits a result (its adapter's `structuredResult`). */
	constructor(schema: Record<string, unknown>, mechanism: StructuredResultMechanism) {
		this.#schema = schema;
		this.#mechanism = mechanism;
	}

	/** The child submitted `value` in the current turn (a `structured_output` run event); the latest counts. */
	submitted(value: unknown): void {
		this.#submitted = { value };
	}

	/**
	 * The current turn ended with the harness reporting success: checks what it submitted (or, for a
	 * harness that answers in text, `finalAnswer` as JSON).
	 * @returns whether the result satisfies the schema.
	 */
	turnEnded(finalAnswer: string): boolean {
		if (this.#submitted) this.#last = validateStructuredOutput(this.#schema, this.#submitted.value);
		else if (this.#mechanism.inText) this.#last = validateStructuredText(this.#schema, finalAnswer);
		else this.#last = { ok: false, errors: "no structured result was given" };
		return this.#last.ok;
	}

	/**
	 * The repair message for the child's next turn, when the last turn's result failed and a repair turn is
	 * left; taking it uses the repair turn up. `undefined` otherwise.
	 */
	takeRepair(): string | undefined {
		const last = this.#last;
		if (!last || last.ok || this.#repairsLeft === 0) return undefined;
		this.#repairsLeft -= 1;
		this.#submitted = undefined;
		this.#last = undefined;
		return `${REPAIR_PREFIX} ${last.errors}. ${this.#mechanism.howToSubmit} Give a result that satisfies the schema; this is the only retry.`;
	}

	/**
	 * The verdict on a run that otherwise completed (`SettleContext.checkCompleted`): the validated value in
	 * `structuredOutput` and, as JSON, in `finalAnswer` (what the model receives); or why the run fails,
	 * naming the validator's errors, the raw answer kept in `finalAnswer` (the submitted value as JSON when
	 * the child wrote no text).
	 * @returns the failure reason, or `undefined` when the result satisfies the schema.
	 */
	verdict(result: RunResult): string | undefined {
		const last = this.#last ?? { ok: false, errors: "no structured result was given" };
		if (last.ok) {
			result.structuredOutput = last.value;
			result.finalAnswer = JSON.stringify(last.value);
			return undefined;
		}
		if (result.finalAnswer.trim() === "" && this.#submitted) result.finalAnswer = JSON.stringify(this.#submitted.value);
		const after = this.#repairsLeft < REPAIR_TURNS ? " after one repair turn" : "";
		return `output_schema: the result does not satisfy the schema${after}: ${last.errors}`;
	}
}
