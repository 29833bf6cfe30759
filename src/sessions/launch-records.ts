/**
 * The launch records this extension load knows (docs/rules.md §Resumption): rebuilt from the current branch at
 * session start and reload; tree navigation adds the visited branch's records without forgetting known
 * ones, so leaving a branch cannot turn a selected session into an unrestricted one. In memory only.
 * Also tracks native sessions that are running now, which must not be resumed.
 */
import type { Problems } from "../core/problems.ts";
import { LAUNCH_RECORD_TYPE, type LaunchRecord, launchRecordSchema, type RecordKind } from "./launch-record.ts";

/** A session entry as far as this module reads it (Pi's `SessionEntry`). */
export interface BranchEntry {
	type: string;
	customType?: string;
	data?: unknown;
}

/** How much a record kind locks on resume; a higher rank is more restrictive. */
const RESTRICTION: Record<RecordKind, number> = { plain: 0, selected: 1, roster: 2 };

export class LaunchRecords {
	readonly #known = new Map<string, LaunchRecord>();
	readonly #active = new Map<string, number>();
	readonly #onChange: () => void;

	/** @param onChange called after each change of `ids()` (the retention's hold is rewritten there). */
	constructor(onChange: () => void = () => {}) {
		this.#onChange = onChange;
	}

	/** Forgets everything and reads the records on `branch` (session start and reload). */
	rebuild(branch: readonly BranchEntry[]): void {
		this.#known.clear();
		this.addFrom(branch);
	}

	/** Every native session id this load has a record of or runs now: what it may still resume. */
	ids(): string[] {
		return [...new Set([...this.#known.keys(), ...this.#active.keys()])];
	}

	/**
	 * Adds the records on `branch`; later entries replace earlier ones of the same session id, but never
	 * with a less restrictive kind (`roster` > `selected` > `plain`): a branch visited later cannot loosen
	 * what a known record locks.
	 */
	addFrom(branch: readonly BranchEntry[]): void {
		for (const entry of branch) {
			if (entry.type !== "custom" || entry.customType !== LAUNCH_RECORD_TYPE) continue;
			const parsed = launchRecordSchema().safeParse(entry.data);
			if (!parsed.success) continue;
			const known = this.#known.get(parsed.data.nativeSessionId);
			if (known && RESTRICTION[parsed.data.kind] < RESTRICTION[known.kind]) continue;
			this.#known.set(parsed.data.nativeSessionId, parsed.data);
		}
		this.#onChange();
	}

	/** Adds (or replaces) the record of `record.nativeSessionId`. */
	add(record: LaunchRecord): void {
		this.#known.set(record.nativeSessionId, record);
		this.#onChange();
	}

	/** The record of a native session, if this load knows one. */
	get(nativeSessionId: string): LaunchRecord | undefined {
		return this.#known.get(nativeSessionId);
	}

	/** Marks a native session as running (counted: one session may be claimed more than once). */
	claim(nativeSessionId: string): void {
		this.#active.set(nativeSessionId, (this.#active.get(nativeSessionId) ?? 0) + 1);
		this.#onChange();
	}

	/**
	 * Claims a session for a resume only if nothing runs it now. Check and claim are one step, so two
	 * resumes of one session (in one call, or in calls of the same turn) cannot both pass.
	 * @returns false when the session is already running.
	 */
	tryClaim(nativeSessionId: string): boolean {
		if (this.#active.has(nativeSessionId)) return false;
		this.claim(nativeSessionId);
		return true;
	}

	/**
	 * Claims every session one call resumes, atomically (docs/rules.md §Resumption: a session that is running
	 * now is never resumed): the one place that refuses a running session. A session that runs, or that the
	 * call resumes twice, adds a problem; then nothing stays claimed.
	 * @param ids the native session ids the call's children resume, in call order.
	 * @returns the claimed ids (release each when the call ends), or `undefined` when one was refused.
	 */
	claimResumes(ids: readonly string[], problems: Problems): string[] | undefined {
		const claimed: string[] = [];
		const busy = new Set<string>();
		for (const id of ids) {
			if (this.tryClaim(id)) claimed.push(id);
			else busy.add(id);
		}
		if (busy.size === 0) return claimed;
		for (const id of claimed) this.release(id);
		for (const id of busy) {
			problems.add(
				`resume_session_id "${id}": that session is running now (or is resumed twice in this call); resume it after it has finished`,
			);
		}
		return undefined;
	}

	/** Undoes one `claim` / successful `tryClaim`. */
	release(nativeSessionId: string): void {
		const count = (this.#active.get(nativeSessionId) ?? 0) - 1;
		if (count > 0) this.#active.set(nativeSessionId, count);
		else this.#active.delete(nativeSessionId);
		this.#onChange();
	}

	/** Whether the native session runs now (claimed and not yet released). */
	isActive(nativeSessionId: string): boolean {
		return this.#active.has(nativeSessionId);
	}
}
