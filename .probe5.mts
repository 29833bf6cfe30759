const peers: Record<string, unknown> = {
 "@earendil-works/pi-coding-agent": await import("@earendil-works/pi-coding-agent"),
 "@earendil-works/pi-tui": await import("@earendil-works/pi-tui"),
 "@earendil-works/pi-ai": await import("@earendil-works/pi-ai"),
 typebox: await import("typebox"),
};
(globalThis as any)[Symbol.for("pi-native-subagents.peers")] = peers;
const { createRequire } = await import("node:module");
const req = createRequire(import.meta.url);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const dir = "/tmp/instN/node_modules/pi-native-subagents/dist/runtime/";
const { readdirSync } = await import("node:fs");
const deps = ["pi-coding-agent-", "printable-", "format-", "launch-spec-", "nearest-name-", "pi-ai-"];
for (const d of deps) req(dir + readdirSync(dir).find((f) => f.startsWith(d))!);
const ti = readdirSync(dir).find((f) => f.startsWith("tool-info-"))!;
const t = cpu(); req(dir + ti); console.log("tool-info", (cpu() - t).toFixed(1));
