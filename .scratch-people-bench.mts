import { directoryBench } from './test/bench/directory.ts';
console.log(await directoryBench());
process.exit(0);
