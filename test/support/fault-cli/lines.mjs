// Echoes each stdin line as a JSON record {"type":"line","text":…}; exits 0 at EOF, or at once (code 3,
// leaving stdin unread) on the line "exit".
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on("line", (text) => {
	if (text === "exit") process.exit(3);
	process.stdout.write(`${JSON.stringify({ type: "line", text })}\n`);
});
lines.on("close", () => process.exit(0));
