import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getItem, write } from '../../shared/db/table.ts';
import { DomainError } from '../../shared/errors.ts';
import { PostUpload, UploadQuota } from '../../shared/feed/entities.ts';
import { UPLOAD_BYTES_PER_DAY, UPLOADS_PER_DAY } from '../../shared/feed/upload-quota.ts';
import { resolveAttachments } from '../../shared/feed/uploads.ts';
import { bucketName, s3, setS3Client } from '../../shared/storage/client.ts';
import { pendingKeyOf } from '../../shared/storage/pending-uploads.ts';
import { api, baseUrl, newMember } from '../support/api.ts';
import { htmlBytes, mp4Bytes, pdfBytes, svgBytes } from '../support/media-samples.ts';
import { createPost, form, image, presign, upload, waitFor } from './helpers.ts';

const idOf = (path: string) => path.split('/').pop()!.split('.')[0];

describe('post media', () => {
  it('makes 1200 px and 400 px WebP renditions of a large image, oriented and without metadata', async () => {
    const a = await newMember();
    const res = await upload(a.token, await image(2400, 1200, 'jpeg'), 'wide.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mimeType: 'image/jpeg', width: 2400, height: 1200, name: 'wide.jpg' });
    const record = (await PostUpload.get({ id: idOf(res.body.path) }, { consistent: true }))!;
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
      const record = (await PostUpload.get({ id: idOf(res.body.path) }, { consistent: true }))!;
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
    const bytes = mp4Bytes();
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
      const u = await PostUpload.get({ id: idOf(slot.body.path) }, { consistent: true });
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

/** What the bucket holds under a key: its stored type and disposition, or null when there is nothing. */
async function storedObject(key: string) {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: bucketName(), Key: key }));
    return { contentType: head.ContentType, disposition: head.ContentDisposition ?? null };
  } catch {
    return null;
  }
}

const put = (url: string, bytes: Buffer, contentType: string) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': contentType } });

/** The headers every media answer carries (shared/storage/media-headers.ts). */
function expectMediaHeaders(headers: Headers, contentType: string, download: boolean) {
  expect(headers.get('content-type')).toBe(contentType);
  expect(headers.get('content-security-policy')).toBe('sandbox');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('content-disposition')).toBe(download ? 'attachment' : null);
}

