// The page's controller: reads the controls, calls the JS API, draws with the render modules.
import { createRelPos } from '../api/index.js';
import { drawLinePlot } from '../render/line-plot.js';

const canvas = document.getElementById('profile-canvas');
const form = document.getElementById('profile-controls');
const status = document.getElementById('profile-status');
const rp = await createRelPos();

function readParams() {
  return Object.fromEntries([...form.elements].map((input) => [input.name, Number(input.value)]));
}

function render() {
  let result;
  try {
    result = rp.localityProfile(readParams());
  } catch (error) {
    status.textContent = error.message;
    status.classList.add('error');
    return;
  }
  status.classList.remove('error');
  const { offsets, profile } = result;
  drawLinePlot(canvas, { x: offsets, y: profile, xLabel: 'offset j − i', yLabel: 'score q · aᴷ' });
  const peak = profile.indexOf(Math.max(...profile));
  const min = Math.min(...profile);
  const max = Math.max(...profile);
  canvas.setAttribute(
    'aria-label',
    `Line plot of the locality profile over offsets ${offsets[0]} to ${offsets[offsets.length - 1]}; scores from ${min.toFixed(3)} to ${max.toFixed(3)}, highest at offset ${offsets[peak]}.`,
  );
  status.textContent = `Highest score ${max.toFixed(3)} at offset ${offsets[peak]}.`;
  document.body.dataset.ready = 'true';
}

form.addEventListener('input', render);
new ResizeObserver(render).observe(canvas.parentElement);
render();
