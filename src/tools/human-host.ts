/**
 * Human gates through Pi's UI (docs/graphs.md §Human gates): a select over the choices, else an input
 * line; Escape (no answer) refuses. Without a UI (print or JSON mode) there is no one to ask.
 */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { HumanHost } from "../graph/gate-hosts.ts";

/** The human host of a graph run started from `ctx`. */
export function uiHumanHost(ctx: ExtensionContext): HumanHost {
	return {
		hasUI: () => ctx.hasUI,
		async ask(request, signal) {
			const retry = request.invalid ? ` (${request.invalid}; answer again)` : "";
			const title = `agent_graph ${request.node}: ${request.question}${retry}`;
			const answer = request.choices
				? await ctx.ui.select(title, request.choices, { signal })
				: await ctx.ui.input(title, request.schema ? "a JSON value for the node's output_schema" : undefined, {
						signal,
					});
			return answer === undefined ? { declined: true } : { answer };
		},
	};
}
