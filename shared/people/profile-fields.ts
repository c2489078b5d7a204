import * as z from '../util/zod.ts';

/**
 * A person's vocabulary: roles, account states, departments and the profile's link and favourite
 * fields. The people area owns it; the API's schemas (shared/api/schemas/common.ts) describe it.
 */
export const Role = z.enum(['member', 'super_admin']);
export const AccountStatus = z.enum(['active', 'pending', 'deactivated']);
export const Department = z.enum([
  '',
  'engineering',
  'product',
  'design',
  'hr',
  'business_development',
  'digital_marketing',
  'finance',
  'operations',
  'support',
  'legal',
]);

export const LINK_FIELDS = [
  'photoShare',
  'professionalNetwork',
  'codeHosting',
  'microblog',
  'video',
  'portfolio',
] as const;
export const FAVOURITE_FIELDS = [
  'favoriteMusic',
  'favoriteMovie',
  'favoriteFood',
  'funFact',
  'dreamDestination',
  'superpower',
  'drink',
] as const;

/** What a profile tells about its person's work and interests: the event feed and the export follow it. */
export const WORK_AND_INTEREST_FIELDS = [
  'title',
  'location',
  'bio',
  'currentWork',
  'department',
  'teamId',
  'managerId',
  'skills',
  'learningInterests',
  'hobbies',
  'interests',
  'projects',
] as const;
