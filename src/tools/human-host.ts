/**
 * Human gates through Pi's UI (docs/graphs.md §Human gates): a select over the choices, else an input
 * line; Escape (no answer) refuses. Without a UI (print or JSON mode) there is no one to ask.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { printable } from "../core/printable.ts";
import type { HumanHost } from "../graph/gate-hosts.ts";

/** The human host of a graph run started from `ctx`. */
export function uiHumanHost(ctx: ExtensionContext): HumanHost {
	return {
		hasUI: () => ctx.hasUI,
		async ask(request, signal) {
			const retry = request.invalid ? ` (${request.invalid}; answer again)` : "";
			// The graph file chose the node, the question and the choices: each shown as one visible line (SECURITY.md
			// "Text from files and children"); the answer is the choice as the file wrote it.
			const title = printable(`agent_graph ${request.node}: ${request.question}${retry}`);
			if (request.choices) {
				const shown = request.choices.map(printable);
				const picked = await ctx.ui.select(title, shown, { signal });
				const index = picked === undefined ? -1 : shown.indexOf(picked);
				return index < 0 ? { declined: true } : { answer: request.choices[index] };
			}
			const schemaHint = request.schema ? "a JSON value for the node's output_schema" : undefined;
			const answer = await ctx.ui.input(title, schemaHint, { signal });
			return answer === undefined ? { declined: true } : { answer };
		},
	};
}
