// A view worker: a module worker with its own WebAssembly instance (from the pool's module)
// that runs the API's tasks and the page's view tasks (view-tasks.js) off the main thread.
import { serveTasks } from '../api/task-worker.js';
import { API_TASKS, startInstance } from '../api/worker-tasks.js';
import { VIEW_TASKS } from './view-tasks.js';

serveTasks({ ...API_TASKS, ...VIEW_TASKS }, async (init) => ({ ...(await startInstance(init)), cache: {} }));
