import sharp from 'sharp';
import { expect } from 'vitest';
import { api } from '../support/api.ts';

/** Feed test helpers over the local runtime. */
export const future = (ms: number) => new Date(Date.now() + ms).toISOString();

export async function createPost(token: string, body: Record<string, unknown>) {
  const res = await api('POST', '/posts', { token, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function getPost(token: string, id: string) {
  const res = await api('GET', `/posts/${id}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A real image of this size (a gradient, so the encoders have something to do). */
export async function image(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png',
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([i % 256, (i >> 8) % 256, 128], i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

export function form(bytes: Buffer, name: string, type: string): FormData {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return fd;
}

export async function upload(token: string, bytes: Buffer, name: string, type: string) {
  return api('POST', '/files/posts', { token, raw: form(bytes, name, type) });
}

/** Asks for a presigned upload slot (`POST /files/posts/uploads`); the bytes are PUT to its uploadUrl. */
export async function presign(token: string, name: string, mimeType: string, sizeBytes: number) {
  return api('POST', '/files/posts/uploads', { token, body: { name, mimeType, sizeBytes } });
}

export async function notificationsOf(token: string) {
  const res = await api('GET', '/notifications?limit=50', { token });
  expect(res.status).toBe(200);
  return res.body as { kind: string; postId: string | null; commentId: string | null; actor: { id: string } | null }[];
}

/** Polls until a notification matches (delivery may be asynchronous). */
export async function waitFor<T>(read: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const hit = await read();
    if (hit !== undefined) return hit;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}
