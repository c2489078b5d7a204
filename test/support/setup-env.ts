import { inject } from 'vitest';
import { divertLogLines } from './runtime-log.ts';

// Workers use the same DynamoDB, bucket and secrets as the runtime the global setup started.
Object.assign(process.env, inject('localEnv'));

// Domain code called directly by a test logs too: into the run's log file.
divertLogLines();
