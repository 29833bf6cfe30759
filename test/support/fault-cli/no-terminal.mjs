// Exits 0 without ever emitting a terminal record.
// argv: none.
const emit = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
emit({ type: "session", id: "no-terminal" });
emit({ type: "message_update", delta: "half an answer" });
