/**
 * The names of the post lists (docs/data-model.md, Feed): one partition per list (`POSTS#<name>`),
 * one entry per post. A leaf module: the declarations (entities.ts) and the lists' writers share it.
 */
export const postLists = {
  all: 'ALL',
  author: (userId: string) => `AUTHOR#${userId}`,
  tag: (tag: string) => `TAG#${tag}`,
  type: (type: 'announcement' | 'recognition' | 'poll') => `TYPE#${type}`,
  recognized: (userId: string) => `RECOGNIZED#${userId}`,
  bookmarks: (userId: string) => `BOOKMARKS#${userId}`,
};
