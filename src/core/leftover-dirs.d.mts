/** Types of leftover-dirs.mjs (see there). */

/** `pi-native-subagents-run-`: name prefix of a child's run directory. */
export const RUN_DIR_PREFIX: string;
/** `pi-subagents-tmux-`: name prefix of a Pi process's tmux socket directory. */
export const TMUX_DIR_PREFIX: string;
/**
 * Removes the directories under `parent` named `<prefix><pid>-XXXXXX` whose maker `gone(pid)` says is gone, when
 * each is a real directory (never a symlink) owned by this user; returns the names removed. Never throws.
 */
export function removeLeftoverDirs(parent: string, gone: (pid: number) => boolean): string[];
