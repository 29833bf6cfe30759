// Ignores SIGTERM (logging it to stderr) and never exits; only SIGKILL ends it.
// argv: none. Emits {"type":"ready"} once the handler is installed, so a test can abort after that.
process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
const emit = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
emit({ type: "session", id: "ignores-sigterm" });
emit({ type: "ready" });
setInterval(() => {}, 1_000_000);
