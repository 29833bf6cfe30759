import { createRequire } from "node:module";
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const peers: Record<string, unknown> = {
 "@earendil-works/pi-coding-agent": await import("@earendil-works/pi-coding-agent"),
 "@earendil-works/pi-tui": await import("@earendil-works/pi-tui"),
 "@earendil-works/pi-ai": await import("@earendil-works/pi-ai"),
 typebox: await import("typebox"),
};
(globalThis as any)[Symbol.for("pi-native-subagents.peers")] = peers;
const req = createRequire(import.meta.url);
const order = (process.env.ORDER ?? "").split(",").filter(Boolean);
const times: string[] = [];
for (const f of order) { const t = cpu(); req(`/work/main/dist/runtime/${f}`); times.push(`${f}:${(cpu() - t).toFixed(1)}`); }
const t = cpu(); req("/work/main/dist/runtime/extension.js"); times.push(`extension:${(cpu() - t).toFixed(1)}`);
console.log(times.join(" "));
