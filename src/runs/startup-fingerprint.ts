/**
 * The state of the files a child reads when it starts, as one string (warm children, docs/settings.md §Warm
 * pi children): two fingerprints are equal only when no listed file or directory, nor anything below one,
 * was created, removed, written or replaced between them.
 */
import { type BigIntStats, lstatSync, opendirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Entries a fingerprint looks at, at most: a larger tree is not fingerprinted (its launch is not warmed). */
export const MAX_FINGERPRINT_ENTRIES = 5000;

/**
 * Each path's identity and change times (inode, size, mtime and ctime in ns; ctime moves on any write,
 * rename or permission change and cannot be set back), directories walked depth first; an absent path counts
 * as absent. A symlink counts as itself and as what it leads to (a dangling one as absent), a directory it leads
 * to walked too, as Pi reads through links: an edit of a linked `AGENTS.md` or the removal of a linked
 * extension changes the fingerprint. A link cycle ends where the system stops following it (ELOOP).
 * @returns the fingerprint, or `undefined` past MAX_FINGERPRINT_ENTRIES entries or when a directory
 *   cannot be listed.
 */
export function startupFingerprint(paths: readonly string[]): string | undefined {
	const parts: string[] = [];
	const pending = [...paths].reverse();
	while (pending.length > 0) {
		if (parts.length >= MAX_FINGERPRINT_ENTRIES) return undefined;
		const path = pending.pop() as string;
		let stat: BigIntStats;
		try {
			stat = lstatSync(path, { bigint: true });
		} catch {
			parts.push(`${path}\u0000-`);
			continue;
		}
		parts.push(identity(path, stat));
		if (stat.isSymbolicLink()) {
			const target = followed(path);
			parts.push(target ? identity(`${path} ->`, target) : `${path} ->\u0000-`);
			if (!target) continue;
			stat = target;
		}
		if (!stat.isDirectory()) continue;
		const names = listUpTo(path, MAX_FINGERPRINT_ENTRIES - parts.length - pending.length);
		if (!names) return undefined;
		pending.push(
			...names
				.sort()
				.reverse()
				.map((name) => join(path, name)),
		);
	}
	return parts.join("\n");
}

const identity = (path: string, stat: BigIntStats) =>
	[path, stat.mode, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join("\u0000");

/** What the link `path` leads to, `undefined` when it dangles or cannot be followed. */
function followed(path: string): BigIntStats | undefined {
	try {
		return statSync(path, { bigint: true });
	} catch {
		return undefined;
	}
}

/**
 * The names in directory `path`, read one by one so that a huge directory (a hostile repository's) costs no
 * more than `room` entries; `undefined` past `room` or when it cannot be listed.
 */
function listUpTo(path: string, room: number): string[] | undefined {
	const names: string[] = [];
	let dir: ReturnType<typeof opendirSync> | undefined;
	try {
		dir = opendirSync(path);
		for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
			if (names.length >= room) return undefined;
			names.push(entry.name);
		}
		return names;
	} catch {
		return undefined;
	} finally {
		dir?.closeSync();
	}
}
