/**
 * How scripts/build-runtime.mjs puts a new bundle in place (docs/development.md §The bundle): built in a directory
 * of its own beside `dist/runtime/`, then swapped in by two renames, so a pi starting meanwhile finds the old
 * bundle, none (and runs the sources), or the new one, never a part of one. A Pi already running from the old
 * bundle has loaded its entry and imports its deferred chunks at their first use: those the new build does not
 * have (their names carry a hash of their content) are linked into it and kept {@link RETAIN_MS} after they left.
 */
import { copyFileSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { signalTargetExists } from "../src/runs/process-exists.ts";

/** How long a chunk is kept after the build it belonged to was replaced: a day, in ms. */
export const RETAIN_MS = 24 * 60 * 60 * 1000;
/** The file of a build that lists the chunks kept from earlier builds: name → when it left them, ms since the epoch. */
export const RETIRED_FILE = "retired.json";

/** `file` parsed as JSON, or `{}` when it is missing or malformed. */
function readJson(file) {
	try {
		return JSON.parse(readFileSync(file, "utf8"));
	} catch {
		return {};
	}
}

/**
 * Links into `next` each chunk of `previous` (its `chunks.json` and its own `RETIRED_FILE`) that `next` lacks,
 * unless it left a build more than {@link RETAIN_MS} before `now`, and writes `next`'s `RETIRED_FILE`.
 * @param current the file names the new build wrote
 */
export function carryOverChunks(previous, next, current, now = Date.now()) {
	const retired = readJson(join(previous, RETIRED_FILE));
	const kept = {};
	for (const name of new Set([...Object.keys(readJson(join(previous, "chunks.json"))), ...Object.keys(retired)])) {
		const since = typeof retired[name] === "number" ? retired[name] : now;
		if (current.has(name) || name !== basename(name) || now - since > RETAIN_MS) continue;
		try {
			linkSync(join(previous, name), join(next, name));
		} catch {
			try {
				copyFileSync(join(previous, name), join(next, name));
			} catch {
				continue; // gone meanwhile
			}
		}
		kept[name] = since;
	}
	writeFileSync(join(next, RETIRED_FILE), `${JSON.stringify(kept, null, "\t")}\n`);
}

/**
 * Swaps directory `temporary` in as `out` (the old one set aside as `<out>.old-<pid>`, then removed). Another build
 * that swaps its own in between the two renames is set aside in turn: the last build to finish wins.
 * @throws what `renameSync` throws but for that race
 */
export function swapIn(temporary, out) {
	const old = `${out}.old-${process.pid}`;
	for (let attempt = 0; ; attempt++) {
		rmSync(old, { recursive: true, force: true });
		try {
			renameSync(out, old);
		} catch (error) {
			if (error.code !== "ENOENT") throw error;
		}
		try {
			renameSync(temporary, out);
			break;
		} catch (error) {
			if (!["ENOTEMPTY", "EEXIST"].includes(error.code) || attempt >= 10) throw error;
		}
	}
	rmSync(old, { recursive: true, force: true });
}

/** Removes what builds that are gone left beside `out` (`<out>.build-<pid>`, `<out>.old-<pid>`: killed, or a full disk). */
export function removeLeftovers(out) {
	const prefix = `${basename(out)}.`;
	let names = [];
	try {
		names = readdirSync(dirname(out));
	} catch {
		return;
	}
	for (const name of names) {
		const match = name.startsWith(prefix) ? /^(?:build|old)-(\d+)$/.exec(name.slice(prefix.length)) : null;
		if (match && !signalTargetExists(Number(match[1])))
			rmSync(join(dirname(out), name), { recursive: true, force: true });
	}
}
