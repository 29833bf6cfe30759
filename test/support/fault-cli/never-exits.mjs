// Emits a session and its terminal record, then stays alive forever (a harness that never exits).
// argv: none.
const emit = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
emit({ type: "session", id: "never-exits" });
emit({ type: "agent_settled", aborted: false });
setInterval(() => {}, 1_000_000);
