/**
 * The leaderboard's score (a leaf module: the FeedScore declaration orders gsi6 by it, scores.ts moves
 * it): reactions received (dislikes excluded) ×1 + comments and replies received from others ×2 +
 * shares by others ×3.
 */
export const WEIGHTS = { reactions: 1, comments: 2, shares: 3 } as const;

/** What a person's feed score counts. */
export interface ScoreTotals {
  reactions: number;
  comments: number;
  shares: number;
  posts: number;
}

export const scoreOf = (t: Pick<ScoreTotals, 'reactions' | 'comments' | 'shares'>) =>
  t.reactions * WEIGHTS.reactions + t.comments * WEIGHTS.comments + t.shares * WEIGHTS.shares;
