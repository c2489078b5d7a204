import { fileTypeFromBuffer } from 'file-type';

/**
 * What uploaded bytes really are, from their leading bytes (magic numbers, as the `file-type` library
 * knows them), whatever type the uploader declared. Only the functions that verify uploads import this
 * module (file-type is ~80 KB of every bundle that carries it); serving code reads the verified type
 * from the upload record or the object instead.
 */

/** How many leading bytes are read to decide: file-type's own "reasonable detection size". */
export const HEAD_BYTES = 4100;

/** The media type the bytes start like, or null: text (HTML, SVG, scripts) and unknown bytes have none. */
export async function sniffMediaType(head: Uint8Array): Promise<string | null> {
  if (head.length === 0) return null;
  const found = await fileTypeFromBuffer(head.subarray(0, HEAD_BYTES));
  return found?.mime ?? null;
}

/** Whether the bytes are of the declared type (one of the accepted media types, lower-case). */
export async function bytesAreOfType(head: Uint8Array, declared: string): Promise<boolean> {
  return (await sniffMediaType(head)) === declared.toLowerCase();
}
