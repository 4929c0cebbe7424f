/**
 * Exact, cheap packing of Float64 columns for storage (docs/decisions/0050-storage-performance.md).
 *
 * Logger values have few decimals and timestamps are whole seconds, so most columns are `(offset + u) / 10^d` (or
 * `* 10^-d`) with small unsigned integers u: stored as 1 to 4 bytes per value instead of 8, which halves to
 * quarters the bytes PostgreSQL has to TOAST and write. Every value is checked to decode to exactly the same double
 * (NaN stays NaN, -0 keeps the column as plain doubles), so a column that does not fit is stored as plain doubles.
 *
 * Layout: plain doubles are the bare 8-byte values (what older rows hold; their length is a multiple of 8). A packed
 * column is a 16-byte header (0x50 'P', version 1, width, int8 d, float64 offset, uint32 count), the values, and 0-7
 * padding bytes so that its length is 4 more than a multiple of 8 — never mistaken for plain doubles.
 */

const MAGIC = 0x50;
const VERSION = 1;
const HEADER = 16;
const MIN_D = -5;
const MAX_D = 9;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const decodeWith = (k: number, d: number) => (d >= 0 ? k / POW10[d]! : k * POW10[-d]!);
const encodeWith = (v: number, d: number) => Math.round(d >= 0 ? v * POW10[d]! : v / POW10[-d]!);

function exactAt(v: number, d: number): boolean {
  const k = encodeWith(v, d);
  return k <= MAX_SAFE && k >= -MAX_SAFE && decodeWith(k, d) === v;
}

/** The smallest and largest code seen by the scans (codes only grow by scaling, which keeps their order). */
const scanned = { min: Infinity, max: -Infinity };

/**
 * Codes k (value = k / 10^d) of values[from..] into ks while each is exact at d; returns where it stopped (the
 * first value that is not exact at d, or -0) or n. NaN gives NaN.
 */
function scanFine(values: Float64Array, ks: Float64Array, from: number, p: number): number {
  const n = values.length;
  let lo = scanned.min;
  let hi = scanned.max;
  for (let i = from; i < n; i++) {
    const v = values[i]!;
    if (v !== v) {
      ks[i] = NaN;
      continue;
    }
    const k = Math.round(v * p);
    if (!(k <= MAX_SAFE && k >= -MAX_SAFE && k / p === v) || (v === 0 && 1 / v < 0)) {
      scanned.min = lo;
      scanned.max = hi;
      return i;
    }
    ks[i] = k;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  scanned.min = lo;
  scanned.max = hi;
  return n;
}

/** The same for value = k * 10^-d (d < 0: multiples of 10 to 100,000; timestamps of whole seconds or minutes). */
function scanCoarse(values: Float64Array, ks: Float64Array, from: number, q: number): number {
  const n = values.length;
  let lo = scanned.min;
  let hi = scanned.max;
  for (let i = from; i < n; i++) {
    const v = values[i]!;
    if (v !== v) {
      ks[i] = NaN;
      continue;
    }
    const k = Math.round(v / q);
    if (!(k <= MAX_SAFE && k >= -MAX_SAFE && k * q === v) || (v === 0 && 1 / v < 0)) {
      scanned.min = lo;
      scanned.max = hi;
      return i;
    }
    ks[i] = k;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  scanned.min = lo;
  scanned.max = hi;
  return n;
}

// One function per code array type keeps each loop monomorphic (fast element access).
// Codes are below 2^32 - 1: converted to an integer before the store, which V8 does much faster than a double.
function fillCodes8(ks: Float64Array, codes: Uint8Array, kMin: number, missing: number): void {
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    codes[i] = k !== k ? missing : (k - kMin) | 0;
  }
}

function fillCodes16(ks: Float64Array, codes: Uint16Array, kMin: number, missing: number): void {
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    codes[i] = k !== k ? missing : (k - kMin) | 0;
  }
}

function fillCodes32(ks: Float64Array, codes: Uint32Array, kMin: number, missing: number): void {
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i]!;
    codes[i] = k !== k ? missing : (k - kMin) >>> 0;
  }
}