describe('hostile uploads: nothing planted is served as active content', () => {
  it('refuses a presigned PUT whose Content-Type is not the declared one (the type is signed)', async () => {
    const a = await newMember();
    const bytes = htmlBytes();
    const slot = await presign(a.token, 'pixel.png', 'image/png', bytes.length);
    expect(slot.status).toBe(201);
    expect(new URL(slot.body.uploadUrl).searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');
    for (const type of ['text/html', 'image/svg+xml']) {
      const res = await put(slot.body.uploadUrl, bytes, type);
      expect(res.status, type).toBe(403);
      expect(await res.text()).toContain('SignatureDoesNotMatch');
    }
    // Nothing landed, so a post cannot use it.
    const post = await api('POST', '/posts', { token: a.token, body: { images: [slot.body.path] } });
    expect(post.status).toBe(400);
    expect(String(post.body.message)).toMatch(/not been uploaded/);
  });

  it('refuses at attach bytes that are not the declared type, and deletes them and the upload', async () => {
    const a = await newMember();
    for (const [bytes, declared] of [
      [htmlBytes(), 'image/png'],
      [svgBytes(), 'image/png'],
      [pdfBytes(), 'video/mp4'],
    ] as const) {
      const slot = await presign(a.token, 'x', declared, bytes.length);
      expect(slot.status).toBe(201);
      // The declared type, so the signature holds: only the bytes lie.
      expect((await put(slot.body.uploadUrl, bytes, declared)).status).toBe(200);
      const id = idOf(slot.body.path);
      const record = (await PostUpload.get({ id }, { consistent: true }))!;
      expect(await storedObject(pendingKeyOf(record.objectKey))).not.toBeNull();
      const field = declared === 'video/mp4' ? 'videos' : 'images';
      const res = await api('POST', '/posts', { token: a.token, body: { content: 'x', [field]: [slot.body.path] } });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(String(res.body.message)).toContain(`is not ${declared} as declared`);
      expect(await storedObject(pendingKeyOf(record.objectKey))).toBeNull();
      expect(await storedObject(record.objectKey)).toBeNull();
      expect(await getItem(PostUpload.key({ id }), true)).toBeUndefined();
      expect((await api('GET', slot.body.path, { token: a.token })).status).toBe(404);
    }
  });

  it('serves nothing before it is verified, and a verified upload with its type written on the object', async () => {
    const a = await newMember();
    const png = await image(40, 30, 'png');
    const slot = await presign(a.token, 'ok.png', 'image/png', png.length);
    expect((await put(slot.body.uploadUrl, png, 'image/png')).status).toBe(200);
    // Unverified bytes are not served, even to their owner.
    expect((await api('GET', slot.body.path, { token: a.token })).status).toBe(404);
    await createPost(a.token, { images: [slot.body.path] });
    const record = (await PostUpload.get({ id: idOf(slot.body.path) }, { consistent: true }))!;
    expect(record.status).toBe('ready');
    expect(await storedObject(record.objectKey)).toEqual({ contentType: 'image/png', disposition: null });
    expect(await storedObject(pendingKeyOf(record.objectKey))).toBeNull();
    const file = await api('GET', slot.body.path, { token: a.token });
    expect(file.status).toBe(200);
    expectMediaHeaders(file.headers, 'image/png', false);

    // A video: the 302 and the signed URL it leads to both carry the verified type.
    const mp4 = mp4Bytes();
    const clip = await presign(a.token, 'clip.mp4', 'video/mp4', mp4.length);
    expect((await put(clip.body.uploadUrl, mp4, 'video/mp4')).status).toBe(200);
    await createPost(a.token, { videos: [clip.body.path] });
    const clipRecord = (await PostUpload.get({ id: idOf(clip.body.path) }, { consistent: true }))!;
    expect(await storedObject(clipRecord.objectKey)).toEqual({ contentType: 'video/mp4', disposition: null });
    const redirect = await api('GET', clip.body.path, { token: a.token });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('content-security-policy')).toBe('sandbox');
    const target = await fetch(redirect.headers.get('location')!);
    expect(target.status).toBe(200);
    expect(target.headers.get('content-type')).toBe('video/mp4');
  });

  it('confirms a presigned upload once: a PUT repeated after the attach lands nowhere served, a longer one is refused', async () => {
    const a = await newMember();
    const png = await image(40, 30, 'png');
    const slot = await presign(a.token, 'once.png', 'image/png', png.length);
    expect((await put(slot.body.uploadUrl, png, 'image/png')).status).toBe(200);
    await createPost(a.token, { images: [slot.body.path] });
    const record = (await PostUpload.get({ id: idOf(slot.body.path) }, { consistent: true }))!;
    // The length is signed: more bytes than declared are refused by the bucket.
    const longer = await put(slot.body.uploadUrl, Buffer.concat([png, Buffer.alloc(16)]), 'image/png');
    expect(longer.status).toBe(403);
    // Other bytes of the declared length and type, with the same URL while it lives: they land under
    // the pending prefix only (expired there within a day), and are never copied to the served key.
    const other = Buffer.from(png);
    other[other.length - 1] ^= 0xff;
    expect((await put(slot.body.uploadUrl, other, 'image/png')).status).toBe(200);
    await createPost(a.token, { images: [slot.body.path] });
    const served = await api('GET', slot.body.path, { token: a.token });
    expect(served.status).toBe(200);
    const stored = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: record.objectKey }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(png)).toBe(true);
  });

  it('copies only the bytes it checked: a PUT between the check and the copy is a 409 and nothing is attached', async () => {
    const a = await newMember();
    const png = await image(40, 30, 'png');
    const slot = await presign(a.token, 'race.png', 'image/png', png.length);
    expect((await put(slot.body.uploadUrl, png, 'image/png')).status).toBe(200);
    const record = (await PostUpload.get({ id: idOf(slot.body.path) }, { consistent: true }))!;
    // Right after the attach reads the pending object's head, the uploader PUTs other bytes there.
    const racing = new S3Client({ region: process.env.AWS_REGION, forcePathStyle: true });
    const replaced = Buffer.from(png);
    replaced[replaced.length - 1] ^= 0xff;
    let raced = false;
    racing.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (context.commandName === 'GetObjectCommand' && !raced) {
          raced = true;
          await s3().send(
            new PutObjectCommand({
              Bucket: bucketName(),
              Key: pendingKeyOf(record.objectKey),
              Body: replaced,
              ContentType: 'image/png',
            }),
          );
        }
        return out;
      },
      { step: 'initialize', name: 'racingPut' },
    );
    setS3Client(racing);
    let err: unknown;
    try {
      err = await resolveAttachments(a.id, { images: [slot.body.path], videos: [], documents: [] }).then(
        () => null,
        (e: unknown) => e,
      );
    } finally {
      setS3Client(undefined);
      racing.destroy();
    }
    expect(raced).toBe(true);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('conflict');
    // Nothing half-written: no served object, the upload still awaiting its check.
    expect(await storedObject(record.objectKey)).toBeNull();
    expect((await PostUpload.get({ id: record.id }, { consistent: true }))?.status).toBe('awaiting');
    // Attached again, the bytes now there are checked and copied.
    await createPost(a.token, { images: [slot.body.path] });
    const stored = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: record.objectKey }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(replaced)).toBe(true);
  });

  it('gives every media answer the sandbox policy, nosniff, and attachment to anything but images and videos', async () => {
    const a = await newMember();
    const pdf = (await upload(a.token, pdfBytes(), 'notes.pdf', 'text/html')).body;
    expect(pdf.mimeType).toBe('application/pdf');
    const doc = await api('GET', pdf.path, { token: a.token });
    expect(doc.status).toBe(200);
    expectMediaHeaders(doc.headers, 'application/pdf', true);
    const pdfRecord = (await PostUpload.get({ id: idOf(pdf.path) }, { consistent: true }))!;
    expect(await storedObject(pdfRecord.objectKey)).toEqual({
      contentType: 'application/pdf',
      disposition: 'attachment',
    });

    const png = (await upload(a.token, await image(8, 8, 'png'), 'p.html', 'text/html')).body;
    expect(png.mimeType).toBe('image/png');
    expectMediaHeaders((await api('GET', png.path, { token: a.token })).headers, 'image/png', false);
    const rendition = await api('GET', png.path.replace(/\.png$/, '.w1200.webp'), { token: a.token });
    expectMediaHeaders(rendition.headers, 'image/webp', false);

    const avatar = await api('POST', '/users/me/avatar', {
      token: a.token,
      raw: form(await image(64, 64, 'png'), 'me.png', 'image/png'),
    });
    expect(avatar.status, avatar.text).toBe(201);
    expectMediaHeaders((await api('GET', avatar.body.image, { token: a.token })).headers, 'image/webp', false);
  });

  it('multipart uploads judge the bytes: HTML or SVG declared as an image or a PDF is a 400', async () => {
    const a = await newMember();
    for (const [bytes, type, name] of [
      [htmlBytes(), 'image/png', 'x.png'],
      [svgBytes(), 'image/svg+xml', 'x.svg'],
      [htmlBytes(), 'application/pdf', 'x.pdf'],
    ] as const) {
      const res = await upload(a.token, bytes, name, type);
      expect(res.status, name).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    for (const path of ['/users/me/avatar']) {
      const res = await api('POST', path, { token: a.token, raw: form(svgBytes(), 'me.png', 'image/png') });
      expect(res.status).toBe(400);
    }
  });

  it('holds each person to a daily upload quota: 429 with Retry-After past it, nothing recorded', async () => {
    const a = await newMember();
    const b = await newMember();
    const day = new Date().toISOString().slice(0, 10);
    await write(UploadQuota.add({ userId: a.id, day }, { uploads: UPLOADS_PER_DAY - 1 }));
    expect((await presign(a.token, 'last.png', 'image/png', 100)).status).toBe(201);
    for (const res of [
      await presign(a.token, 'one-more.png', 'image/png', 100),
      await upload(a.token, await image(4, 4), 'p.png', 'image/png'),
    ]) {
      expect(res.status, res.text).toBe(429);
      expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      expect(String(res.body.message)).toMatch(/upload quota/);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    }
    const quota = await UploadQuota.get({ userId: a.id, day }, { consistent: true });
    expect(quota?.uploads).toBe(UPLOADS_PER_DAY);
    // The bytes count too: past the day's bytes, even one upload is refused.
    await write(UploadQuota.add({ userId: b.id, day }, { bytes: UPLOAD_BYTES_PER_DAY - 1000 }));
    expect((await presign(b.token, 'clip.mp4', 'video/mp4', 2000)).status).toBe(429);
    expect((await presign(b.token, 'small.png', 'image/png', 500)).status).toBe(201);
  });
});
