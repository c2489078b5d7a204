import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { textPdf } from './pdf.ts';
import { PDF_FONT } from './pdf-font-file.ts';

/** The text of every page and the title, as a PDF reader (PDF.js, through unpdf) extracts them. */
async function readPdf(bytes: Buffer): Promise<{ pages: number; text: string; title: string }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  const { info } = await pdf.getMetadata();
  return { pages: totalPages, text, title: (info as { Title: string }).Title };
}

/** The embedded font program (FontFile2), inflated. */
function embeddedFont(bytes: Buffer): Buffer {
  const raw = bytes.toString('latin1');
  const id = /\/FontFile2 (\d+) 0 R/.exec(raw)![1];
  const at = raw.indexOf(`\n${id} 0 obj\n`);
  const dict = /<<[\s\S]*?>>\nstream\n/.exec(raw.slice(at))!;
  const length = Number(/\/Length (\d+)/.exec(dict[0])![1]);
  const start = at + dict.index + dict[0].length;
  return inflateSync(bytes.subarray(start, start + length));
}

const LETTERS = ['Zażółć gęślą jaźń', 'Καλημέρα', 'Příliš žluťoučký kůň', 'Привет', '“cytat”', '„cytat”', '‘x’ — …'];

describe('textPdf: the plain-text PDF writer', () => {
  it('keeps every letter of Polish, Czech, Greek, Cyrillic and typographic quotes, in the text and the title', async () => {
    const bytes = await textPdf('Zgłoszenie „Καλημέρα”', [
      { text: 'Nagłówek', heading: true },
      ...LETTERS.map((text) => ({ text })),
    ]);
    const { text, title } = await readPdf(bytes);
    for (const s of LETTERS) expect(text, s).toContain(s);
    expect(text).toContain('Nagłówek');
    expect(text).not.toContain('Note:');
    expect(title).toBe('Zgłoszenie „Καλημέρα”');
    expect(bytes.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-Regular/);
  });

  it('embeds a subset of the font: the glyphs the document uses, not the whole file', async () => {
    const bytes = await textPdf('Small', [{ text: 'Zażółć gęślą jaźń' }]);
    const fontFile = join(
      dirname(createRequire(import.meta.url).resolve(`${PDF_FONT.package}/package.json`)),
      PDF_FONT.file,
    );
    const whole = statSync(fontFile).size;
    const subset = embeddedFont(bytes);
    // A TrueType font program (fontkit writes the sfnt version as 'true', as PDFKit's documents have it).
    expect(subset.subarray(0, 4).toString('latin1')).toBe('true');
    expect(subset.length).toBeLessThan(whole / 20);
    expect(bytes.length).toBeLessThan(20 * 1024);
  });

  it('prints a character no glyph covers as "�" and names it in a note on the first page', async () => {
    const bytes = await textPdf(
      'T',
      [{ text: 'Body' }, { text: 'Kanji 漢 and 😀 and 漢 again; zero\u200dwidth joiner dropped' }],
      { unprintedNote: 'The JSON form holds the complete text.' },
    );
    const { text } = await readPdf(bytes);
    expect(text.indexOf('Note: 2 characters')).toBe(0);
    expect(text).toContain('U+6F22, U+1F600.');
    expect(text).toContain('The JSON form holds the complete text.');
    expect(text).toContain('Kanji � and � and � again; zerowidth joiner dropped');
    expect(text.indexOf('Note:')).toBeLessThan(text.indexOf('Body'));
  });

  it('names at most 40 characters in the note and counts the rest', async () => {
    const many = Array.from({ length: 45 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    const { text } = await readPdf(await textPdf('T', [{ text: many }]));
    expect(text).toContain('45 characters');
    expect(text).toContain('U+4E27 and 5 more.');
    expect(text).not.toContain('U+4E28');
  });

  it('prints a letter written with a combining accent as the one precomposed letter', async () => {
    const { text } = await readPdf(await textPdf('T', [{ text: 'Zaz\u0307o\u0301łc\u0301' }]));
    expect(text).toContain('Zażółć');
    expect(text).not.toContain('Note:');
  });

  it('writes cross-reference offsets that point at their objects, wraps long text onto further pages', async () => {
    const long = Array.from({ length: 200 }, (_, i) => ({ text: `Line ${i} ${'słowo '.repeat(30)}end` }));
    const bytes = await textPdf('A title', [
      { text: 'Heading', heading: true },
      { text: 'Escapes: (parentheses) and \\ backslash' },
      { text: 'x'.repeat(300) },
      ...long,
    ]);
    const raw = bytes.toString('latin1');
    expect(raw.slice(0, 8)).toBe('%PDF-1.4');
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(raw)![1]);
    expect(raw.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...raw.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(8);
    for (const [i, o] of offsets.entries()) expect(raw.slice(o, o + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    const { pages, text } = await readPdf(bytes);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Line 199 słowo');
    expect(text).toContain('Escapes: (parentheses) and \\ backslash');
    // A word wider than the column breaks inside it; every letter is kept.
    expect(text.match(/x+/g)!.length).toBeGreaterThan(1);
    expect(text.match(/x/g)!.length).toBe(300);
  });

  it('writes the same bytes for the same text', async () => {
    const lines = [{ text: 'Zażółć', heading: true }, { text: 'Καλημέρα 漢' }];
    expect((await textPdf('T', lines)).equals(await textPdf('T', lines))).toBe(true);
  });
});
