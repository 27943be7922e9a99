/** Typed arrays that double when full: the index grows one slot or posting at a time. */
type TypedArray = Int8Array | Uint8Array | Uint16Array | Int32Array | Float32Array | Float64Array;
type TypedArrayConstructor<T extends TypedArray> = new (length: number) => T;

/** A copy of `array` with room for at least `needed` elements (the same array when it already has). */
export function ensureCapacity<T extends TypedArray>(
  array: T,
  needed: number,
  Constructor: TypedArrayConstructor<T>,
): T {
  if (needed <= array.length) return array;
  const grown = new Constructor(Math.max(needed, array.length * 2, 16));
  grown.set(array as never);
  return grown;
}
