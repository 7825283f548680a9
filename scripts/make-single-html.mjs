// Writes dist/relpos.html: index.html with its style sheet and the page script (the IIFE from
// build/single, WASM and the training corpus included) inlined, so that one file works from disk
// with no network.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { oneFilePolicy } from './one-file-policy.mjs';

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
const script = `\n${js}`;
html = html.replace(styleTag, () => `<style>\n${css}</style>`).replace(scriptTag, () => `<script>${script}</script>`);
// Its script is inline: a Content-Security-Policy without 'unsafe-inline' blocks it unless it
// names the script's hash. The message shown when the script never ran says so, with the policy
// that works (docs/troubleshooting.md).
const hash = `sha256-${createHash('sha256').update(script).digest('base64')}`;
const noScript = /<p class="no-script" id="no-script" role="alert">[\s\S]*?<\/p>/;
if (!noScript.test(html)) throw new Error('index.html: the no-script message not found');
html = html.replace(
  noScript,
  () => `<p class="no-script" id="no-script" role="alert">
      relpos did not start: its script is inline in this file, and was blocked. Under a
      Content-Security-Policy without <code>'unsafe-inline'</code>, allow it by its hash:
      <code class="csp">${oneFilePolicy(hash)}</code>. Or the frame’s <code>sandbox</code> lacks
      <code>allow-scripts</code>, or JavaScript is off.
    </p>`,
);
// The training section's loader is inside the page script (web/page/one-file-page.js), with the
// section, its worker, the training engine's module and the corpus.
const trainTag = '<script type="module" src="./web/train/train-loader.js"></script>';
if (!html.includes(trainTag)) throw new Error('index.html: the training loader tag not found');
html = html.replace(trainTag, '');
writeFileSync(new URL('dist/relpos.html', root), html);
console.log(`dist/relpos.html: ${(html.length / 1024).toFixed(0)} KiB; its policy: ${oneFilePolicy(hash)}`);
