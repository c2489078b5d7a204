/**
 * The feed's vocabulary and the shapes its items hold (a leaf module: the items themselves are declared in
 * entities.ts, see `docs/data-model.md`, Feed).
 */
export const REACTIONS = ['like', 'dislike', 'celebrate', 'support', 'love', 'insightful', 'funny'] as const;
export type Reaction = (typeof REACTIONS)[number];
export const RECOGNITION_CATEGORIES = [
  'teamwork',
  'innovation',
  'above_and_beyond',
  'leadership',
  'customer_focus',
  'learning',
] as const;
export type RecognitionCategory = (typeof RECOGNITION_CATEGORIES)[number];
export type PostType = 'announcement' | 'recognition' | 'poll';

/** The image renditions a post file is stored in, by their width (renditions.ts makes them). */
export const RENDITION_SIZES = { w1200: 1200, w400: 400 } as const;
export type RenditionName = keyof typeof RENDITION_SIZES;

/**
 * The progress a fan-out records with each page of notifications it sends (notice-pages.ts): pages so
 * far, how many were told, and when it finished; a redelivery goes on from the last recorded page.
 */
export interface PageProgress {
  step: number;
  sent: number;
  createdAt: string;
  doneAt?: string;
}

export interface PollItem {
  question: string;
  description: string;
  options: { id: string; text: string }[];
  /** UTC ISO 8601 (fixed width, so it compares as a string). */
  closesAt: string;
  /** Set when the author closed it early. */
  closedAt: string | null;
}

export interface DocumentRef {
  url: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
}

export const zeroReactions = (): Record<Reaction, number> =>
  Object.fromEntries(REACTIONS.map((r) => [r, 0])) as Record<Reaction, number>;

/** Posts are time-sortable ids; this is what the API and every list accept as one. */
export const looksLikeId = (id: string) => /^[0-9a-z]{22}$/.test(id);
