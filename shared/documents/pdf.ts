import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { PdfFont } from './pdf-font.ts';

/**
 * A plain-text PDF 1.4 document (A4), written by hand: the libraries that write whole PDFs (pdf-lib
 * with its fontkit, pdfkit) would put more than a megabyte into the function's bundle for layout a
 * text record does not need. The text is set in Noto Sans (pdf-font.ts), embedded as a subset of the
 * glyphs the document uses (a TrueType CID font, `Identity-H`), with a `ToUnicode` map, so Polish,
 * Czech, Greek, Cyrillic and typographic quotes print and text extraction gets every letter back.
 * A character the font has no glyph for prints as U+FFFD "�" and is named (as U+XXXX) in a note at
 * the top of the first page. Text is put in Unicode normalisation form C first (a letter and its
 * combining accent become the one precomposed letter the font has). Headings print bold (the regular
 * glyphs filled and stroked), with a blank line before them. Long lines wrap at word boundaries,
 * measured with the font's advance widths; pages follow as needed.
 */
export interface PdfLine {
  text: string;
  /** Headings print bold, with a blank line before them. */
  heading?: boolean;
}

export interface PdfOptions {
  /** Said after the list of characters the font could not print (where the complete text is). */
  unprintedNote?: string;
}

const PAGE = { width: 595, height: 842, margin: 50 };
const SIZE = 10;
const LEADING = 14;
/** The text column, in points. */
const COLUMN = PAGE.width - 2 * PAGE.margin;
const LINES_PER_PAGE = Math.floor((PAGE.height - 2 * PAGE.margin) / LEADING);
/** Code points named in the note at most; more are counted. */
const NOTE_MAX = 40;
const REPLACEMENT = 0xfffd;
/** Invisible format characters (zero-width joiners, variation selectors): dropped when the font lacks them. */
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;

/** A glyph of the document's subset: its id there (the CID shown), its advance in points at `SIZE`. */
interface Glyph {
  cid: number;
  width: number;
}

/** The subset one document uses: each code point's glyph, what each glyph stands for, and what had none. */
class Glyphs {
  private readonly subset;
  private readonly byCodePoint = new Map<number, Glyph | null>();
  /** By CID: the advance in font units per 1000 (PDF glyph space) and the text it extracts as. */
  readonly widths: number[] = [0];
  readonly unicode: string[] = [''];
  /** Code points with no glyph, in order of first appearance. */
  readonly missing = new Set<number>();
  /** What stands in for a character without a glyph: U+FFFD "�", or "?" in a font without it. */
  readonly replacement: string;

  constructor(private readonly font: PdfFont) {
    this.subset = font.createSubset();
    this.replacement = font.hasGlyphForCodePoint(REPLACEMENT) ? '\u{fffd}' : '?';
  }

  private include(codePoint: number): Glyph {
    const glyph = this.font.glyphForCodePoint(codePoint);
    const cid = this.subset.includeGlyph(glyph.id);
    const units = Math.round((glyph.advanceWidth * 1000) / this.font.unitsPerEm);
    if (this.widths[cid] === undefined) {
      this.widths[cid] = units;
      this.unicode[cid] = String.fromCodePoint(codePoint);
    }
    return { cid, width: (units * SIZE) / 1000 };
  }

  /** The glyphs of a piece of text (no line breaks), unprintable characters replaced. */
  glyphs(text: string): Glyph[] {
    const out: Glyph[] = [];
    for (const ch of text) {
      const codePoint = ch.codePointAt(0)!;
      let glyph = this.byCodePoint.get(codePoint);
      if (glyph === undefined) {
        if (this.font.hasGlyphForCodePoint(codePoint)) glyph = this.include(codePoint);
        else if (IGNORABLE.test(ch)) glyph = null;
        else {
          this.missing.add(codePoint);
          glyph = this.include(this.replacement.codePointAt(0)!);
        }
        this.byCodePoint.set(codePoint, glyph);
      }
      if (glyph) out.push(glyph);
    }
    return out;
  }

