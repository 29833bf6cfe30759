/** Types of owned-directory.mjs (see there). */
import type { Stats } from "node:fs";

/**
 * Whether `path` itself (never followed) is a directory owned by this process's user; with `privateOnly`, also
 * writable by no group or other user. Never throws.
 */
export function ownedDirectory(path: string, privateOnly?: boolean): boolean;

/**
 * Whether what `stat` describes is owned by this process's user; with `privateOnly`, also writable by no group or
 * other user (the rule of {@link ownedDirectory}, for the stats of an open file).
 */
export function ownedStats(stat: Stats, privateOnly?: boolean): boolean;
