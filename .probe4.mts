const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = cpu();
const m = await import("/work/main/dist/runtime/" + process.env.CHUNK);
const t1 = cpu();
m.sweepAtSessionStart?.("abc") ?? Object.values(m).find((f: any) => f?.name === "sweepAtSessionStart");
const t2 = cpu();
const { readdirSync } = await import("node:fs"); const { tmpdir } = await import("node:os");
const t3 = cpu(); const n = readdirSync(tmpdir()).length; const t4 = cpu();
console.log(`import ${(t1 - t0).toFixed(1)} sweep ${(t2 - t1).toFixed(1)} readdir(${n}) ${(t4 - t3).toFixed(1)}`, Object.keys(m));
