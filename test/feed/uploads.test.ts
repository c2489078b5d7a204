import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postUploadKey } from '../../shared/db/keys.ts';
import { getItem } from '../../shared/db/table.ts';
import type { UploadItem } from '../../shared/feed/uploads.ts';
import { api, baseUrl, newMember } from '../support/api.ts';
import { createPost, image, presign, upload, waitFor } from './helpers.ts';

const idOf = (path: string) => path.split('/').pop()!.split('.')[0];

describe('post media', () => {
  it('makes 1200 px and 400 px WebP renditions of a large image, oriented and without metadata', async () => {
    const a = await newMember();
    const res = await upload(a.token, await image(2400, 1200, 'jpeg'), 'wide.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mimeType: 'image/jpeg', width: 2400, height: 1200, name: 'wide.jpg' });
    const record = (await getItem<UploadItem>(postUploadKey(idOf(res.body.path)), true))!;
    expect(record.ownerId).toBe(a.id);
    expect(record.renditions.w1200).toMatchObject({ width: 1200, height: 600 });
    expect(record.renditions.w400).toMatchObject({ width: 400, height: 200 });
    for (const name of ['w1200', 'w400'] as const) {
      const file = await api('GET', `${res.body.path.replace(/\.jpg$/, '')}.${name}.webp`, { token: a.token });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/webp');
    }
    const raw = await fetch(`${baseUrl()}${res.body.path.replace(/\.jpg$/, '')}.w400.webp`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const meta = await sharp(Buffer.from(await raw.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 400, height: 200 });
    expect(meta.exif).toBeUndefined();
  });

  it('gives a small image only its 1200 rendition (no thumbnail) and accepts GIF and WebP', async () => {
    const a = await newMember();
    for (const format of ['png', 'gif', 'webp'] as const) {
      const res = await upload(a.token, await image(300, 200, format), `small.${format}`, `image/${format}`);
      expect(res.status).toBe(201);
      const record = (await getItem<UploadItem>(postUploadKey(idOf(res.body.path)), true))!;
      expect(record.renditions.w1200).toMatchObject({ width: 300, height: 200 });
      expect(record.renditions.w400).toBeUndefined();
    }
  });

  it('judges the type by the bytes: a text file named .png is a 400; over 4 MB is a 413', async () => {
    const a = await newMember();
    expect((await upload(a.token, Buffer.from('not an image'), 'fake.png', 'image/png')).status).toBe(400);
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4 * 1024 * 1024 + 10, 0x20)]);
    expect((await upload(a.token, big, 'big.pdf', 'application/pdf')).status).toBe(413);
  });

  it('presigned uploads: wrong type 400, over the limit 413; a video is PUT to the bucket and used in a post', async () => {
    const a = await newMember();
    expect((await presign(a.token, 'x.exe', 'application/x-msdownload', 10)).status).toBe(400);
    expect((await presign(a.token, 'x.mp4', 'video/mp4', 201 * 1024 * 1024)).status).toBe(413);
    expect((await presign(a.token, 'x.png', 'image/png', 11 * 1024 * 1024)).status).toBe(413);
    const bytes = Buffer.from('fake mp4 bytes for the test');
    const slot = await presign(a.token, 'clip.mp4', 'video/mp4', bytes.length);
    expect(slot.status).toBe(201);
    // Not there yet: a post cannot use it.
    expect((await api('POST', '/posts', { token: a.token, body: { videos: [slot.body.path] } })).status).toBe(400);
    const put = await fetch(slot.body.uploadUrl, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'video/mp4' },
    });
    expect(put.status).toBe(200);
    const p = await createPost(a.token, { content: 'a clip', videos: [slot.body.path] });
    expect(p.videos).toEqual([slot.body.path]);
    const file = await api('GET', slot.body.path, { token: a.token });
    expect(file.status).toBe(302);
    expect(file.headers.get('location')).toBeTruthy();
  });

  it('a presigned image gets its renditions asynchronously once a post uses it', async () => {
    const a = await newMember();
    const bytes = await image(1600, 900, 'png');
    const slot = await presign(a.token, 'big.png', 'image/png', bytes.length);
    const put = await fetch(slot.body.uploadUrl, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.status).toBe(200);
    await createPost(a.token, { images: [slot.body.path] });
    const record = await waitFor(async () => {
      const u = await getItem<UploadItem>(postUploadKey(idOf(slot.body.path)), true);
      return u?.renditions.w400 ? u : undefined;
    }, 20_000);
    expect(record.renditions.w1200).toMatchObject({ width: 1200, height: 675 });
    expect(record).toMatchObject({ width: 1600, height: 900 });
  });

  it('unknown file keys are 404 and downloads need a session', async () => {
    const a = await newMember();
    expect((await api('GET', '/files/posts/0000000000000000000000.png', { token: a.token })).status).toBe(404);
    expect((await api('GET', '/files/posts/nope', { token: a.token })).status).toBe(404);
    const f = (await upload(a.token, await image(4, 4), 'p.png', 'image/png')).body;
    expect((await api('GET', f.path)).status).toBe(401);
  });
});
