import { User, type UserFields, type UserItem } from './entities.ts';

export type { ProjectItem, UserItem } from './entities.ts';

export const getUser = (userId: string, consistent = false) => User.get({ id: userId }, { consistent });

/** Many people by id in batch reads; unknown ids are absent from the map. */
export async function getUsers(ids: Iterable<string>): Promise<Map<string, UserItem>> {
  const unique = [...new Set(ids)].filter(Boolean);
  const found = await User.getMany(unique.map((id) => ({ id })));
  return new Map(found.filter((u): u is UserItem => !!u).map((u) => [u.id, u]));
}

/** The fields a new account starts with blank: everything but who they are and when they joined. */
export type BlankProfile = Omit<
  UserFields,
  'id' | 'email' | 'name' | 'role' | 'status' | 'joinedAt' | 'rev' | 'actorId' | 'updatedAt'
>;

/** The blank profile fields of a new account. */
export function blankProfile(): BlankProfile {
  return {
    title: '',
    location: '',
    bio: '',
    currentWork: '',
    department: '',
    teamId: null,
    managerId: null,
    skills: [],
    learningInterests: [],
    hobbies: [],
    interests: [],
    projects: [],
    joinedOn: null,
    dateOfBirth: null,
    isFeatured: false,
    featuredNote: '',
    featuredAt: null,
    reportCount: 0,
    postCount: 0,
    image: null,
    lastSeenAt: null,
    photoShare: '',
    professionalNetwork: '',
    codeHosting: '',
    microblog: '',
    video: '',
    portfolio: '',
    favoriteMusic: '',
    favoriteMovie: '',
    favoriteFood: '',
    funFact: '',
    dreamDestination: '',
    superpower: '',
    drink: '',
  };
}
