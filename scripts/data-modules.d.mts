/** Types of scripts/data-modules.mjs (the bundle's data modules). */
export declare const DATA_MODULES: readonly string[];
export declare function dataModuleCode(exports: Record<string, unknown>, file: string): string;
export declare function dataModule(file: string): Promise<string>;
export declare function usePiTypebox(): void;
