/**
 * An error found before anything is spawned: a bad argument, a missing path, a refused launch.
 * `problems` lists every problem found (STYLE.md: validation errors list all problems, not the first).
 */
export class LaunchError extends Error {
	readonly problems: string[];

	constructor(problems: string | string[]) {
		const list = Array.isArray(problems) ? problems : [problems];
		super(list.length === 1 ? list[0] : `${list.length} problems:\n${list.map((p) => `- ${p}`).join("\n")}`);
		this.name = "LaunchError";
		this.problems = list;
	}
}
