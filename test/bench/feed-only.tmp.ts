import { feedBench } from '/work/main/test/bench/feed.ts';
process.exit((await feedBench()) ? 0 : 1);
