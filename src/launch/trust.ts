/**
 * Explicit trust, decided per directory (SECURITY.md "Trust", docs/rules.md §Trust).
 *
 * Pi 1.6 calls a project trusted when it holds none of the files Pi itself gates (`.pi/settings.json`,
 * `extensions`, `skills`, … but not `.pi/agents`), so `ctx.isProjectTrusted()` alone is not consent. A
 * directory counts as trusted here only after an explicit decision:
 * - an entry `true` for it (or its nearest listed ancestor) in Pi's trust store, `<agent dir>/trust.json`
 *   (what Pi writes when you pick "Trust" in its prompt); an entry `false` is an explicit refusal;
 * - the parent Pi's own `--approve` / `-a` (or `--no-approve` / `-na`), for the parent's cwd only;
 * - for the parent's cwd, Pi's own decision when Pi had something to decide (the cwd holds files Pi gates,
 *   so `ctx.isProjectTrusted()` then reflects a prompt, the store, a flag or `defaultProjectTrust`).
 * Pi's extension API offers nothing more (only `isProjectTrusted()` for the session's own cwd), so a
 * confirmation given through this package's UI prompt is kept by this package: in memory, per project
 * directory and per definition content (sha256), for the life of the parent Pi process.
 */
import { dirname, resolve } from "node:path";
import { printable } from "../core/printable.ts";
import type { Problems } from "../core/problems.ts";

/** Pi's trust store, as far as this module reads it (`ProjectTrustStore` of @earendil-works/pi-coding-agent). */
export interface TrustStore {
	/** The nearest entry's decision for `dir`, or null when no entry covers it. */
	get(dir: string): boolean | null;
}

export interface TrustInputs {
	/** The parent session's cwd (absolute). */
	parentCwd: string;
	/** `ctx.isProjectTrusted()` of the parent session. */
	parentTrusted: boolean;
	/** Whether Pi had to decide trust for the parent's cwd when the session started (see {@link SessionStartTrust}). */
	parentHadDecision: boolean;
	/** The parent Pi's `--approve` (true) / `--no-approve` (false) flag, if given. */
	approveFlag: boolean | undefined;
	store: TrustStore;
}

/** Decides whether a directory is explicitly trusted; see the module comment for the rules. */
export type TrustPolicy = (dir: string) => boolean;

/** The trust policy for one call. A store that cannot be read counts as no entry. */
export function trustPolicy(inputs: TrustInputs): TrustPolicy {
	const parentCwd = resolve(inputs.parentCwd);
	return (dir) => {
		const target = resolve(dir);
		if (target === parentCwd) {
			if (inputs.approveFlag !== undefined) return inputs.approveFlag;
			if (inputs.parentHadDecision) return inputs.parentTrusted;
		}
		try {
			return inputs.store.get(target) === true;
		} catch {
			return false;
		}
	};
}

/**
 * The parent Pi's `--approve` / `-a` (true) or `--no-approve` / `-na` (false) from its argv; the last one
 * wins, as in Pi's own parser. `undefined` when neither is given.
 */
export function readApproveFlag(argv: readonly string[]): boolean | undefined {
	let flag: boolean | undefined;
	for (const arg of argv) {
		if (arg === "--approve" || arg === "-a") flag = true;
		else if (arg === "--no-approve" || arg === "-na") flag = false;
	}
	return flag;
}

/** A project-controlled definition a launch would use. */
export interface ProjectControlled {
	/** e.g. `project agent "scout"`. */
	what: string;
	/** The file it comes from. */
	file: string;
	/** The project directory that controls it (the directory holding `.pi/`). */
	projectDir: string;
	/** sha256 of the file's content as it will run. */
	digest: string;
	/** Why consent is asked again, e.g. that the file changed since a session started from it. */
	note?: string;
}

/** Confirmations given through this package's prompt: project directory → file → digest. In memory. */
export class ConsentRecord {
	readonly #given = new Map<string, Map<string, string>>();

	has(item: ProjectControlled): boolean {
		return this.#given.get(item.projectDir)?.get(item.file) === item.digest;
	}

	add(item: ProjectControlled): void {
		const files = this.#given.get(item.projectDir) ?? new Map<string, string>();
		files.set(item.file, item.digest);
		this.#given.set(item.projectDir, files);
	}
}

/** The project directory of a definition in `<project>/.pi/agents/`. */
export function projectDirOf(agentFile: string): string {
	return dirname(dirname(dirname(agentFile)));
}

/** What the gate needs from the launch context (`LaunchContext` provides it). */
export interface TrustGate {
	trust: TrustPolicy;
	consents: ConsentRecord;
	/** Pi's agent directory, named in the refusal (its `trust.json` is Pi's trust store). */
	agentDir: string;
	/** Asks the user a yes/no question; `undefined` when there is no UI. */
	confirm?: (title: string, message: string) => Promise<boolean>;
}

/**
 * Passes when every item's project is explicitly trusted, or its exact content was confirmed in this
 * process, or the user confirms now (the confirmation is then recorded).
 * @returns false when refused or declined, with the refusal naming every definition still unconfirmed,
 *   and how to grant trust, added to `problems`.
 */
export async function checkTrusted(
	items: ProjectControlled[],
	context: TrustGate,
	problems: Problems,
): Promise<boolean> {
	const open = items.filter((item) => !context.trust(item.projectDir) && !context.consents.has(item));
	if (open.length === 0) return true;
	const list = open
		.map((item) => `${printable(item.what)} (${printable(item.file)}${item.note ? `; ${printable(item.note)}` : ""})`)
		.join(", ");
	const projects = [...new Set(open.map((item) => printable(item.projectDir)))].join(", ");
	if (!context.confirm) {
		problems.add(
			`refused to run ${list}: it is project-controlled, ${projects} is not explicitly trusted, and there is no UI to confirm. Grant trust by choosing "Trust" in Pi's project trust prompt (saved in ${context.agentDir}/trust.json), or by starting Pi in that directory with --approve.`,
		);
		return false;
	}
	const ok = await context.confirm(
		"Run project-controlled sub-agent?",
		`${projects} is not explicitly trusted. ${list} is defined by the project and will run with your permissions. Continue?`,
	);
	if (!ok) {
		problems.add(`declined to run ${list}: it is project-controlled and the project is not trusted`);
		return false;
	}
	for (const item of open) context.consents.add(item);
	return true;
}
