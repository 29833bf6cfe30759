/** Questions asked of the fake model server's request log. */
import type { FakeModelServer, StepFunction } from "./fake-model/index.ts";

/**
 * Most of `requests` being answered at the same moment, from their arrival and end times (ms epoch).
 * A request still in flight counts as never ending.
 */
export function peakInFlight(requests: ReadonlyArray<{ receivedAt: number; endedAt: number | undefined }>): number {
	let peak = 0;
	for (const request of requests) {
		const overlapping = requests.filter(
			(other) =>
				other.receivedAt <= request.receivedAt && (other.endedAt ?? Number.POSITIVE_INFINITY) > request.receivedAt,
		).length;
		peak = Math.max(peak, overlapping);
	}
	return peak;
}

/**
 * A latch instead of a delay, for proving a concurrency peak: the returned step answers `text` only once
 * `count` requests made after log index `before` are in flight together, or once `total` of them have
 * arrived (the last ones, which can never reach `count`). A scheduler that allows `count` at once therefore
 * reaches exactly `count`, however slowly its children start; one that allows fewer never releases the
 * latch and the step fails after `timeoutMs` (default 40 s) with the server's timeout error.
 */
export function answerWhenInFlight(
	server: Pick<FakeModelServer, "waitFor">,
	options: { before: number; count: number; total: number; text: string; timeoutMs?: number },
): StepFunction {
	const { before, count, total, text } = options;
	return async () => {
		await server.waitFor((requests) => {
			const ours = requests.slice(before);
			return ours.filter((request) => request.endedAt === undefined).length >= count || ours.length >= total;
		}, options.timeoutMs ?? 40_000);
		return { text };
	};
}
