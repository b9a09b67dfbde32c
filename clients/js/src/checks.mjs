// The byte-level checks of a chunk read (lookup/chunked.py): crc32c, the sha256 of the decoded bytes, the size a
// zstd frame states, and the bound on a stored chunk's size. sha256 comes from WebCrypto (`crypto.subtle`: Node 20
// and every browser, in a secure context: https or localhost).

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** crc32c (Castagnoli) of bytes, as an unsigned 32-bit integer. */
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC32C_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Whether the last 4 bytes of `bytes` are the little-endian crc32c of the rest (Zarr's crc32c codec). */
export function crc32cHolds(bytes) {
  if (bytes.length < 4) return false;
  const n = bytes.length - 4;
  const stored = (bytes[n] | (bytes[n + 1] << 8) | (bytes[n + 2] << 16) | (bytes[n + 3] << 24)) >>> 0;
  return crc32c(bytes.subarray(0, n)) === stored;
}

/** sha256 of bytes (a Uint8Array), as a Uint8Array of 32 bytes. */
export async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

export function hex(bytes) {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The content size a zstd frame states in its header, -1 when it states none or is no zstd frame. */
export function zstdFrameSize(bytes) {
  if (bytes.length < 6 || bytes[0] !== 0x28 || bytes[1] !== 0xb5 || bytes[2] !== 0x2f || bytes[3] !== 0xfd) return -1;
  const fhd = bytes[4];
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  const didSize = [0, 1, 2, 4][fhd & 3];
  const fcsSize = fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag];
  if (fcsSize === 0) return -1;
  let at = 5 + (single ? 0 : 1) + didSize;
  if (at + fcsSize > bytes.length) return -1;
  let size = 0;
  for (let i = fcsSize - 1; i >= 0; i--) size = size * 256 + bytes[at + i];
  return fcsSize === 2 ? size + 256 : size;
}

/** The most bytes a chunk of `chunkBytes` decoded bytes can take in a shard: zstd's bound on one frame
 * (ZSTD_COMPRESSBOUND) and the 4 bytes of its crc32c (lookup.chunked.stored_limit). */
export function storedLimit(chunkBytes) {
  const small = chunkBytes < 128 << 10 ? ((128 << 10) - chunkBytes) >> 11 : 0;
  return chunkBytes + (chunkBytes >> 8) + small + 4;
}
