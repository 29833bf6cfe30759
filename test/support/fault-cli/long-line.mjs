// Prints a record, one over-long JSON record of about <bytes> bytes, then more records and the terminal one.
// argv: <bytes> — size of the long record.
const size = Number(process.argv[2] ?? 1_000_000);
const emit = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
emit({ type: "session", id: "long-line" });
emit({ type: "message_update", delta: "x".repeat(size) });
emit({ type: "message_update", delta: "after" });
emit({ type: "agent_settled", aborted: false });
