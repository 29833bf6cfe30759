/**
 * Vitest setup file (runs in each test worker before its test file): records the worker's pid in the run's
 * temp-dir ledger (test/support/temp-dir.ts), so the run and tmux directories the product made in it are
 * checked at the end of the run too.
 */
import { recordWorker } from "./temp-dir.ts";

recordWorker();
