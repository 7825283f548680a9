// The self-contained page's one script (dist/relpos.html): the page and the training section's
// loader, which index.html loads as two module scripts.
import './main.js';
import '../train/train-loader.js';
