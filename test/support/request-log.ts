/** Questions asked of the fake model server's request log. */

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
