// Floods stdout with pi-like message_update records, then emits the terminal record and exits.
// argv: <megabytes> [recordBytes=512] — total size (MiB, fractions allowed) and approximate record size.
// The terminal record reports how many message_update records and bytes were written.
// Writes in ~64 KiB batches and waits for 'drain', so it never buffers more than one batch itself.
const total = Number(process.argv[2] ?? 10) * 1024 * 1024;
const recordBytes = Number(process.argv[3] ?? 512);
const record = `${JSON.stringify({ type: "message_update", delta: "y".repeat(Math.max(0, recordBytes - 45)) })}\n`;
const perBatch = Math.max(1, Math.floor(65_536 / record.length));
const batch = record.repeat(perBatch);
process.stdout.write(`${JSON.stringify({ type: "session", id: "flood" })}\n`);
let written = 0;
let records = 0;
const pump = () => {
	while (written < total) {
		written += batch.length;
		records += perBatch;
		if (!process.stdout.write(batch)) return process.stdout.once("drain", pump);
	}
	process.stdout.write(`${JSON.stringify({ type: "agent_settled", aborted: false, bytes: written, records })}\n`);
};
pump();