  encodeSubset(): Uint8Array {
    return this.subset.encode();
  }
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
const shown = (glyphs: Glyph[]) => `<${glyphs.map((g) => hex4(g.cid)).join('')}>`;
const widthOf = (glyphs: Glyph[]) => glyphs.reduce((sum, g) => sum + g.width, 0);
/** UTF-16BE, as a PDF hex string holds it (in a text string after a BOM, in a CMap without). */
const utf16 = (s: string) => Buffer.from(s, 'utf16le').swap16().toString('hex').toUpperCase();
/** A PDF text string (the document's title) in UTF-16BE: every letter kept. */
const pdfTextString = (s: string) => `<FEFF${utf16(s)}>`;
export const codePointName = (codePoint: number) => `U+${hex4(codePoint)}`;

/** Lines of at most `COLUMN` points, broken between words (a word wider than the column, inside it). */
function wrap(text: string, glyphs: Glyphs): Glyph[][] {
  const [space] = glyphs.glyphs(' ');
  const out: Glyph[][] = [];
  for (const paragraph of text.normalize('NFC').split(/\r?\n/)) {
    let line: Glyph[] = [];
    let width = 0;
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = glyphs.glyphs(word);
      while (rest.length > 0) {
        // The longest head of the word that fits a line of its own (at least one glyph).
        let fit = 0;
        for (let w = 0; fit < rest.length && (fit === 0 || w + rest[fit].width <= COLUMN); fit++) w += rest[fit].width;
        const part = rest.slice(0, fit);
        const partWidth = widthOf(part);
        if (!line.length) {
          line = part;
          width = partWidth;
        } else if (width + space.width + partWidth > COLUMN) {
          out.push(line);
          line = part;
          width = partWidth;
        } else {
          line.push(space, ...part);
          width += space.width + partWidth;
        }
        rest = rest.slice(fit);
      }
    }
    out.push(line);
  }
  return out;
}

/** The note that names what the font could not print. */
function unprintedText(missing: Set<number>, replacement: string, note: string | undefined): string {
  const names = [...missing].slice(0, NOTE_MAX).map(codePointName);
  const more = missing.size > NOTE_MAX ? ` and ${missing.size - NOTE_MAX} more` : '';
  return (
    `Note: ${missing.size === 1 ? 'one character' : `${missing.size} characters`} of this document could not be ` +
    `printed in its font and ${missing.size === 1 ? 'shows' : 'show'} as "${replacement}": ${names.join(', ')}${more}.` +
    (note ? ` ${note}` : '')
  );
}

