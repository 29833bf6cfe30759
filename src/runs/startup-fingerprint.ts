/**
 * The state of the files a child reads when it starts, as one string (warm children, docs/settings.md §Warm
 * pi children): two fingerprints are equal only when no listed file or directory, nor anything below one,
 * was created, removed, written or replaced between them.
 */
import { type BigIntStats, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Entries a fingerprint looks at, at most: a larger tree is not fingerprinted (its launch is not warmed). */
export const MAX_FINGERPRINT_ENTRIES = 5000;

/**
 * Each path's identity and change times (inode, size, mtime and ctime in ns; ctime moves on any write,
 * rename or permission change and cannot be set back), directories walked depth first without following
 * links; an absent path counts as absent.
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
		parts.push([path, stat.mode, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].join("\u0000"));
		if (!stat.isDirectory()) continue;
		try {
			const names = readdirSync(path).sort().reverse();
			pending.push(...names.map((name) => join(path, name)));
		} catch {
			return undefined;
		}
	}
	return parts.join("\n");
}
