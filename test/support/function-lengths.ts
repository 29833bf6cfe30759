/**
 * Lengths of the functions in source files, read with the TypeScript compiler API (typescript 7's
 * `unstable/sync` API: a `tsgo` process parses the files; no type checking is asked for). Used by
 * test/architecture.test.ts to keep functions short.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Node, type SourceFile, SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";
import { makeTempDir } from "./temp-dir.ts";

/** One function: `file` as given, its name (`Class.method`, `outer/inner` for nested ones), its first line and length in lines. */
export interface FunctionLength {
	file: string;
	name: string;
	line: number;
	lines: number;
}

const FUNCTION_KINDS = new Set([
	SyntaxKind.FunctionDeclaration,
	SyntaxKind.FunctionExpression,
	SyntaxKind.ArrowFunction,
	SyntaxKind.MethodDeclaration,
	SyntaxKind.Constructor,
	SyntaxKind.GetAccessor,
	SyntaxKind.SetAccessor,
]);

/**
 * Every function-like node of `files` (absolute paths), from its first token to its end, nested functions
 * included on their own (and inside their outer function's length).
 */
export function functionLengths(files: readonly string[]): FunctionLength[] {
	// A throwaway project of exactly these files: no libraries, no imports followed, so parsing is all it costs.
	const dir = makeTempDir("function-lengths-");
	const config = join(dir, "tsconfig.json");
	writeFileSync(
		config,
		JSON.stringify({
			compilerOptions: { noLib: true, noResolve: true, types: [], noEmit: true, allowImportingTsExtensions: true },
			files,
		}),
	);
	const api = new API({ cwd: dir });
	try {
		const project = api.updateSnapshot({ openProjects: [config] }).getProjects()[0];
		return files.flatMap((file) => {
			const source = project.program.getSourceFile(file);
			if (!source) throw new Error(`the TypeScript API did not parse ${file}`);
			return functionsOf(source, file);
		});
	} finally {
		api.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

function functionsOf(source: SourceFile, file: string): FunctionLength[] {
	const found: FunctionLength[] = [];
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
	const visit = (node: Node, outer: string) => {
		let scope = outer;
		if (FUNCTION_KINDS.has(node.kind)) {
			const own = nameOf(node, source);
			scope = outer ? `${outer}/${own}` : own;
			const line = lineOf(node.getStart(source));
			found.push({ file, name: scope, line, lines: lineOf(node.end) - line + 1 });
		} else if (node.kind === SyntaxKind.ClassDeclaration) {
			scope = nameOf(node, source);
		}
		node.forEachChild((child) => {
			visit(child, scope);
		});
	};
	visit(source, "");
	return found;
}

/** The declared name, the variable or property a function is assigned to, or `(anonymous)`. */
function nameOf(node: Node, source: SourceFile): string {
	const named = node as Node & { name?: Node };
	if (named.name) return source.text.slice(named.name.getStart(source), named.name.end);
	if (node.kind === SyntaxKind.Constructor) return "constructor";
	const parent = node.parent as (Node & { name?: Node }) | undefined;
	if (parent?.name) return source.text.slice(parent.name.getStart(source), parent.name.end);
	return "(anonymous)";
}