function write24(codes: Uint32Array, body: Buffer): void {
  for (let i = 0, b = 0; i < codes.length; i++, b += 3) {
    const u = codes[i]!;
    body[b] = u & 0xff;
    body[b + 1] = (u >>> 8) & 0xff;
    body[b + 2] = u >>> 16;
  }
}

/** The bytes to store for a column: packed when that is exact and smaller, else the plain doubles (no copy). */
export function packFloat64(values: Float64Array): Buffer {
  const plain = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const n = values.length;
  if (n < 4) return plain;
  // The smallest d at which every value is exact only grows: codes found at a smaller d are scaled up (exactly,
  // a finer scale of the same decimal) and the scan goes on from the value that needed more decimals.
  const ks = new Float64Array(n);
  let d = MIN_D;
  let at = 0;
  scanned.min = Infinity;
  scanned.max = -Infinity;
  for (;;) {
    at = d >= 0 ? scanFine(values, ks, at, POW10[d]!) : scanCoarse(values, ks, at, POW10[-d]!);
    if (at === n) break;
    const was = d;
    while (!exactAt(values[at]!, d) || Object.is(values[at], -0)) if (++d > MAX_D) return plain;
    const scale = POW10[d - was]!;
    for (let i = 0; i < at; i++) ks[i]! *= scale;
    scanned.min *= scale;
    scanned.max *= scale;
  }
  return packedBytes(ks, d, scanned.min, scanned.max) ?? plain;
}

/** Bytes per code for a range of codes (the largest code of each width marks a missing value); 0: too wide. */
const widthFor = (range: number) =>
  range < 0xff ? 1 : range < 0xffff ? 2 : range < 0xffffff ? 3 : range < 0xffffffff ? 4 : 0;

/** The packed bytes of codes ks (value = k / 10^d, NaN missing) from kMin to kMax, or null when they do not fit. */
function packedBytes(ks: Float64Array, d: number, kMin: number, kMax: number): Buffer | null {
  const n = ks.length;
  if (kMin === Infinity) kMin = kMax = 0; // all missing
  if (!(kMin >= -MAX_SAFE && kMax <= MAX_SAFE)) return null;
  const width = widthFor(kMax - kMin);
  if (width === 0) return null;
  const length = HEADER + width * n;
  const out = Buffer.allocUnsafe(length + ((12 - (length % 8)) % 8));
  out.fill(0, length);
  out[0] = MAGIC;
  out[1] = VERSION;
  out[2] = width;
  out.writeInt8(d, 3);
  out.writeDoubleLE(kMin, 4);
  out.writeUInt32LE(n, 12);
  const missing = 2 ** (8 * width) - 1;
  const body = out.subarray(HEADER);
  if (width === 3) {
    const codes = new Uint32Array(n);
    fillCodes32(ks, codes, kMin, missing);
    write24(codes, body);
  } else if (width === 1) {
    fillCodes8(ks, body.subarray(0, n), kMin, missing);
  } else {
    // A fresh aligned array, copied into place once (the body starts at byte 16 of a Buffer of unknown alignment).
    const codes = width === 2 ? new Uint16Array(n) : new Uint32Array(n);
    if (codes instanceof Uint16Array) fillCodes16(ks, codes, kMin, missing);
    else fillCodes32(ks, codes, kMin, missing);
    body.set(new Uint8Array(codes.buffer, 0, codes.byteLength));
  }
  return out;
}

/**
 * The bytes to store for a column the reader kept as integer codes (value = code / 10^decimals, NaN missing;
 * readers/columns.ts): packed without the exactness scan of packFloat64, since each code is exact by construction.
 * Codes that are all multiples of 10 are divided down while that makes them narrower (a logger writing "12.50").
 * Null when they do not fit (a range of 2^32 or more, or a -0, which only plain doubles keep).
 */
export function packCodes(codes: Float64Array, decimals: number): Buffer | null {
  const n = codes.length;
  if (n < 4) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const k = codes[i]!;
    if (k !== k) continue;
    if (k < lo) lo = k;
    if (k > hi) hi = k;
    if (k === 0 && 1 / k < 0) return null;
  }
  if (lo === Infinity) return packedBytes(codes, decimals, lo, hi);
  // The fewest decimals that make the codes narrower, when every code is a multiple of the power of ten dropped.
  const width = widthFor(hi - lo);
  for (let fewer = decimals; fewer >= 1 && width !== 1; fewer--) {
    const p = POW10[fewer]!;
    const narrower = widthFor((hi - lo) / p);
    if ((width !== 0 && narrower >= width) || !allMultiplesOf(codes, p)) continue;
    const ks = new Float64Array(n);
    for (let i = 0; i < n; i++) ks[i] = codes[i]! / p;
    return packedBytes(ks, decimals - fewer, lo / p, hi / p);
  }
  return packedBytes(codes, decimals, lo, hi);
}

