/**
 * A website record's statuses and when it is public (a leaf module: the WebsiteEntry declaration's
 * public index and the website's writers share it).
 */
export const WEBSITE_STATUSES = ['pending', 'approved', 'rejected', 'unpublished'] as const;
export type WebsiteStatus = (typeof WEBSITE_STATUSES)[number];

/** On the public website: approved and not hidden. */
export const isPublic = (e: { status: WebsiteStatus; hidden: boolean }) => e.status === 'approved' && !e.hidden;
