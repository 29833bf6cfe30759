/**
 * What crosses from the parent into a tmux pane (SECURITY.md "tmux socket (interactive runs)"; docs/harness-support.md
 * "Interactive runs"): the text typed into a pane, and the environment the tmux server itself holds.
 */

/** The bracketed-paste start and end markers (`ESC[200~`, `ESC[201~`), wherever they occur. */
const ESC = "\u001b";
const PASTE_MARKER = new RegExp(`${ESC}\\[20[01]~`, "g");

/**
 * `text` without any bracketed-paste marker: an end marker inside a paste would end it early and have
 * the rest typed as raw keystrokes (a carriage return there submits). Removed until none is left, since
 * removing one can join the parts of another (`ESC[20` + `ESC[201~` + `1~`).
 */
export function withoutPasteMarkers(text: string): string {
	let before: string;
	let out = text;
	do {
		before = out;
		out = out.replace(PASTE_MARKER, "");
	} while (out !== before);
	return out;
}

/** What a tmux client and the server it starts need of the parent's environment: a path and a locale. */
const SERVER_VARIABLES = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TMPDIR", "TZ"];

/**
 * The environment every tmux command of the host runs with, and so the one the server keeps as its global
 * environment (`tmux show-environment -g`): only {@link SERVER_VARIABLES} and `LC_*` of `base`, never the
 * rest of the parent's (its secrets, whatever `environment.exclude` says). Panes get the child environment
 * from the pane launcher instead.
 * @param base default `process.env`.
 */
export function serverEnvironment(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [name, value] of Object.entries(base)) {
		if (value !== undefined && (SERVER_VARIABLES.includes(name) || name.startsWith("LC_"))) env[name] = value;
	}
	return env;
}
