import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The local runtime's stand-in for SES and SNS: every e-mail and push delivery attempt is appended
 * to `DATA_DIR/outbox.jsonl` and read back by `GET /_local/outbox`. Never used when deployed.
 */
export interface OutboxEntry {
  channel: 'email' | 'push';
  to: string;
  subject?: string;
  title?: string;
  body: string;
  link?: string;
  kind?: string;
  data?: Record<string, unknown>;
  attachments?: { filename: string; contentType: string; content: string }[];
  at: string;
}

const file = () => join(process.env.DATA_DIR ?? '.data', 'outbox.jsonl');

export function appendToOutbox(entry: Omit<OutboxEntry, 'at'>): void {
  const path = file();
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, `${JSON.stringify({ ...entry, at: new Date().toISOString() })}\n`);
}

/** Entries for one recipient (and channel), newest first. */
export function readOutbox(filter: { to?: string; channel?: string }): OutboxEntry[] {
  const path = file();
  if (!existsSync(path)) return [];
  const entries: OutboxEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const e = JSON.parse(line) as OutboxEntry;
      if (filter.to && e.to.toLowerCase() !== filter.to.toLowerCase()) continue;
      if (filter.channel && e.channel !== filter.channel) continue;
      entries.push(e);
    } catch {
      // a torn last line from a crash: skip it
    }
  }
  return entries.reverse();
}
