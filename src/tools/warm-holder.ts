/**
 * The warm children of one extension load (docs/settings.md §Warm pi children): the pool module is imported on
 * the first call made with the setting on, never otherwise; the session's end closes it.
 */
import type { WarmChildrenSettings } from "../config/settings.ts";
import type { WarmChildren, WarmPool } from "../runs/warm-children.ts";

/** Holds the pool once a call wanted it. */
export class WarmHolder {
	#pool: Promise<WarmChildren> | undefined;

	/**
	 * The pool a call runs with under `settings`: `undefined` while the setting is off (a pool that ran is
	 * closed then, its idle children ended), else the pool, created on first need and given the settings.
	 */
	async forCall(settings: WarmChildrenSettings): Promise<WarmPool | undefined> {
		if (!settings.enabled) {
			await this.close();
			return undefined;
		}
		const values = { idleTimeoutMs: settings.idle_timeout_ms, max: settings.max };
		this.#pool ??= import("../runs/warm-children.ts").then((module) => new module.WarmChildren(values));
		const pool = await this.#pool;
		pool.configure(values);
		return pool;
	}

	/** Ends every idle child and removes its files; resolves once each is gone. A later call makes a new pool. */
	async close(): Promise<void> {
		const pool = this.#pool;
		this.#pool = undefined;
		await (await pool)?.close();
	}
}
