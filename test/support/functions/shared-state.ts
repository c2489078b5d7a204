/** Module memory two test functions import: each environment must see its own copy. */
export const state: { value?: string } = {};
