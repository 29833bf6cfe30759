/** Lifelines in the states tests need, built through the real `WatchdogLifeline`. */
import { WatchdogLifeline } from "../../src/process/lifeline.ts";
import { waitUntil } from "./processes.ts";

/**
 * A lifeline whose watchdog (`true`, which exits at once) has used up its restarts, with nothing registered any
 * more: from now on it hands out only refusing markers. Resolves once it has said so (`warnings`, one line).
 */
export async function givenUpLifeline(): Promise<{ lifeline: WatchdogLifeline; warnings: string[] }> {
	const warnings: string[] = [];
	const lifeline = new WatchdogLifeline({ command: ["true"], warn: (message) => warnings.push(message) });
	const unregister = lifeline.register({ pgid: 1_000_001 });
	await waitUntil(() => warnings.length > 0, "the watchdog's restarts to be used up");
	unregister();
	return { lifeline, warnings };
}
