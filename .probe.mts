const root = import.meta.dirname; const INSTALLED = process.env.INST;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const peers: Record<string, unknown> = {
 "@earendil-works/pi-coding-agent": await import("@earendil-works/pi-coding-agent"),
 "@earendil-works/pi-tui": await import("@earendil-works/pi-tui"),
 "@earendil-works/pi-ai": await import("@earendil-works/pi-ai"),
 typebox: await import("typebox"),
};
(globalThis as any)[Symbol.for("pi-native-subagents.peers")] = peers;
const t0 = cpu();
const nb = await import(root + "/src/core/native-bundle.ts");
const t1 = cpu();
const b = nb.loadFreshBundle(root, peers);
const t2 = cpu();
const pi = { on() {}, registerTool() {}, registerCommand() {}, registerMessageRenderer() {}, registerShortcut() {}, registerFlag() {}, events: { on() {}, emit() {} } };
b.module.default(pi);
const t3 = cpu();
console.log(JSON.stringify({ nativeBundleTs: +(t1 - t0).toFixed(1), loadBundle: +(t2 - t1).toFixed(1), factory: +(t3 - t2).toFixed(1), problem: b.problem }));
