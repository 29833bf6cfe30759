/**
 * The first program of an interactive child's tmux pane (docs/interactive.md). It reads the
 * launch file named by its one argument (JSON `{file, args, env, cwd}`, mode 0600, written by
 * `run-interactive.ts`), deletes it, and replaces itself with the harness (`process.execve`), so the
 * harness TUI becomes the pane's own process with exactly the child environment: no shell in between,
 * and no environment value on any command line. tmux's terminal type (TERM, COLORTERM) is kept; the
 * variables naming the tmux server and pane are not.
 * Exits 127 with a message on the pane when the harness cannot be started.
 */
import { accessSync, constants, readFileSync, rmSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

// Not TMUX or TMUX_PANE: they would lead the child to the server (SECURITY.md "tmux socket (interactive runs)").
const TERMINAL_VARIABLES = ["TERM", "COLORTERM"];

function resolveExecutable(file, path) {
	if (file.includes("/")) return file;
	for (const dir of (path ?? "").split(delimiter)) {
		if (!dir || !isAbsolute(dir)) continue;
		const candidate = join(dir, file);
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// not here
		}
	}
	throw new Error(`${file} was not found on the child's PATH`);
}

const launchFile = process.argv[2];
try {
	const launch = JSON.parse(readFileSync(launchFile, "utf8"));
	rmSync(launchFile, { force: true });
	const env = { ...launch.env };
	for (const name of TERMINAL_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
	process.chdir(launch.cwd);
	process.execve(resolveExecutable(launch.file, env.PATH), [launch.file, ...launch.args], env);
} catch (error) {
	process.stderr.write(`pi-native-subagents: cannot start the child: ${error.message}\n`);
	process.exit(127);
}
