import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { avatarOwnerTag } from '../../shared/people/avatar-tag.ts';
import { legacyAvatarOwnerTag } from '../../shared/people/avatars.ts';
import { admin, api } from '../support/api.ts';
import { expectStatus, person, storedAvatars, upload } from './helpers.ts';

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** Downloads an image path with the session and reads it back with sharp. */
async function download(path: string, token: string) {
  const res = await fetch(`${(await import('../support/api.ts')).baseUrl()}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), bytes };
}

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf: Buffer) => {
  let c = -1;
  for (const x of buf) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
const pngChunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A decompression bomb: a valid PNG header declaring 60,000 × 60,000 pixels, a few hundred KB of zeros. */
function pngBomb(): Buffer {
  const size = 60_000;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc((size + 1) * 200), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('avatars: the pipeline', () => {
  it.each([
    ['JPG', 'image/jpeg', 'photo.jpg', () => solid(640, 480, '#3366cc').jpeg().toBuffer()],
    ['PNG smaller than 256 px (enlarged)', 'image/png', 'small.png', () => solid(100, 50, '#cc3333').png().toBuffer()],
    ['WebP, portrait', 'image/webp', 'tall.webp', () => solid(300, 900, '#33cc66').webp().toBuffer()],
  ])('turns a %s into one stored 256 × 256 WebP served with the session', async (_what, type, name, make) => {
    const m = await person();
    const p = expectStatus(await upload('/users/me/avatar', m.token, await make(), name, type), 201, 'upload');
    expect(p.id).toBe(m.id);
    // Keyed by an opaque tag of the owner, never the id: the public website links avatars by key. The
    // tag is keyed (AVATAR_SECRET): not the unkeyed hash of 0.2.0, which anyone knowing the id computes.
    expect(p.image).toMatch(new RegExp(`^/api/v1/files/avatars/${avatarOwnerTag(m.id)}_[0-9a-z]+\\.webp$`));
    expect(p.image).not.toContain(m.id);
    expect(p.image).not.toContain(legacyAvatarOwnerTag(m.id));
    expect(await storedAvatars(m.id)).toHaveLength(1);
    const viewer = await person();
    const file = await download(p.image, viewer.token);
    expect(file.status).toBe(200);
    expect(file.type).toMatch(/^image\/webp/);
    const meta = await sharp(file.bytes).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: 256,
      height: 256,
    });
    expect((await api('GET', '/users/me/profile', { token: m.token })).body.image).toBe(p.image);
  });

  it('crops a wide image to its centred square', async () => {
    // Left third red, middle third green, right third blue: the centred square is all green.
    const third = (background: string) => solid(300, 300, background).png().toBuffer();
    const wide = await sharp({ create: { width: 900, height: 300, channels: 3, background: '#000' } })
      .composite([
        { input: await third('#ff0000'), left: 0, top: 0 },
        { input: await third('#00ff00'), left: 300, top: 0 },
        { input: await third('#0000ff'), left: 600, top: 0 },
      ])
      .png()
      .toBuffer();
    const m = await person();
    const p = expectStatus(await upload('/users/me/avatar', m.token, wide), 201, 'upload');
    const { data, info } = await sharp((await download(p.image, m.token)).bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (const [x, y] of [
      [2, 2],
      [253, 2],
      [128, 128],
      [2, 253],
      [253, 253],
    ]) {
      const at = (y * info.width + x) * info.channels;
      const [r, g, b] = [data[at], data[at + 1], data[at + 2]];
      expect(g, `pixel ${x},${y}`).toBeGreaterThan(200);
      expect(r + b, `pixel ${x},${y}`).toBeLessThan(60);
    }
  });

  it('replaces the image on a second upload; unknown and malformed keys answer 404, no session 401', async () => {
    const m = await person();
    const first = expectStatus(
      await upload('/users/me/avatar', m.token, await solid(300, 300, '#111').png().toBuffer()),
      201,
      'first',
    );
    const second = expectStatus(
      await upload('/users/me/avatar', m.token, await solid(300, 300, '#eee').jpeg().toBuffer(), 'b.jpg', 'image/jpeg'),
      201,
      'second',
    );
    expect(second.image).not.toBe(first.image);
    expect((await api('GET', '/users/me/profile', { token: m.token })).body.image).toBe(second.image);
    expect((await download(`/api/v1/files/avatars/${m.id}_nothingstoredhere.webp`, m.token)).status).toBe(404);
    expect((await download('/api/v1/files/avatars/..%2F..%2Fsecrets.json', m.token)).status).toBe(404);
    expect((await fetch(`${(await import('../support/api.ts')).baseUrl()}${second.image}`)).status).toBe(401);
  });

  it('lets a super admin set somebody else’s avatar; members get 403 and unknown people 404', async () => {
    const a = await admin();
    const m = await person();
    const target = await person();
    const bytes = await solid(300, 300, '#888').png().toBuffer();
    expect((await upload(`/people/${target.id}/avatar`, m.token, bytes)).status).toBe(403);
    expect(await storedAvatars(target.id)).toEqual([]);
    const p = expectStatus(await upload(`/people/${target.id}/avatar`, a.token, bytes), 201, 'admin upload');
    expect(p.id).toBe(target.id);
    expect((await api('GET', '/users/me/profile', { token: target.token })).body.image).toBe(p.image);
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect((await upload(`/people/${ghost}/avatar`, a.token, bytes)).status).toBe(404);
    expect(await storedAvatars(ghost)).toEqual([]);
  });
});

describe('avatars: hostile uploads leave nothing stored', () => {
  it.each([
    ['a text file named .png that claims to be a PNG', async () => Buffer.from('just some text, not a picture\n'), 400],
    ['a PNG bomb declaring 60,000 × 60,000 pixels', async () => pngBomb(), 400],
    ['a truncated JPEG', async () => (await solid(800, 600, '#a0a').jpeg().toBuffer()).subarray(0, 400), 400],
    [
      'a truncated PNG',
      async () => {
        const full = await sharp({
          create: {
            width: 400,
            height: 400,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 40 },
          },
        })
          .png()
          .toBuffer();
        return full.subarray(0, Math.floor(full.length / 2));
      },
      400,
    ],
    ['a GIF', async () => solid(50, 50, '#0a0').gif().toBuffer(), 400],
    ['an SVG', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 400],
    ['an empty file', async () => Buffer.alloc(0), 400],
    [
      'a file over 2 MB (2,097,153 bytes of a real PNG)',
      async () => {
        const png = await solid(64, 64, '#123').png().toBuffer();
        return Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 + 1 - png.length)]);
      },
      413,
    ],
  ])('%s', async (_what, make, status) => {
    const m = await person();
    const res = await upload('/users/me/avatar', m.token, await make(), 'avatar.png', 'image/png');
    expect(res.status, res.text).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String) });
    expect(await storedAvatars(m.id)).toEqual([]);
    expect((await api('GET', '/users/me/profile', { token: m.token })).body.image).toBeNull();
  });

  it('accepts exactly 2,097,152 bytes and wants the part named file, sent as multipart', async () => {
    const m = await person();
    const png = await solid(64, 64, '#321').png().toBuffer();
    const atLimit = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 - png.length)]);
    expectStatus(await upload('/users/me/avatar', m.token, atLimit), 201, 'exactly 2 MB');
    expect((await upload('/users/me/avatar', m.token, png, 'a.png', 'image/png', 'picture')).status).toBe(400);
    expect((await api('POST', '/users/me/avatar', { token: m.token, body: { file: 'x' } })).status).toBe(400);
    expect(await storedAvatars(m.id)).toHaveLength(1);
  });
});
