// theme="inherit": an element follows the page around it. Its light or dark colours come from
// the nearest ancestor that says which (a `dark` or `light` class, as VitePress puts on <html>;
// data-theme, data-bs-theme or data-md-color-scheme), else from the luminance of the nearest
// background colour, else from the page's color-scheme and prefers-color-scheme; any --relpos-* variable the page sets on an
// ancestor is used as given. It redraws when any of these change (a MutationObserver on the
// ancestors' class, style and theme attributes, and the media query).
import { COLOUR_VARIABLES } from '../figures/figure-css.js';

const THEME_ATTRIBUTES = ['class', 'style', 'data-theme', 'data-bs-theme', 'data-md-color-scheme'];
const DARK_WORDS = /dark|slate|night|black/i;

function parentOf(node) {
  return node.parentElement ?? node.getRootNode?.().host ?? null;
}

function ancestors(element) {
  const list = [];
  for (let node = parentOf(element); node; node = parentOf(node)) list.push(node);
  return list;
}

// 0–1, from a computed rgb()/rgba() colour; null when transparent or unreadable.
function luminanceOf(colour) {
  const match = /rgba?\(([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)(?:[ ,/]+([\d.]+))?/.exec(colour);
  if (!match || (match[4] !== undefined && Number(match[4]) === 0)) return null;
  const [r, g, b] = match.slice(1, 4).map((v) => Number(v) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** 'dark' or 'light': what the page around `element` shows (see the comment at the top). */
export function hostScheme(element) {
  const chain = ancestors(element);
  for (const node of chain) {
    if (node.classList?.contains('dark')) return 'dark';
    if (node.classList?.contains('light')) return 'light';
    for (const name of THEME_ATTRIBUTES.slice(2)) {
      const value = node.getAttribute?.(name);
      if (value) return DARK_WORDS.test(value) ? 'dark' : 'light';
    }
  }
  for (const node of chain) {
    const luminance = luminanceOf(getComputedStyle(node).backgroundColor);
    if (luminance !== null) return luminance < 0.4 ? 'dark' : 'light';
  }
  // No background anywhere: the browser's canvas shows, white unless the page opts into dark
  // through color-scheme (then the system decides between the schemes it lists).
  const schemes = getComputedStyle(document.documentElement).colorScheme;
  if (!/dark/.test(schemes)) return 'light';
  return !/light/.test(schemes) || matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The --relpos-* variables the page sets around `element` (inherited by its parent), as CSS. */
export function hostVariables(element) {
  const parent = parentOf(element);
  if (!parent) return '';
  const style = getComputedStyle(parent);
  return COLOUR_VARIABLES.map((name) => [name, style.getPropertyValue(name).trim()])
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}: ${value};`)
    .join(' ');
}

/**
 * Watches the page around `element` while theme="inherit": calls onChange() when an ancestor's
 * class, style or theme attribute changes, or the system's colour scheme does. Returns stop().
 */
export function watchHost(element, onChange) {
  const observer = new MutationObserver(onChange);
  for (const node of ancestors(element))
    observer.observe(node, { attributes: true, attributeFilter: THEME_ATTRIBUTES });
  const media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', onChange);
  };
}
