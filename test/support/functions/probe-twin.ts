/** A second function over the same module as probe.ts: its own execution environments. */
export { handler } from './probe.ts';
