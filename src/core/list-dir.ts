/** Listing a directory that may be missing or unreadable, for sweeps that look again at the next start. */
import { readdirSync } from "node:fs";

/** The names in `dir`, or `[]` when it cannot be read (missing, not a directory, no permission). */
export function listDirOrEmpty(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}
