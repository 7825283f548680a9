// The "present" view, for projection: one matrix panel fills the window (a fixed overlay over
// the page, not the Fullscreen API, so that the tooltip and the page's notes still show), its
// type scaled up with the window, and Escape (or the panel's "Leave" button) goes back. Each
// panel gets a "Present" button; the page also opens it from ?present=<panel id>.
import { heatmapMargins, heatmapWidth } from '../render/heatmap.js';
import { focusWithoutReading } from './interaction.js';

const PRESENT_CLASS = 'relpos-presenting';

/**
 * Type size, label room and matrix side for a panel drawn in a wrapper of `width` × `height`
 * CSS px with axis labels `labels` in font `family`: type up to twice the usual size as the
 * window allows (never smaller than usual), the label room as wide as the widest label needs,
 * the matrix as large as the height allows, and the canvas no wider than that (centred).
 * `horizontal`: the column labels are horizontal (the long view's, labelled by index).
 */
export function presentSize(width, height, labels, family, horizontal = false) {
  const fontScale = Math.min(2, Math.max(1, Math.min(height / 560, width / 600)));
  const g = new OffscreenCanvas(1, 1).getContext('2d');
  g.font = `${13 * fontScale}px ${family}`;
  const widest = Math.max(0, ...labels.map((label) => g.measureText(label).width));
  const labelSpace = Math.min(130 * fontScale, Math.max(30 * fontScale, Math.ceil(widest) + 4));
  const margin = heatmapMargins(width, fontScale, labelSpace, horizontal);
  const maxSide = Math.max(120, Math.floor(height - margin.top - margin.bottom));
  return { width: heatmapWidth(width, maxSide, fontScale, labelSpace, horizontal), maxSide, fontScale, labelSpace };
}

export class PresentView {
  /** figure: an AttentionFigure; onChange(panelId | null) after entering or leaving. */
  constructor(figure, { onChange = () => {} } = {}) {
    this.figure = figure;
    this.onChange = onChange;
    this.panelId = null;
    this.buttons = new Map();
    this.inerted = [];
    this.resize = new ResizeObserver(() => this.panelId && this.figure.draw());
    this.onKey = (event) => {
      if (event.key === 'Escape' && this.panelId) {
        event.preventDefault();
        this.show(null);
      }
    };
    for (const panel of figure.panels) {
      const { actions } = figure.parts.get(panel.id);
      const button = actions.ownerDocument.createElement('button');
      button.type = 'button';
      button.dataset.present = panel.id;
      button.addEventListener('click', () => this.show(this.panelId === panel.id ? null : panel.id));
      actions.append(button);
      this.buttons.set(panel.id, button);
      this.label(panel, false);
    }
  }

  // What lies behind the presented figure: the siblings of it and of each of its ancestors (up
  // to the document or shadow root), except the tooltip and the live readout. Made inert while
  // presenting, so that Tab and screen readers stay in the panel.
  background(figure) {
    const keep = new Set([this.figure.tooltip, this.figure.readout]);
    const behind = [];
    for (let node = figure; node.parentElement; node = node.parentElement) {
      for (const sibling of node.parentElement.children) {
        if (sibling === node || sibling.inert || [...keep].some((kept) => sibling === kept || sibling.contains(kept)))
          continue;
        behind.push(sibling);
      }
    }
    return behind;
  }

  label(panel, on) {
    const button = this.buttons.get(panel.id);
    // "Esc" named where there is a keyboard to press it (a fine pointer that hovers), not on a phone.
    const keyboard = globalThis.matchMedia?.('(hover: hover) and (pointer: fine)').matches ?? true;
    button.textContent = on ? (keyboard ? 'Leave (Esc)' : 'Leave') : 'Present';
    button.setAttribute(
      'aria-label',
      on
        ? `Leave the present view of ${panel.title}`
        : `Present ${panel.title}: one panel filling the window, large type (Escape to leave)`,
    );
  }

  /**
   * Presents panel `panelId` (null: back to the page). Returns false for an unknown panel. Focus
   * goes to the panel's button (now "Leave"), as after a click on it; with `focusPanel` (a link
   * opening the view) to the panel's matrix, reading no cell (no tooltip over the projected
   * matrix), where the arrow keys read cells and Enter leaves nothing by accident.
   */
  show(panelId, { focusPanel = false } = {}) {
    if (panelId === this.panelId) return true;
    if (panelId !== null && !this.buttons.has(panelId)) return false;
    const previous = this.panelId;
    if (previous) {
      const { figure, wrap } = this.figure.parts.get(previous);
      figure.classList.remove(PRESENT_CLASS);
      for (const element of this.inerted) element.inert = false;
      this.inerted = [];
      this.resize.unobserve(wrap);
      this.label(
        this.figure.panels.find((p) => p.id === previous),
        false,
      );
      document.documentElement.style.overflow = this.pageOverflow ?? '';
      document.removeEventListener('keydown', this.onKey, true);
    }
    this.panelId = panelId;
    this.figure.presenting = panelId;
    this.figure.select(null);
    if (panelId) {
      const { figure, wrap } = this.figure.parts.get(panelId);
      figure.classList.add(PRESENT_CLASS);
      this.inerted = this.background(figure);
      for (const element of this.inerted) element.inert = true;
      this.resize.observe(wrap);
      this.label(
        this.figure.panels.find((p) => p.id === panelId),
        true,
      );
      if (!previous) this.pageOverflow = document.documentElement.style.overflow;
      document.documentElement.style.overflow = 'hidden'; // no page scrolling behind it
      document.addEventListener('keydown', this.onKey, true);
    }
    this.figure.draw();
    if (panelId && focusPanel) focusWithoutReading(this.figure.parts.get(panelId).wrap);
    else if (panelId) this.buttons.get(panelId).focus();
    else if (previous) this.buttons.get(previous).focus();
    this.onChange(panelId);
    return true;
  }
}
