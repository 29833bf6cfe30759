/**
 * The stdout lines of a headless child that were not JSON (docs/rules.md §Child processes): counted, the
 * last kept, so a run that ends without a terminal event can say what the program printed instead of the
 * harness's records (a wrong command override prints its usage). Pure.
 */
export class NonJsonLines {
	#count = 0;
	#last = "";

	add(line: string): void {
		this.#count++;
		this.#last = line;
	}

	/** `; its stdout had N lines that are not JSON, the last: "…"` (200 characters), or "" when it had none. */
	describe(): string {
		if (this.#count === 0) return "";
		const shown = this.#last.length > 200 ? `${this.#last.slice(0, 200)}…` : this.#last;
		const lines = this.#count === 1 ? "1 line that is" : `${this.#count} lines that are`;
		return `; its stdout had ${lines} not JSON, the last: ${JSON.stringify(shown)}`;
	}
}
