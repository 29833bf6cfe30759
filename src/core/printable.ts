/**
 * The one escaping of text a file or a child chose, at every place it is shown or returned (SECURITY.md
 * "Text from files and children"): names, paths and descriptions of agent files and roster entries, error
 * lines that quote them, job labels and the TUI's call and result lines. A control character (an escape
 * sequence, a carriage return, a newline), a format character (bidi overrides, zero-width) or a line
 * separator would otherwise let a hostile project forge lines of the screen or of the model's text.
 */

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/**
 * `text` with every control, format (bidi overrides, zero-width, tags) and line-separator character, and every
 * lone surrogate, written as `\uXXXX` (`\u{XXXXX}` above U+FFFF, one escape per character), so it stays one
 * visible line. Idempotent (a backslash is kept as it is).
 */
export function printable(text: string): string {
	return text.replace(UNPRINTABLE, (c) => {
		const code = c.codePointAt(0) ?? 0;
		return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
	});
}

/**
 * The first line of a parser's error message: the `yaml` package appends an excerpt of the source with a
 * caret on the following lines, which `printable` would show as `\u000a` escapes in a one-line problem.
 * The first line already names the line and column.
 */
export function parseErrorLine(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.split("\n", 1)[0]?.replace(/:$/, "") ?? message;
}
