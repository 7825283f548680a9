// Writes dist/relpos.html: index.html with its style sheet and the page script (the IIFE from
// build/single, WASM and the training corpus included) inlined, so that one file works from disk
// with no network.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

let html = read('index.html');
const css = read('web/page/style.css');
const js = read('build/single/relpos-page.js')
  .replace(/<\/script/gi, '<\\/script')
  .replace(/<!--/g, '<\\!--');

const styleTag = '<link rel="stylesheet" href="./web/page/style.css" />';
const scriptTag = '<script type="module" src="./web/page/main.js"></script>';
if (!html.includes(styleTag) || !html.includes(scriptTag)) throw new Error('index.html: style or script tag not found');
html = html.replace(styleTag, () => `<style>\n${css}</style>`).replace(scriptTag, () => `<script>\n${js}</script>`);
// The training section's loader is inside the page script (web/page/one-file-page.js), with the
// section, its worker, the training engine's module and the corpus.
const trainTag = '<script type="module" src="./web/train/train-loader.js"></script>';
if (!html.includes(trainTag)) throw new Error('index.html: the training loader tag not found');
html = html.replace(trainTag, '');
writeFileSync(new URL('dist/relpos.html', root), html);
console.log(`dist/relpos.html: ${(html.length / 1024).toFixed(0)} KiB`);
