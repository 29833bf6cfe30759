/**
 * How to start the same Pi the user runs (docs/harness-support.md §How each CLI is driven).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getPackageDir } from "@earendil-works/pi-coding-agent";
import { type NativeCommand, parseCommandOverride } from "../native-command.ts";

/** `file` plus leading `args` that start Pi; the adapter appends Pi's own flags. */
export type PiInvocation = NativeCommand;

/** Overrides how pi children are started: a JSON array of strings, e.g. `["node","/path/to/pi/cli.js"]`. */
export const PI_COMMAND_ENV = "PI_NATIVE_SUBAGENTS_PI_COMMAND";

let cached: PiInvocation | undefined;

/**
 * Resolves the running Pi: the current Node executable plus the `pi` bin script of the
 * `@earendil-works/pi-coding-agent` package that loaded this extension. A single-file Pi binary
 * (no package.json beside it, e.g. Bun-compiled) is started as `process.execPath` itself.
 * `PI_NATIVE_SUBAGENTS_PI_COMMAND` (a JSON array of strings) overrides the detection.
 *
 * @throws ConfigError when the override is not a non-empty JSON array of strings.
 */
export function resolvePiInvocation(env: NodeJS.ProcessEnv = process.env): PiInvocation {
	const override = env[PI_COMMAND_ENV];
	if (override) return parseCommandOverride(PI_COMMAND_ENV, override, '["node","/path/to/pi/cli.js"]');
	if (cached) return cached;
	const packageDir = getPackageDir();
	let bin: string | undefined;
	try {
		const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
			bin?: string | Record<string, string>;
		};
		bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
	} catch {
		bin = undefined;
	}
	cached = bin ? { file: process.execPath, args: [join(packageDir, bin)] } : { file: process.execPath, args: [] };
	return cached;
}
