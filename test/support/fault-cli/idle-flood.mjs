// An idle child that floods: ignores SIGTERM, writes <megabytes> MiB of JSON lines to stdout (waiting for
// 'drain', so every byte but the last pipe buffer has been read by the parent when it is done), then creates
// <done file> and stays alive until SIGKILL. argv: <megabytes> <done file>.
import { writeFileSync } from "node:fs";

process.on("SIGTERM", () => {});
const total = Number(process.argv[2]) * 1024 * 1024;
const doneFile = process.argv[3];
const batch = `${JSON.stringify({ type: "noise", text: "z".repeat(1000) })}\n`.repeat(64);
let written = 0;
const pump = () => {
	while (written < total) {
		written += batch.length;
		if (!process.stdout.write(batch)) return process.stdout.once("drain", pump);
	}
	process.stdout.write("\n", () => writeFileSync(doneFile, String(written)));
};
pump();
setInterval(() => {}, 1_000_000);
