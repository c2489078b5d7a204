import { describe, expect, it } from 'vitest';
import { mediaHeaders, showsInline } from './media-headers.ts';

describe('mediaHeaders', () => {
  it('sandboxes every media answer and keeps browsers to its type', () => {
    for (const type of ['image/png', 'video/mp4', 'application/pdf'])
      expect(mediaHeaders(type)).toMatchObject({
        'content-security-policy': 'sandbox',
        'x-content-type-options': 'nosniff',
      });
  });

  it('makes anything but images and videos a download', () => {
    expect(mediaHeaders('image/webp')['content-disposition']).toBeUndefined();
    expect(mediaHeaders('video/webm')['content-disposition']).toBeUndefined();
    expect(mediaHeaders('application/pdf')['content-disposition']).toBe('attachment');
    expect(mediaHeaders('text/html')['content-disposition']).toBe('attachment');
    expect(showsInline('image/svg+xml')).toBe(false);
  });
});