/** The `ToUnicode` CMap: each CID of the subset to the text it stands for. */
function toUnicodeCMap(unicode: string[]): string {
  const entries = unicode.flatMap((text, cid) => (cid > 0 && text ? [`<${hex4(cid)}> <${utf16(text)}>`] : []));
  const blocks: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/** A PDF object: a dictionary, or a dictionary with a stream (compressed here). */
type PdfObject = string | { dict: string; stream: Uint8Array };

const flate = (dict: string, data: Uint8Array | string, extra = ''): PdfObject => {
  const raw = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const stream = deflateSync(raw);
  return { dict: `<< ${dict}/Length ${stream.length} /Filter /FlateDecode${extra} >>`, stream };
};

function serialize(objects: PdfObject[], trailer: string): Buffer {
  // Binary streams: the file is built from byte chunks, the offsets counted in bytes.
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const push = (b: Buffer) => {
    chunks.push(b);
    length += b.length;
  };
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = length;
    const o = objects[id];
    if (typeof o === 'string') push(Buffer.from(`${id} 0 obj\n${o}\nendobj\n`, 'latin1'));
    else {
      push(Buffer.from(`${id} 0 obj\n${o.dict}\nstream\n`, 'latin1'));
      push(Buffer.from(o.stream));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  }
  const xrefAt = length;
  const entries = offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`);
  push(
    Buffer.from(
      `xref\n0 ${objects.length}\n0000000000 65535 f \n${entries.join('')}` +
        `trailer\n<< /Size ${objects.length} ${trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(chunks);
}

/** A six-letter subset tag (PDF 32000-1 §9.6.4), the same for the same glyphs. */
function subsetTag(unicode: string[]): string {
  const digest = createHash('sha256').update(unicode.join('\u0000')).digest();
  return [...digest.subarray(0, 6)].map((b) => String.fromCharCode(65 + (b % 26))).join('');
}

/**
 * The characters of `texts` that `textPdf` cannot print in its font (named as its note names them,
 * in order of first appearance): what a document's other form lists beside the complete text.
 */
export async function unprintableCharacters(texts: string[]): Promise<string[]> {
  const { pdfFont } = await import('./pdf-font.ts');
  const font = pdfFont();
  const found = new Set<number>();
  for (const text of texts)
    for (const ch of text.normalize('NFC')) {
      const codePoint = ch.codePointAt(0)!;
      if (ch === '\n' || ch === '\r' || found.has(codePoint)) continue;
      if (!font.hasGlyphForCodePoint(codePoint) && !IGNORABLE.test(ch)) found.add(codePoint);
    }
  return [...found].map(codePointName);
}

export async function textPdf(title: string, lines: PdfLine[], options: PdfOptions = {}): Promise<Buffer> {
  const { pdfFont } = await import('./pdf-font.ts');
  const font = pdfFont();
  const glyphs = new Glyphs(font);

  const rows: { glyphs: Glyph[]; bold: boolean }[] = [];
  for (const l of lines) {
    if (l.heading && rows.length) rows.push({ glyphs: [], bold: false });
    for (const g of wrap(l.text, glyphs)) rows.push({ glyphs: g, bold: !!l.heading });
  }
  // The title goes in the document's information (UTF-16, every letter kept), not on the page.
  if (glyphs.missing.size) {
    const text = unprintedText(glyphs.missing, glyphs.replacement, options.unprintedNote);
    const note = wrap(text, glyphs).map((g) => ({ glyphs: g, bold: false }));
    rows.unshift(...note, { glyphs: [], bold: false });
  }
  const pages: (typeof rows)[] = [];
  for (let i = 0; i < Math.max(rows.length, 1); i += LINES_PER_PAGE) pages.push(rows.slice(i, i + LINES_PER_PAGE));

  // Objects: 1 catalog, 2 page tree, 3 the font (Type0), 4 its CID font, 5 its descriptor, 6 the
  // subset's file, 7 its ToUnicode map, 8 info, then a page and its content per page.
  const scale = 1000 / font.unitsPerEm;
  const fontName = `${subsetTag(glyphs.unicode)}+${font.postscriptName}`;
  const bbox = font.bbox;
  const objects: PdfObject[] = [];
  const pageIds = pages.map((_, i) => 9 + 2 * i);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] =
    `<< /Type /Font /Subtype /Type0 /BaseFont /${fontName} /Encoding /Identity-H ` +
    '/DescendantFonts [4 0 R] /ToUnicode 7 0 R >>';
  objects[4] =
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${fontName} ` +
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 5 0 R ' +
    `/CIDToGIDMap /Identity /DW 1000 /W [0 [${glyphs.widths.join(' ')}]] >>`;
  objects[5] =
    `<< /Type /FontDescriptor /FontName /${fontName} /Flags 4 ` +
    `/FontBBox [${[bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => Math.round(v * scale)).join(' ')}] ` +
    `/ItalicAngle ${font.italicAngle} /Ascent ${Math.round(font.ascent * scale)} /Descent ${Math.round(font.descent * scale)} ` +
    `/CapHeight ${Math.round(font.capHeight * scale)} /StemV 80 /FontFile2 6 0 R >>`;
  const fontFile = glyphs.encodeSubset();
  objects[6] = flate('', fontFile, ` /Length1 ${fontFile.length}`);
  objects[7] = flate('', toUnicodeCMap(glyphs.unicode));
  objects[8] = `<< /Title ${pdfTextString(title.normalize('NFC'))} /Producer (workplace) >>`;
  pages.forEach((rowsOfPage, i) => {
    const top = PAGE.height - PAGE.margin - SIZE;
    const ops = [`BT ${LEADING} TL ${PAGE.margin} ${top} Td /F1 ${SIZE} Tf 0.3 w`];
    for (const r of rowsOfPage) ops.push(`${r.bold ? 2 : 0} Tr ${shown(r.glyphs)} Tj T*`);
    ops.push('ET');
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = flate('', ops.join('\n'));
  });
  return serialize(objects, '/Root 1 0 R /Info 8 0 R');
}
