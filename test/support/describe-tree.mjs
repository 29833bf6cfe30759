/**
 * A value's tree for comparing data modules with their sources (test/package/data-modules.test.ts): every own
 * property below `value` with its attributes (enumerable, writable, configurable), `-0` told from `0`, and each
 * object named by when it was first reached, so two trees describe alike only when they hold the same values,
 * keys, order, hidden properties and sharing. Plain JavaScript: test/support/data-module-parity.mjs runs it in
 * Node directly.
 * @param {unknown} value
 * @param {Map<object, number>} [seen]
 * @returns {unknown}
 */
export function describeTree(value, seen = new Map()) {
	if (value === null || typeof value !== "object") return Object.is(value, -0) ? "-0" : value;
	const id = seen.get(value);
	if (id !== undefined) return { sameAs: id };
	seen.set(value, seen.size);
	return {
		prototype: Object.getPrototypeOf(value) === Object.prototype ? "Object" : Array.isArray(value) ? "Array" : "other",
		properties: Reflect.ownKeys(value).map((key) => {
			const descriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(value, key));
			return [
				String(key),
				descriptor.enumerable,
				descriptor.writable,
				descriptor.configurable,
				describeTree(descriptor.value, seen),
			];
		}),
	};
}
