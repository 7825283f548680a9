// The worker of relpos-wasm/worker: one WebAssembly instance, from the module the pool posts,
// running the API's tasks (worker-tasks.js) the pool (worker-pool.js) sends.
import { serveTasks } from './task-worker.js';
import { API_TASKS, startInstance } from './worker-tasks.js';

serveTasks(API_TASKS, startInstance);
