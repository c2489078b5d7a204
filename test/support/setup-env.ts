import { inject } from 'vitest';

// Workers use the same DynamoDB, bucket and secrets as the runtime the global setup started.
Object.assign(process.env, inject('localEnv'));
