/** Meeting types and derived statuses (a leaf: the meeting entities and the route schemas read them). */
export const MEETING_TYPES = ['project', 'internal', 'client', 'general'] as const;
export type MeetingType = (typeof MEETING_TYPES)[number];
export const MEETING_STATUSES = ['UPCOMING', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];
