/** Types of owned-directory.mjs (see there). */

/**
 * Whether `path` itself (never followed) is a directory owned by this process's user; with `privateOnly`, also
 * writable by no group or other user. Never throws.
 */
export function ownedDirectory(path: string, privateOnly?: boolean): boolean;
