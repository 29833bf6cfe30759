/** The deferred-load queue (src/core/deferred.ts): one load at a time, a failed load named and not blocking. */
import { describe, expect, it } from "vitest";
import { deferred, loadSerially, remembered } from "../../src/core/deferred.ts";

/** A promise and the functions that settle it. */
function latch<T>() {
	let resolve!: (value: T) => void;
	let reject!: (error: Error) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

describe("deferred loads", () => {
	it("starts a queued load only once the load before it has settled, in the order queued", async () => {
		const first = latch<string>();
		const started: string[] = [];
		const a = loadSerially(() => {
			started.push("a");
			return first.promise;
		});
		const b = loadSerially(async () => {
			started.push("b");
			return "b";
		});
		await Promise.resolve();
		expect(started).toEqual(["a"]);
		first.resolve("a");
		expect(await Promise.all([a, b])).toEqual(["a", "b"]);
		expect(started).toEqual(["a", "b"]);
	});

	it("rejects every call of a module that failed to load with its error, and runs the loads queued after it", async () => {
		let attempts = 0;
		const broken = deferred(async () => {
			attempts++;
			throw new Error("Cannot find module './tools/tools.ts'");
		});
		const firstCall = broken();
		const after = loadSerially(async () => "loaded after the failure");
		await expect(firstCall).rejects.toThrow("Cannot find module './tools/tools.ts'");
		await expect(broken()).rejects.toThrow("Cannot find module './tools/tools.ts'");
		expect(await after).toBe("loaded after the failure");
		expect(attempts).toBe(1);
	});

	it("gives two first calls made at once the same load", async () => {
		let loads = 0;
		const module = deferred(async () => ({ n: ++loads }));
		const [x, y] = await Promise.all([module(), module()]);
		expect(x).toBe(y);
		expect(loads).toBe(1);
	});

	it("makes a remembered value once, also when made from inside a queued load", async () => {
		let made = 0;
		const value = remembered(() => ++made);
		expect(await loadSerially(async () => value())).toBe(1);
		expect(value()).toBe(1);
		expect(made).toBe(1);
	});
});
