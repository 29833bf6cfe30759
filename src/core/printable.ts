/**
 * The one escaping of text a file or a child chose, at every place it is shown or returned (SECURITY.md
 * "Text from files and children"): names, paths and descriptions of agent files and roster entries, error
 * lines that quote them, job labels and the TUI's call and result lines. A control character (an escape
 * sequence, a carriage return, a newline), a format character (bidi overrides, zero-width) or a line
 * separator would otherwise let a hostile project forge lines of the screen or of the model's text.
 */

const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/**
 * `text` with every control, format (bidi overrides, zero-width) and line-separator character written as
 * `\uXXXX`, so it stays one visible line. Idempotent (a backslash is kept as it is).
 */
export function printable(text: string): string {
	return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
