/**
 * Which definition each agent name selects (docs/agent-libraries.md §Selecting an agent, docs/rules.md §Agent
 * definitions). Names and `aliases` share one name space:
 *
 * - in one directory, two files claiming one name (each as its name or an alias; a file that failed to load
 *   claims its file name) are both unusable until one is renamed, each told why;
 * - across directories, a name is taken by the first directory in precedence order that claims it: a plain
 *   name by any format, `pi:<name>` (and the other formats) by a file of that format. A definition whose name is
 *   taken is shadowed; a file that failed to load still takes its names, so nothing runs in its place.
 */
import { AGENT_FORMATS, type AgentDefinition, type AgentFileError, type ShadowedAgent } from "./agent-definition.ts";

/** One file of a directory and the names it claims: a definition that loaded, or a file that failed to. */
export interface NameClaim {
	filePath: string;
	name: string;
	aliases: readonly string[];
	/** The definition, when the file loaded. */
	agent?: AgentDefinition;
}

const UNUSED = "neither file is used until one is renamed";

/**
 * The problems of a definition's name and aliases that a selector would read otherwise: `claude:foo` is format
 * `claude` and name `foo` (docs/agent-libraries.md §Selecting an agent), so such a name never selects its file.
 */
export function selectorNameProblems(agent: AgentDefinition): string[] {
	const entries: Array<[string, string]> = [
		["name", agent.name],
		...agent.aliases.map((a): [string, string] => ["aliases", a]),
	];
	return entries.flatMap(([key, name]) => {
		const format = AGENT_FORMATS.find((candidate) => name.startsWith(`${candidate}:`));
		if (format === undefined) return [];
		const rest = name.slice(format.length + 1);
		return [
			`${key}: "${name}" would be read as format "${format}" and name "${rest}" when selected; choose a name without "${format}:"`,
		];
	});
}

/**
 * The claims of one directory, in the order its files are read, that claim a name an earlier one claimed:
 * both unusable. Returns each such file's problems (`name: "x" is already defined by <file>; …`), by file path.
 */
export function nameClashes(claims: readonly NameClaim[]): Map<string, string[]> {
	const claimedBy = new Map<string, NameClaim>();
	const problemsOf = new Map<string, string[]>();
	const complain = (claim: NameClaim, problem: string) =>
		problemsOf.set(claim.filePath, [...(problemsOf.get(claim.filePath) ?? []), problem]);
	const keyOf = (claim: NameClaim, name: string) => (claim.name === name ? "name" : "aliases");
	for (const claim of claims) {
		for (const name of new Set([claim.name, ...claim.aliases])) {
			const earlier = claimedBy.get(name);
			if (earlier === undefined) {
				claimedBy.set(name, claim);
				continue;
			}
			const [key, earlierKey] = [keyOf(claim, name), keyOf(earlier, name)];
			const failed = earlier.agent ? "" : " (which failed to load)";
			if (key === "name" && earlierKey === "name") {
				complain(claim, `name: "${name}" is already defined by ${earlier.filePath}${failed}; ${UNUSED}`);
				complain(earlier, `name: "${name}" is also defined by ${claim.filePath}; ${UNUSED}`);
				continue;
			}
			const role = earlierKey === "name" ? "the name" : "an alias";
			complain(claim, `${key}: "${name}" is already ${role} of ${earlier.filePath}${failed}; ${UNUSED}`);
			complain(earlier, `${earlierKey}: "${name}" is also claimed by ${claim.filePath}; ${UNUSED}`);
		}
	}
	return problemsOf;
}

/** What every name selects, from each directory's definitions and errors in precedence order. */
export interface NameResolution {
	/** The selectable definitions (one per name), in precedence order. */
	selectable: AgentDefinition[];
	/** Plain names and aliases to the definition they select. */
	selects: Map<string, AgentDefinition>;
	/** `<format>:<name or alias>` to the definition it selects (shadowed ones included). */
	selectsOfFormat: Map<string, AgentDefinition>;
	/** Plain and format-qualified names taken by a file that failed to load. */
	blocked: Map<string, AgentFileError>;
	shadowed: ShadowedAgent[];
}

/** Resolves the names of each directory's `agents` and `errors`, highest precedence first. */
export function resolveNames(
	directories: ReadonlyArray<{ agents: readonly AgentDefinition[]; errors: readonly AgentFileError[] }>,
): NameResolution {
	const result: NameResolution = {
		selectable: [],
		selects: new Map(),
		selectsOfFormat: new Map(),
		blocked: new Map(),
		shadowed: [],
	};
	const { selects, selectsOfFormat, blocked } = result;
	const freePlain = (name: string) => !selects.has(name) && !blocked.has(name);
	const freeQualified = (key: string) => !selectsOfFormat.has(key) && !blocked.has(key);
	for (const { agents, errors } of directories) {
		// A directory's names first, then what its failed files hold, then its aliases: a name beats an alias.
		for (const agent of agents) {
			const qualified = `${agent.format}:${agent.name}`;
			if (freeQualified(qualified)) selectsOfFormat.set(qualified, agent);
			const winner = selects.get(agent.name)?.filePath ?? blocked.get(agent.name)?.filePath;
			if (winner) {
				result.shadowed.push({ agent, by: winner });
				continue;
			}
			result.selectable.push(agent);
			selects.set(agent.name, agent);
		}
		for (const error of errors) {
			for (const name of error.name === undefined ? [] : [error.name, ...(error.aliases ?? [])]) {
				if (freePlain(name)) blocked.set(name, error);
				if (freeQualified(`${error.format}:${name}`)) blocked.set(`${error.format}:${name}`, error);
			}
		}
		for (const agent of agents) {
			for (const alias of agent.aliases) {
				if (selects.get(agent.name) === agent && freePlain(alias)) selects.set(alias, agent);
				if (freeQualified(`${agent.format}:${alias}`)) selectsOfFormat.set(`${agent.format}:${alias}`, agent);
			}
		}
	}
	return result;
}
