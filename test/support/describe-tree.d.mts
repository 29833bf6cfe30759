/** Types of test/support/describe-tree.mjs. */
export declare function describeTree(value: unknown, seen?: Map<object, number>): unknown;
