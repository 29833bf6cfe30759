// Prints a record holding U+2028 and U+2029 inside a JSON string (not record breaks), then a record whose
// multi-byte characters (€ = 3 bytes, 😀 = 4 bytes) are split across two separate writes with a delay.
// argv: [delayMs=50]
const delayMs = Number(process.argv[2] ?? 50);
// JSON.stringify leaves U+2028/U+2029 raw (ES2019), so they reach the pipe unescaped.
process.stdout.write(`${JSON.stringify({ type: "session", id: "split-utf8" })}\n`);
process.stdout.write(`${JSON.stringify({ type: "message_update", delta: "line\u2028separator\u2029paragraph" })}\n`);
const bytes = Buffer.from(`${JSON.stringify({ type: "message_update", delta: "€😀€" })}\n`);
const cut = bytes.indexOf(Buffer.from("😀")) + 2; // inside the 4-byte emoji
process.stdout.write(bytes.subarray(0, cut));
setTimeout(() => {
	process.stdout.write(bytes.subarray(cut));
	process.stdout.write(`${JSON.stringify({ type: "agent_settled", aborted: false })}\n`);
}, delayMs);
