import * as z from 'zod';

/** A data export as its routes answer it (README, "People's data: export and erasure"). */
export const DataExportView = z
  .object({
    id: z.string(),
    userId: z.string(),
    status: z.enum(['running', 'ready', 'failed', 'expired']),
    requestedAt: z.string(),
    readyAt: z.string().nullable(),
    expiresAt: z.string().nullable().describe('When the document is erased (set once it is ready).'),
    progress: z.object({ pages: z.number().int(), scanned: z.number().int() }),
    counts: z.record(z.string(), z.number().int()).describe('Items collected per section of the document.'),
    url: z
      .string()
      .nullable()
      .describe('While ready: a signed link to the JSON document, valid for 15 minutes (ask again for a new one).'),
  })
  .meta({ id: 'DataExport' });

/** An erasure as its routes answer it: no personal data, ever. */
export const ErasureView = z
  .object({
    id: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    reason: z.enum(['retention', 'super_admin']),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    progress: z.object({ pages: z.number().int(), scanned: z.number().int() }),
    counts: z.record(z.string(), z.number().int()).describe('What was done, by kind of item.'),
  })
  .meta({ id: 'Erasure' });

export const LegalHold = z.object({ userId: z.string(), legalHold: z.boolean() }).meta({ id: 'LegalHold' });
