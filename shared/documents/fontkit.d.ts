/** fontkit 3 ships no types; the writer types what it uses (`PdfFont`, pdf-font.ts). */
declare module 'fontkit/core' {
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
  export function registerFormat(format: unknown): void;
}
declare module 'fontkit/formats/TTFFont' {
  export const TTFFont: unknown;
}
