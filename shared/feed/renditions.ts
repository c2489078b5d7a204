import { RENDITION_SIZES, type RenditionName } from './model.ts';

/**
 * Image work for post uploads (sharp: from node_modules locally, from a layer in Lambda). Renditions
 * are WebP re-encodings without metadata (no EXIF location leaves through the website), oriented,
 * never enlarged: 1200 px and 400 px on the longer side.
 */

/**
 * sharp is loaded on first use, not at module load: most feed functions only read upload records
 * and should not pay for the native library at cold start (it comes from a layer in Lambda).
 */
let sharpModule: Promise<typeof import('sharp')['default']> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

export interface ImageInfo {
  format: 'jpeg' | 'png' | 'webp' | 'gif';
  width: number;
  height: number;
}

export interface Rendition {
  name: RenditionName;
  data: Buffer;
  width: number;
  height: number;
}

const SUPPORTED = new Set(['jpeg', 'png', 'webp', 'gif']);
/** Decoding limit: a small file can declare billions of pixels (a decompression bomb). */
const MAX_PIXELS = 50_000_000;

/** The image's real format and oriented size, or null when the bytes are not a supported image. */
export async function inspectImage(data: Buffer): Promise<ImageInfo | null> {
  try {
    const m = await (await loadSharp())(data, { pages: 1, limitInputPixels: MAX_PIXELS }).metadata();
    if (!SUPPORTED.has(m.format)) return null;
    const width = m.autoOrient?.width ?? m.width;
    const height = m.autoOrient?.height ?? m.height;
    if (!width || !height) return null;
    return { format: m.format as ImageInfo['format'], width, height };
  } catch {
    return null;
  }
}

/**
 * The renditions an image gets: always the 1200 px one (a smaller original is re-encoded at its own
 * size), and the 400 px one only when the original is larger than that (thumbnailUrl is
 * null when the original was already smaller).
 */
export async function makeRenditions(data: Buffer, info: ImageInfo): Promise<Rendition[]> {
  const longest = Math.max(info.width, info.height);
  const wanted = (Object.entries(RENDITION_SIZES) as [RenditionName, number][]).filter(
    ([name, size]) => name === 'w1200' || longest > size,
  );
  const out: Rendition[] = [];
  for (const [name, size] of wanted) {
    const scale = Math.min(1, size / longest);
    const width = Math.max(1, Math.round(info.width * scale));
    const height = Math.max(1, Math.round(info.height * scale));
    const buf = await (await loadSharp())(data, {
      animated: info.format === 'gif' || info.format === 'webp',
      limitInputPixels: MAX_PIXELS,
    })
      .autoOrient()
      .resize({ width, height, fit: 'fill' })
      .webp({ quality: 82 })
      .toBuffer();
    out.push({ name, data: buf, width, height });
  }
  return out;
}
