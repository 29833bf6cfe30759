/** Reads a named-event SSE body (`event: <name>\ndata: <JSON>\n\n`) as the fake model server writes it. */

/** One SSE frame: the `event:` name and the parsed `data:` JSON. */
export interface SseFrame {
	event: string;
	data: Record<string, unknown>;
}

/** POST `body` as JSON to `url` and parse the streamed answer into frames. */
export async function postSse(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SseFrame[]> {
	const response = await fetch(url, {
		method: "POST",
		headers: { "content-type": "application/json", ...headers },
		body: JSON.stringify(body),
	});
	if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
		throw new Error(`expected an event stream, got HTTP ${response.status}: ${await response.text()}`);
	}
	return parseSse(await response.text());
}

export function parseSse(text: string): SseFrame[] {
	return text
		.split("\n\n")
		.filter((frame) => frame.trim().length > 0)
		.map((frame) => {
			const lines = frame.split("\n");
			const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "";
			const data = lines.find((line) => line.startsWith("data: "))?.slice(6) ?? "{}";
			return { event, data: JSON.parse(data) as Record<string, unknown> };
		});
}
