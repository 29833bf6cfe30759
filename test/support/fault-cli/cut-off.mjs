// Prints a record, then the start of another one with no end and no LF, and exits 0.
// argv: none.
process.stdout.write(`${JSON.stringify({ type: "session", id: "cut-off" })}\n`);
process.stdout.write('{"type":"message_update","delta":"never fini');
