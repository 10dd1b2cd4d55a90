/**
 * Scores of both engines on one scale, [0, 1] with higher better, so that a plugin can keep
 * a threshold across back ends and combine text and vector scores.
 */

/**
 * rank/(1+rank) for a non-negative engine rank (bm25 negated on SQLite, ts_rank on
 * PostgreSQL): strictly increasing, 0 for no match, below 1 however high the rank, and
 * independent of the other candidates (unlike min-max), so one document's score does not
 * move when others are added to the result.
 */
export function lexicalScore(rank: number): number {
  return rank > 0 ? rank / (1 + rank) : 0;
}

/** (1 + cosine similarity)/2: 1 for the same direction, 0.5 orthogonal, 0 opposite. */
export function vectorScoreFromCosine(cosine: number): number {
  return clamp01((1 + cosine) / 2);
}

/** The same from a cosine distance (1 - cosine), as sqlite-vec's vec_distance_cosine gives it. */
export function vectorScoreFromDistance(distance: number): number {
  return clamp01(1 - distance / 2);
}

/** Cosine similarity of two vectors of one length; 0 when either has no length. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A vector as the bytes both engines store: float32, little-endian (sqlite-vec's own format). */
export function encodeVector(vector: readonly number[]): Buffer {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes;
}

/** The float32 values of stored bytes, without copying when they are aligned. */
export function decodeVector(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
