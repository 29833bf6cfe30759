// A stand-in for `pi --mode json` that streams <megabytes> MB (10^6 bytes) of pi-shaped output: messages of
// text deltas (~512 bytes each), each message ended by a message_end carrying its whole text (as pi does),
// then a short final answer and agent_settled. Pi's own flags that follow are ignored; stdin (the task) is
// read and discarded. Exits 0 once everything is flushed. Writes in ~64 KiB batches and waits for 'drain', so it never buffers more itself.
// argv: <megabytes> [messageBytes=262144]
// Only the leading numeric arguments are ours; pi's flags follow.
const [megabytes = 10, messageBytes = 256 * 1024] = process.argv
	.slice(2)
	.filter((arg) => /^\d+(\.\d+)?$/.test(arg))
	.map(Number);
const total = megabytes * 1e6;
process.stdin.resume();
process.stdin.on("data", () => {});

const piece = "flood text ".repeat(46);
const delta = `${JSON.stringify({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: piece } })}\n`;
const perMessage = Math.max(1, Math.floor(messageBytes / piece.length));
const message = (text) =>
	`${JSON.stringify({
		type: "message_end",
		message: {
			role: "assistant",
			content: [{ type: "text", text }],
			usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.001 } },
			stopReason: "stop",
		},
	})}\n`;
const fullMessage = message(piece.repeat(perMessage));
const batchDeltas = Math.max(1, Math.floor(65_536 / delta.length));
const write = (text) =>
	new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once("drain", resolve)));

await write(`${JSON.stringify({ type: "session", id: "pi-flood" })}\n`);
let written = 0;
while (written < total) {
	for (let sent = 0; sent < perMessage; sent += batchDeltas) {
		const batch = delta.repeat(Math.min(batchDeltas, perMessage - sent));
		written += batch.length;
		await write(batch);
	}
	written += fullMessage.length;
	await write(fullMessage);
}
await write(message(`flood done: ${written} bytes`));
await write(`${JSON.stringify({ type: "agent_settled", aborted: false })}\n`);
// No process.exit(): it would drop what is still queued for the pipe. Ending stdin lets Node exit once
// stdout is flushed.
process.stdin.destroy();
