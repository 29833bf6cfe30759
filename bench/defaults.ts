/**
 * The package's own defaults, as a call with no settings file gets them (src/config/effective-limits.ts over
 * `DEFAULT_SETTINGS`): the limits every benchmark's runs use, so no figure is measured under stale values.
 */
import { effectiveLimits } from "../src/config/effective-limits.ts";
import { DEFAULT_SETTINGS } from "../src/config/settings.ts";

export const DEFAULT_LIMITS = effectiveLimits(DEFAULT_SETTINGS);
