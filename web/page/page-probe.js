// window.relposPage: for tests, benchmarks and curious readers, read-only looks at what is on screen.
import { offsetValue } from '../views/offset-space.js';
import { PANELS } from '../views/panels.js';

/** `compute`: the page's ViewCompute (its view and where it was computed). */
export function exposePageProbe({ rp, figure, compute, getState }) {
  const view = () => compute.view;
  Object.defineProperty(window, 'relposPage', {
    value: Object.freeze({
      state: () => ({ ...getState() }),
      computedBy: () => compute.computedBy,
      // How many of each task the page's workers have computed (longViewBlock: blocks of rows).
      workerTasks: () => compute.taskCounts(),
      workerModules: () => compute.workerModules(),
      panelsDrawn: () => figure.drawCount, // panels drawn so far (not skipped as unchanged)
      // The pool's long view: a Promise of the value, read from the worker that computed it (its
      // n × n matrices stay in the workers).
      valueAt: (panelId, i, j) =>
        view().readRows && panelId !== 'offsets'
          ? view()
              .readRows(i)
              .then((rows) => rows[panelId][(i - rows.first) * view().n + j])
          : PANELS.find((p) => p.id === panelId).values(view())[i * view().n + j],
      profile: () => Array.from(view().profile.profile),
      tokens: () => [...view().result.tokens],
      // The long view's offset-space cell (i, c): a Promise of it as drawn (float32, null: no
      // key) and in float64 (the pool's long view: from the rows its worker computed).
      offsetCell: async (panelId, i, c) => {
        const shown = view();
        const space = shown.offsetSpace;
        const cell = space.panels[panelId][i * space.cols + c + space.reach];
        const rows = shown.readRows ? await shown.readRows(i) : null;
        return { drawn: cell === cell ? cell : null, exact: offsetValue(shown, panelId, i, c, rows) };
      },
      timePanelDraw: (panelId) => figure.timePanelDraw(panelId),
      memory: () => rp.memory(),
    }),
  });
}
