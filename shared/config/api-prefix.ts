/** Where the HTTP API lives: every route's path and every URL the service hands out begins with it. */
export const API_PREFIX = '/api/v1';