function allMultiplesOf(codes: Float64Array, p: number): boolean {
  for (let i = 0; i < codes.length; i++) {
    const k = codes[i]!;
    if (k === k && k % p !== 0) return false;
  }
  return true;
}

/** Whether stored bytes are a packed column (else plain doubles). */
export function isPacked(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= HEADER && bytes.byteLength % 8 === 4 && bytes[0] === MAGIC && bytes[1] === VERSION
  );
}

/** The column back from its stored bytes (packed or plain doubles), exactly as it was given to packFloat64. */
export function unpackFloat64(bytes: Uint8Array): Float64Array {
  if (!isPacked(bytes)) return plainFloat64(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = bytes[2]!;
  const d = view.getInt8(3);
  const kMin = view.getFloat64(4, true);
  const n = view.getUint32(12, true);
  const missing = 2 ** (8 * width) - 1;
  const start = bytes.byteOffset + HEADER;
  let codes: Uint8Array | Uint16Array | Uint32Array;
  if (width === 3) {
    const b = bytes.subarray(HEADER);
    codes = new Uint32Array(n);
    for (let i = 0, at = 0; i < n; i++, at += 3) codes[i] = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
  } else if (start % width === 0) {
    codes =
      width === 1
        ? new Uint8Array(bytes.buffer, start, n)
        : width === 2
          ? new Uint16Array(bytes.buffer, start, n)
          : new Uint32Array(bytes.buffer, start, n);
  } else {
    const copy = new Uint8Array(n * width);
    copy.set(bytes.subarray(HEADER, HEADER + n * width));
    codes = width === 2 ? new Uint16Array(copy.buffer) : new Uint32Array(copy.buffer);
  }
  const out = new Float64Array(n);
  if (codes instanceof Uint8Array) decodeCodes(codes, out, kMin, d, missing);
  else if (codes instanceof Uint16Array) decodeCodes16(codes, out, kMin, d, missing);
  else decodeCodes32(codes, out, kMin, d, missing);
  return out;
}

// One decoder per code width on purpose: a loop over a single typed-array type stays monomorphic in V8,
// which is what keeps unpacking near memory speed (docs/decisions/0050-storage-performance.md).
function decodeCodes(codes: Uint8Array, out: Float64Array, kMin: number, d: number, missing: number): void {
  const n = out.length;
  if (d >= 0) {
    const p = POW10[d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) / p;
    }
  } else {
    const q = POW10[-d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) * q;
    }
  }
}

function decodeCodes16(
  codes: Uint16Array,
  out: Float64Array,
  kMin: number,
  d: number,
  missing: number,
): void {
  const n = out.length;
  if (d >= 0) {
    const p = POW10[d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) / p;
    }
  } else {
    const q = POW10[-d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) * q;
    }
  }
}

function decodeCodes32(
  codes: Uint32Array,
  out: Float64Array,
  kMin: number,
  d: number,
  missing: number,
): void {
  const n = out.length;
  if (d >= 0) {
    const p = POW10[d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) / p;
    }
  } else {
    const q = POW10[-d]!;
    for (let i = 0; i < n; i++) {
      const u = codes[i]!;
      out[i] = u === missing ? NaN : (u + kMin) * q;
    }
  }
}

/** A Float64Array over plain-double bytes; copies when the driver's buffer is not 8-byte aligned. */
export function plainFloat64(bytes: Uint8Array): Float64Array {
  if (bytes.byteOffset % 8 === 0 && bytes.byteLength % 8 === 0)
    return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  const copy = new Uint8Array(bytes.byteLength - (bytes.byteLength % 8));
  copy.set(bytes.subarray(0, copy.length));
  return new Float64Array(copy.buffer);
}
