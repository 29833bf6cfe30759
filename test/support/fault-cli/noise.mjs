// Prints pi-like records with non-JSON noise, blank lines and a CRLF-terminated record between them.
// argv: none.
const out = (text) => process.stdout.write(text);
out(`${JSON.stringify({ type: "session", id: "noise" })}\n`);
out("Debugger listening on ws://127.0.0.1:9229\n");
out("\n");
out(`${JSON.stringify({ type: "message_update", delta: "crlf" })}\r\n`);
out("   \n");
out("warning: something odd {not json}\n");
out(`${JSON.stringify({ type: "agent_settled", aborted: false })}\n`);
