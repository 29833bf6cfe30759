import { resolve } from "node:path";

/**
 * Whether Pi had a trust decision to make for a session's cwd (it held files Pi gates), as it stood when the
 * session started: Pi decides then, so files that appear later (a checkout, a child's write) must not turn
 * Pi's implicit trust into consent (SECURITY.md "Trust"). In memory, per cwd.
 */
export class SessionStartTrust {
	readonly #hadDecision = new Map<string, boolean>();

	/** Records `cwd` at a session start; a reload keeps the earlier record, as Pi keeps its decision then. */
	record(cwd: string, reason: string, hadDecision: boolean): void {
		const dir = resolve(cwd);
		if (reason !== "reload" || !this.#hadDecision.has(dir)) this.#hadDecision.set(dir, hadDecision);
	}

	/** false when no session start was seen for `cwd`: then only the trust store and the flag count. */
	hadDecision(cwd: string): boolean {
		return this.#hadDecision.get(resolve(cwd)) ?? false;
	}
}
