/**
 * ava's `require` module (ava.config.js): registers tsx's loader in each ava worker thread before
 * its test file is imported. Node 20 gives a worker thread none of the loader hooks that
 * `--import tsx` registered in the process, and tsx's own entry refuses to be registered from a
 * thread (it wants --import); its API's `register()` works there. With `--no-worker-threads`
 * (each file in its own process, as bench/test-file-cpu.mjs needs), `nodeArguments` loads tsx and
 * this is a second registration of the same hooks, which changes nothing.
 */
import { register } from 'tsx/esm/api';

register();
