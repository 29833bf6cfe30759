// Reports what it received: stdin (length in bytes and sha256), argv, cwd and the environment.
// argv: anything (echoed). Writes <argv...> to stderr as well when the first argument is "stderr:<KiB>":
// that many KiB of filler followed by the line "END-OF-STDERR".
import { createHash } from "node:crypto";

const args = process.argv.slice(2);
const stderrKiB = args[0]?.startsWith("stderr:") ? Number(args[0].slice(7)) : 0;
if (stderrKiB > 0) process.stderr.write(`${"e".repeat(1023)}\n`.repeat(stderrKiB));
if (stderrKiB > 0) process.stderr.write("END-OF-STDERR\n");
const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
	const stdin = Buffer.concat(chunks);
	const sha256 = createHash("sha256").update(stdin).digest("hex");
	const record = { type: "echo", stdinBytes: stdin.length, sha256, args, cwd: process.cwd(), env: process.env };
	process.stdout.write(`${JSON.stringify(record)}\n`);
	process.stdout.write(`${JSON.stringify({ type: "agent_settled", aborted: false })}\n`);
});
