/**
 * Codex's session store: the rollout files `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<threadId>.jsonl`,
 * read for a resumed thread's earlier usage total.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import { firstRecordCwd, readSessionText } from "../session-cwd.ts";
import type { CodexUsage } from "./records.ts";

/**
 * The last cumulative usage codex recorded for `threadId`: `payload.info.total_token_usage` of the last
 * `token_count` event in `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<threadId>.jsonl`. `undefined`
 * when the rollout or a total cannot be found (the thread then counts from zero).
 */
export function readThreadUsage(codexHome: string, threadId: string): CodexUsage | undefined {
	const text = readSessionText(findThreadRollout(codexHome, threadId));
	if (text === undefined) return undefined;
	const lines = text.split("\n");
	for (let i = lines.length - 1; i >= 0; i--) {
		if (!lines[i].includes('"token_count"')) continue;
		try {
			const record = JSON.parse(lines[i]) as { payload?: { info?: { total_token_usage?: CodexUsage } | null } };
			const total = record.payload?.info?.total_token_usage;
			if (total) return total;
		} catch {
			// A torn last line (the rollout of a killed run): look further up.
		}
	}
	return undefined;
}

/** The cwd of codex thread `threadId`: `payload.cwd` of its rollout's `session_meta` record, if found. */
export function readRolloutCwd(codexHome: string, threadId: string): string | undefined {
	return firstRecordCwd(findThreadRollout(codexHome, threadId), (record) => {
		const meta = record as { type?: string; payload?: { cwd?: unknown } };
		return meta.type === "session_meta" ? meta.payload?.cwd : undefined;
	});
}

/** A codex thread id: a UUID (`codex exec resume` takes one before a thread name, its `--help`). */
export const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The rollout file of `threadId` under `$CODEX_HOME/sessions`, or `undefined`; only a whole thread id is looked
 * for (a thread name, or the tail of another thread's id, would match another thread's file by its end).
 */
export function findThreadRollout(codexHome: string, threadId: string): string | undefined {
	if (!THREAD_ID.test(threadId)) return undefined;
	return findRollout(join(codexHome, "sessions"), `-${threadId}.jsonl`);
}

function findRollout(dir: string, suffix: string): string | undefined {
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return undefined;
	}
	// Newest first: date folders (YYYY/MM/DD) and rollout names (rollout-<timestamp>-…) sort by time, and a
	// resumed thread is usually recent, so the walk of a long history ends early.
	entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isFile() && entry.name.startsWith("rollout-") && entry.name.endsWith(suffix)) return path;
		if (entry.isDirectory()) {
			const found = findRollout(path, suffix);
			if (found) return found;
		}
	}
	return undefined;
}
