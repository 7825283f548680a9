// The first-load part of the "Learned position patterns" section: a button. Everything else (the
// section's code, its worker, that worker's WebAssembly and the corpus) is fetched only when
// the reader opens the section, or at once from a link that asks for it: the iframe view with
// ?embed=1&panels=train, or a link with the section's set-up (?train=copy&train-size=tiny&
// train-seed=2: every train… parameter but this loader's own, loader-params.js; train-link.js).
// While it is open, the page's address keeps its set-up (../settings/link-sections.js).
import { correctLink, setLinkParams } from '../settings/link-sections.js';
import { linkValue, switchFromText } from '../settings/link-values.js';
import { LOADER_PARAMS, LONGER_STEPS, TRAIN_WORKERS } from './loader-params.js';

const section = document.getElementById('train-section');
const button = document.getElementById('train-open');
const root = document.getElementById('train-root');
const params = new URLSearchParams(location.search);

// Its own parameters as every reader of the page takes them: one given more than once is read from
// its first, with a note among the page's.
const ownValue = (name) => linkValue(params, name, (note) => correctLink(`Link corrected: ${note}.`));
// ?train-workers=1 trains in one worker (the numbers are the same with two); ?longer-steps=N below.
const workers = Number(ownValue(TRAIN_WORKERS));
const own = (name) => LOADER_PARAMS.includes(name);
// This loader's parameters, kept in the address as the link gave them: its own for as long as
// the page is open, the section's set-up until the section says what it runs (train=<task> from
// then on, train-section.js's mountFromLink: an open section is in the address, a closed one adds
// nothing).
const given = [...params].filter(([name]) => own(name) || /^train(-|$)/.test(name));
setLinkParams(given);

function open({ autostart = false } = {}) {
  button.disabled = true;
  button.textContent = 'Loading…';
  import('./train-section.js')
    .then((lazy) => {
      button.hidden = true;
      section.querySelector('.train-weight')?.remove();
      section.dataset.opened = 'true';
      const options = { autostart, ...(workers === 1 || workers === 2 ? { workers } : {}) };
      lazy.mountFromLink(root, params, options, setLinkParams, correctLink);
    })
    .catch((error) => {
      button.disabled = false;
      button.textContent = 'Open the training section';
      root.textContent = `The training section could not be loaded: ${error.message}`;
    });
}

// "Longer than trained" in the schemes section: it trains models too, so it comes with this loader
// (not in the self-contained page) and loads its code and worker on the first click.
// ?longer-steps=N trains each model N steps instead of the experiment's budget (a quicker look).
function addLongerThanTrained() {
  const schemes = document.getElementById('schemes-section');
  if (!schemes) return;
  const box = document.createElement('div');
  box.id = 'schemes-longer';
  box.className = 'schemes-longer';
  const title = document.createElement('h3');
  title.textContent = 'Longer than trained';
  const lead = document.createElement('p');
  lead.className = 'explain';
  lead.textContent =
    'The ALiBi paper’s experiment at toy scale: one small model per position scheme learns to predict the next word of the training corpus from windows of one length (the same text, steps and seed for each), then reads the same held-out words in windows 2, 4 and 8 times as long. Trained in a background worker, in under a minute.';
  const run = document.createElement('button');
  run.type = 'button';
  run.id = 'schemes-longer-run';
  run.textContent = 'Train and test longer';
  const status = document.createElement('output');
  status.className = 'longer-status';
  status.setAttribute('role', 'status');
  box.append(title, lead, run, status);
  schemes.append(box);
  const steps = Number(ownValue(LONGER_STEPS));
  const settings = Number.isInteger(steps) && steps > 0 ? { steps } : {};
  run.addEventListener('click', () => {
    run.disabled = true;
    import('./longer-than-trained.js')
      .then(({ runLongerThanTrained }) => runLongerThanTrained(box, settings))
      .catch((error) => {
        status.textContent = `The experiment could not run: ${error.message}`;
      })
      .finally(() => {
        run.disabled = false;
      });
  });
}
addLongerThanTrained();

if (section && button && root) {
  const panels = (params.get('panels') ?? '').toLowerCase().split(/[\s,]+/); // any case, as the page reads it
  if (switchFromText(params.get('embed')) === true) {
    section.hidden = !panels.includes('train');
    if (!section.hidden) open({ autostart: switchFromText(params.get('autostart')) === true });
  } else {
    section.hidden = false; // hidden in the HTML: the self-contained page (no loader) never shows it
    button.addEventListener('click', () => open());
    // A link with the section's set-up opens it, and goes there (unless it names a place of its own).
    if (given.some(([name]) => !own(name))) {
      open();
      if (!location.hash) section.scrollIntoView();
    }
  }
}
