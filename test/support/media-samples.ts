/**
 * The smallest byte sequences that really are media of a type (their signatures), for tests that need
 * a video or a document without shipping one, and the active content an attacker would plant.
 */
/** An MP4 (ISO base media) file's start: an `ftyp` box of brand `isom`, then a `free` box. */
export const mp4Bytes = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2'),
    Buffer.from([0, 0, 0, 8]),
    Buffer.from('free'),
  ]);
/** A WebM file's EBML header (DocType `webm`). */
export const webmBytes = () =>
  Buffer.from('1A45DFA39F4286810142F7810142F2810442F381084282847765626D4287810442858102', 'hex');
export const pdfBytes = () => Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n');
export const htmlBytes = () =>
  Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
export const svgBytes = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>');
