const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const peers: Record<string, unknown> = {
 "@earendil-works/pi-coding-agent": await import("@earendil-works/pi-coding-agent"),
 "@earendil-works/pi-tui": await import("@earendil-works/pi-tui"),
 "@earendil-works/pi-ai": await import("@earendil-works/pi-ai"),
 typebox: await import("typebox"),
};
(globalThis as any)[Symbol.for("pi-native-subagents.peers")] = peers;
const { createRequire } = await import("node:module");
await import("/work/main/dist/runtime/details-4aaHjQYE.js"); // warm ESM loader on a tiny chunk
const t = cpu();
if (process.env.HOW === "import") await import(process.env.ENTRY ?? "/work/main/dist/runtime/extension.js");
else createRequire(import.meta.url)(process.env.ENTRY ?? "/work/main/dist/runtime/extension.js");
console.log(process.env.HOW ?? "require", (cpu() - t).toFixed(1));
