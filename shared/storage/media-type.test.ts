import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { htmlBytes, mp4Bytes, pdfBytes, svgBytes, webmBytes } from '../../test/support/media-samples.ts';
import { bytesAreOfType, HEAD_BYTES, sniffMediaType } from './media-type.ts';

const image = (format: 'png' | 'jpeg' | 'webp' | 'gif') =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
    .toFormat(format)
    .toBuffer();

describe('sniffMediaType', () => {
  it('knows every accepted type by its bytes', async () => {
    expect(await sniffMediaType(await image('png'))).toBe('image/png');
    expect(await sniffMediaType(await image('jpeg'))).toBe('image/jpeg');
    expect(await sniffMediaType(await image('webp'))).toBe('image/webp');
    expect(await sniffMediaType(await image('gif'))).toBe('image/gif');
    expect(await sniffMediaType(pdfBytes())).toBe('application/pdf');
    expect(await sniffMediaType(mp4Bytes())).toBe('video/mp4');
    expect(await sniffMediaType(webmBytes())).toBe('video/webm');
  });

  it('gives text and unknown bytes no type: HTML, SVG with a script, plain text, nothing', async () => {
    expect(await sniffMediaType(htmlBytes())).toBeNull();
    expect(await sniffMediaType(svgBytes())).toBeNull();
    expect(await sniffMediaType(Buffer.from('fake mp4 bytes for the test'))).toBeNull();
    expect(await sniffMediaType(new Uint8Array(0))).toBeNull();
  });

  it('decides from the head alone: a ranged read of HEAD_BYTES is enough', async () => {
    const png = await image('png');
    const long = Buffer.concat([png, Buffer.alloc(HEAD_BYTES * 4, 0x41)]);
    expect(await sniffMediaType(long.subarray(0, HEAD_BYTES))).toBe('image/png');
  });
});

describe('bytesAreOfType', () => {
  it('accepts bytes of the declared type (any case) and refuses another type or active content', async () => {
    const png = await image('png');
    expect(await bytesAreOfType(png, 'image/png')).toBe(true);
    expect(await bytesAreOfType(png, 'IMAGE/PNG')).toBe(true);
    expect(await bytesAreOfType(png, 'image/jpeg')).toBe(false);
    expect(await bytesAreOfType(pdfBytes(), 'video/mp4')).toBe(false);
    expect(await bytesAreOfType(htmlBytes(), 'image/png')).toBe(false);
    expect(await bytesAreOfType(svgBytes(), 'image/svg+xml')).toBe(false);
  });
});
