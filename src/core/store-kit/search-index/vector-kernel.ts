/**
 * The inner loop of vector search: the `k` rows of an int8 matrix with the largest dot
 * product with an int8 query. usearch does it with SIMD from its prebuilt binaries; where
 * usearch is not installed (it is an optional dependency) a JavaScript loop does the same,
 * about twenty times slower.
 */
export interface VectorKernel {
  /** `usearch` or `javascript`. */
  readonly name: 'usearch' | 'javascript';
  /** Rows of `matrix` (`rows` × `dimensions`) with the largest dot product with `query`, best first. */
  nearest(matrix: Int8Array, rows: number, dimensions: number, query: Int8Array, k: number): Int32Array;
}

interface UsearchModule {
  exactSearch(
    dataset: Int8Array,
    queries: Int8Array,
    dimensions: number,
    count: number,
    metric: string,
    threads?: number,
  ): { keys: ArrayLike<bigint | number> };
}

const javascriptKernel: VectorKernel = {
  name: 'javascript',
  nearest(matrix, rows, dimensions, query, k) {
    const take = Math.min(k, rows);
    const bestRows = new Int32Array(take);
    const bestDots = new Float64Array(take);
    let held = 0;
    for (let row = 0; row < rows; row++) {
      let dot = 0;
      const offset = row * dimensions;
      for (let i = 0; i < dimensions; i++) dot += matrix[offset + i]! * query[i]!;
      if (held === take && dot <= bestDots[held - 1]!) continue;
      // Insertion into a short sorted list: k is in the hundreds, rows in the hundreds of thousands.
      let at = held < take ? held++ : held - 1;
      while (at > 0 && bestDots[at - 1]! < dot) {
        bestDots[at] = bestDots[at - 1]!;
        bestRows[at] = bestRows[at - 1]!;
        at--;
      }
      bestDots[at] = dot;
      bestRows[at] = row;
    }
    return bestRows.subarray(0, held);
  },
};

function usearchKernel(usearch: UsearchModule): VectorKernel {
  return {
    name: 'usearch',
    nearest(matrix, rows, dimensions, query, k) {
      const take = Math.min(k, rows);
      if (take === 0) return new Int32Array(0);
      // Inner product: the vectors are normalised before quantising, so it ranks as cosine does.
      const { keys } = usearch.exactSearch(matrix.subarray(0, rows * dimensions), query, dimensions, take, 'ip', 1);
      const found = new Int32Array(keys.length);
      for (let i = 0; i < keys.length; i++) found[i] = Number(keys[i]);
      return found;
    },
  };
}

let loading: Promise<VectorKernel> | undefined;

/** usearch when it loads, else the JavaScript loop; `reason` says why usearch did not. */
export function loadVectorKernel(
  preference: 'auto' | 'javascript',
  onFallback: (reason: string) => void,
): Promise<VectorKernel> {
  if (preference === 'javascript') return Promise.resolve(javascriptKernel);
  loading ??= import('usearch').then(
    (module) => {
      const usearch = ((module as { default?: UsearchModule }).default ?? module) as UsearchModule;
      if (typeof usearch.exactSearch !== 'function') throw new Error('usearch has no exactSearch');
      return usearchKernel(usearch);
    },
    (error: unknown) => {
      loading = undefined;
      onFallback(error instanceof Error ? error.message : String(error));
      return javascriptKernel;
    },
  );
  return loading;
}
