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
      // The pool's long view computes the row asked for (its n × n matrices stay in the workers).
      valueAt: (panelId, i, j) =>
        view().squareRow && panelId !== 'offsets'
          ? view().squareRow(panelId, i)[j]
          : PANELS.find((p) => p.id === panelId).values(view())[i * view().n + j],
      profile: () => Array.from(view().profile.profile),
      tokens: () => [...view().result.tokens],
      // The long view's offset-space cell (i, c): as drawn (float32, null: no key) and in float64.
      offsetCell: (panelId, i, c) => {
        const space = view().offsetSpace;
        const cell = space.panels[panelId][i * space.cols + c + space.reach];
        return { drawn: cell === cell ? cell : null, exact: offsetValue(view(), panelId, i, c) };
      },
      timePanelDraw: (panelId) => figure.timePanelDraw(panelId),
      memory: () => rp.memory(),
    }),
  });
}
