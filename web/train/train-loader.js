// The first-load part of the "Learned position patterns" section: a button. Everything else (the
// section's code, its worker, that worker's WebAssembly and the corpus) is fetched only when
// the reader opens the section, or at once in the iframe view that asks for it (?embed=1&panels=train).
const section = document.getElementById('train-section');
const button = document.getElementById('train-open');
const root = document.getElementById('train-root');

function open({ autostart = false } = {}) {
  button.disabled = true;
  button.textContent = 'Loading…';
  import('./train-section.js')
    .then(({ mountTrainSection }) => {
      button.hidden = true;
      section.querySelector('.train-weight')?.remove();
      section.dataset.opened = 'true';
      mountTrainSection(root, { autostart });
    })
    .catch((error) => {
      button.disabled = false;
      button.textContent = 'Open the training section';
      root.textContent = `The training section could not be loaded: ${error.message}`;
    });
}

if (section && button && root) {
  const params = new URLSearchParams(location.search);
  const panels = (params.get('panels') ?? '').split(/[\s,]+/);
  if (params.get('embed') === '1') {
    section.hidden = !panels.includes('train');
    if (!section.hidden) open({ autostart: params.get('autostart') === '1' });
  } else {
    section.hidden = false; // hidden in the HTML: the self-contained page (no loader) never shows it
    button.addEventListener('click', () => open());
  }
}
