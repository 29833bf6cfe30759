// Spawns a grandchild that inherits stdout/stderr (so it holds the pipes open) and ignores SIGTERM.
// argv: <exit|stay> [own-group]
//   exit: the parent emits its records and exits at once, leaving the grandchild behind;
//   stay: the parent stays alive too (for abort/timeout tests);
//   own-group: the grandchild is detached into its own session and process group (setsid; escapes group
//              kills, but carries the run marker in its environment, so the leader-exit sweep finds it);
//   own-group-clean-env: as own-group, with an empty environment (no run marker: nothing finds it once its
//              parent is gone; the test must kill it itself).
// Emits {"type":"grandchild","pid":N} before anything else that matters.
import { spawn } from "node:child_process";

const [mode = "exit", group] = process.argv.slice(2);
const grandchild = spawn(
	process.execPath,
	["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1_000_000);"],
	{
		stdio: ["ignore", "inherit", "inherit"],
		detached: group?.startsWith("own-group"),
		...(group === "own-group-clean-env" ? { env: {} } : {}),
	},
);
grandchild.unref();
const emit = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
emit({ type: "session", id: "grandchild" });
emit({ type: "grandchild", pid: grandchild.pid });
if (mode === "exit") {
	emit({ type: "agent_settled", aborted: false });
	process.exit(0);
}
setInterval(() => {}, 1_000_000);
