/**
 * `npm run bench`: prints each benchmark's numbers. The RSS bench runs first, before the framing bench
 * allocates its synthetic stream, so its baseline is not inflated.
 */
import { benchChildRss, benchFraming } from "./framing.ts";

const fixed = (value: number, digits = 1) => value.toFixed(digits);

const rss = await benchChildRss(500);
console.log(
	`process core, 1 child flooding ${fixed(rss.bytes / 1e6, 0)} MB (${rss.records} records) in ${fixed(rss.seconds)} s: ` +
		`parent RSS ${fixed(rss.baselineRssMB)} → peak ${fixed(rss.peakRssMB)} MB (growth ${fixed(rss.growthMB)} MB)`,
);

const framing = await benchFraming();
console.log(
	`framing ${fixed(framing.bytes / 1e6, 0)} MB in 64 KiB chunks (${framing.records} records): ` +
		`split2 + JSON step ${fixed(framing.oursMBps)} MB/s, plain split/JSON.parse ${fixed(framing.plainMBps)} MB/s, ` +
		`ratio ${fixed(framing.ratio, 2)}`,
);
