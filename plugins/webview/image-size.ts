// The pixel size of a screenshot, read from its own bytes: what the caller gets is what the
// image holds, whatever the viewport, the page or the device scale said.

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Start-of-frame markers that carry the size: baseline (SOF0), extended (SOF1), progressive (SOF2). */
const JPEG_FRAME = new Set([0xc0, 0xc1, 0xc2]);

/** Width and height of a PNG or JPEG; throws for anything else (Chromium makes only these). */
export function imageSize(bytes: Uint8Array): ImageSize {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) {
    // The first chunk is IHDR: length (4), type (4), then width and height, 4 bytes each.
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  throw new Error('The screenshot is neither PNG nor JPEG.');
}

/** Walks the JPEG's segments to the frame header: length (2), precision (1), height (2), width (2). */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    // Fill bytes (0xff repeated) may stand between segments.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (JPEG_FRAME.has(marker)) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  throw new Error('The JPEG screenshot has no frame header.');
}
