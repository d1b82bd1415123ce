// Worker entry: registers tsx in the worker thread, then loads the TypeScript case runner.
import { register } from 'tsx/esm/api';

register();
await import('./case-worker.ts');
