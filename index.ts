/**
 * The package's Pi entry point (`package.json` `pi.extensions`). It lives at the package root so Pi lists
 * the extension under the package's name (an npm or git install) or its directory's name (a local path)
 * rather than as `src`; the wiring is in src/index.ts.
 */
export { default } from "./src/index.ts";
