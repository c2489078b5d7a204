/**
 * A plain-text PDF 1.4 document (A4, Helvetica), written by hand: the libraries that write PDFs
 * (pdf-lib, pdfkit, jsPDF) add hundreds of kilobytes to a function's bundle for layout and fonts that a
 * text record does not need. Text is in the standard 14 fonts with WinAnsi encoding, so any reader shows
 * it without embedded fonts and text extraction gets it back; characters outside Latin-1 print as `?`.
 * Long lines wrap at word boundaries; pages follow as needed.
 */
export interface PdfLine {
  text: string;
  /** Headings print bold, with a blank line before them. */
  heading?: boolean;
}

const PAGE = { width: 595, height: 842, margin: 50 };
const SIZE = 10;
const LEADING = 14;
/** Characters per line: Helvetica averages about half an em, and the text column is 495 pt wide. */
const WRAP = 92;
const LINES_PER_PAGE = Math.floor((PAGE.height - 2 * PAGE.margin) / LEADING);

/** Latin-1 only (WinAnsi agrees with it on printable Latin-1), with PDF string escapes. */
const pdfString = (s: string) =>
  `(${[...s]
    .map((c) => (/[\x20-\x7e\xa0-\xff]/.test(c) ? c : '?'))
    .join('')
    .replace(/[\\()]/g, (c) => `\\${c}`)})`;

function wrap(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      for (let w = word; w.length > 0; w = w.slice(WRAP)) {
        const part = w.slice(0, WRAP);
        if (line && line.length + 1 + part.length > WRAP) {
          out.push(line);
          line = part;
        } else line = line ? `${line} ${part}` : part;
      }
    }
    out.push(line);
  }
  return out;
}

export function textPdf(title: string, lines: PdfLine[]): Buffer {
  const rows: { text: string; bold: boolean }[] = [];
  for (const l of lines) {
    if (l.heading && rows.length) rows.push({ text: '', bold: false });
    for (const text of wrap(l.text)) rows.push({ text, bold: !!l.heading });
  }
  const pages: (typeof rows)[] = [];
  for (let i = 0; i < Math.max(rows.length, 1); i += LINES_PER_PAGE) pages.push(rows.slice(i, i + LINES_PER_PAGE));

  // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + 2 * i);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfString(title)} /Producer (workplace) >>`;
  pages.forEach((rowsOfPage, i) => {
    const top = PAGE.height - PAGE.margin - SIZE;
    const ops = [`BT ${LEADING} TL ${PAGE.margin} ${top} Td`];
    for (const r of rowsOfPage) ops.push(`/${r.bold ? 'F2' : 'F1'} ${SIZE} Tf ${pdfString(r.text)} Tj T*`);
    ops.push('ET');
    const stream = ops.join('\n');
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });

  // Byte offsets for the cross-reference table: the file is Latin-1, one byte per character.
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const entries = offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`);
  body +=
    `xref\n0 ${objects.length}\n0000000000 65535 f \n${entries.join('')}` +
    `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
