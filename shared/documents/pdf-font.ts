import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create, registerFormat } from 'fontkit/core';
import { TTFFont } from 'fontkit/formats/TTFFont';
import { PDF_FONT } from './pdf-font-file.ts';

/**
 * The font of the PDF documents, parsed by fontkit (foliojs, the font engine of PDFKit): only its
 * core and the TrueType format, so the bundle carries no WOFF2 decoder and no shapers. pdf.ts imports
 * this module dynamically, so the font is read and parsed only when a PDF is written (once per
 * execution environment), never at a cold start.
 */
registerFormat(TTFFont);

function fontPath(): string {
  const dir = process.env[PDF_FONT.dirVariable];
  if (dir) return join(dir, PDF_FONT.bundledFile);
  return join(dirname(createRequire(import.meta.url).resolve(`${PDF_FONT.package}/package.json`)), PDF_FONT.file);
}

let font: PdfFont | undefined;

/** Noto Sans Regular, parsed once. */
export function pdfFont(): PdfFont {
  font ??= create(readFileSync(fontPath())) as PdfFont;
  return font;
}

/** What the PDF writer uses of a fontkit font (fontkit ships no types). */
export interface PdfFont {
  postscriptName: string;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): { id: number; advanceWidth: number };
  /** A subset holding glyph 0 (.notdef); `includeGlyph` answers the glyph's id in the subset. */
  createSubset(): { includeGlyph(glyph: number | { id: number }): number; encode(): Uint8Array };
}
