// The training section's styles, scoped to `.relpos-train` (the page's section and the shadow root
// of <relpos-train> both take this text).
export const TRAIN_CSS = `
.relpos-train { display: block; }
.relpos-train .train-controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; margin: 0.5rem 0; }
.relpos-train .train-controls label { display: flex; flex-direction: column; font-size: 0.9rem; gap: 0.2rem; }
.relpos-train label, .relpos-train select { max-width: 100%; min-width: 0; }
.relpos-train .train-buttons { display: flex; gap: 0.5rem; flex-wrap: wrap; }
.relpos-train button, .relpos-train select, .relpos-train input[type="text"], .relpos-train input[type="number"] { font: inherit; min-height: 2.2rem; }
/* The seed: as tall as the menus, room for six digits (a larger one scrolls in the field). */
.relpos-train .train-seed input { box-sizing: border-box; width: calc(10ch + 2.2rem); padding: 0 0.4rem; }
.relpos-train .train-status { font-variant-numeric: tabular-nums; min-width: 18rem; padding: 0.3rem 0; }
.relpos-train .train-status-part { white-space: nowrap; }
/* In a narrow section (a phone, a narrow column) the line wraps to three lines while a run trains:
   room for them from the start, so that the figures below do not move as its parts come. */
.relpos-train .train-controls { container-type: inline-size; }
@container (max-width: 480px) { .relpos-train .train-status { min-height: calc(3lh + 0.6rem); } }
.relpos-train .train-message { border-left: 4px solid var(--relpos-accent, #d55e00); padding: 0.4rem 0.7rem; margin: 0.5rem 0; background: var(--relpos-panel, transparent); color: var(--relpos-fg, inherit); }
.relpos-train .train-message.ok { border-left-color: var(--relpos-line, #0072b2); }
.relpos-train .train-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 440px), 1fr)); gap: 1rem; }
.relpos-train figure { margin: 0; padding: 0.6rem; border: 1px solid var(--relpos-border, #ccc); border-radius: 6px; background: var(--relpos-panel, transparent); color: var(--relpos-fg, inherit); min-width: 0; }
.relpos-train figure h3 { font-size: 1rem; margin: 0 0 0.3rem; }
.relpos-train figure p { margin: 0.3rem 0; font-size: 0.92rem; }
.relpos-train .train-canvas-wrap { width: 100%; min-width: 0; }
.relpos-train canvas { display: block; }
.relpos-train table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9rem; width: 100%; }
.relpos-train th, .relpos-train td { padding: 0.15rem 0.4rem; text-align: right; border-bottom: 1px solid var(--relpos-grid, #ddd); }
.relpos-train th:first-child, .relpos-train td:first-child { text-align: left; }
.relpos-train .train-wide { grid-column: 1 / -1; }
.relpos-train .train-card th, .relpos-train .train-card td { text-align: left; }
.relpos-train .train-lead { margin: 0.3rem 0; font-size: 0.95rem; }
.relpos-train .train-card .train-caption { font-size: 0.9rem; }
.relpos-train .train-how > summary { cursor: pointer; font-size: 0.85rem; }
.relpos-train .train-how > p { margin: 0.3rem 0 0; }
.relpos-train .train-card th[scope='row'] { font-weight: 600; }
.relpos-train .train-agree-agrees { font-weight: 600; }
.relpos-train .train-agree-differs { font-weight: 600; text-decoration: underline wavy; }
.relpos-train .train-more > summary { cursor: pointer; font-weight: 600; color: var(--relpos-accent); margin-bottom: 0.5rem; }
.relpos-train .train-sentence-controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: end; }
.relpos-train .train-sentence-controls label { display: flex; flex-direction: column; font-size: 0.9rem; }
/* The sentence box: 24rem, or the whole row where that is narrower; as tall as its wrapped lines. */
.relpos-train .train-sentence-controls textarea { box-sizing: border-box; width: 24rem; max-width: 100%; padding: 0.3rem 0.4rem; font: inherit; min-height: 2.2rem; field-sizing: content; resize: vertical; }
.relpos-train .train-panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 360px), 1fr)); gap: 0.8rem; margin-top: 0.6rem; }
.relpos-train .train-panels[hidden] { display: none; }
.relpos-train .train-files { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin-top: 0.8rem; }
.relpos-train .train-corpus { flex-basis: 100%; margin: 0; font-size: 0.88rem; color: var(--relpos-muted, #666); }
.relpos-train .train-table-wrap { overflow-x: auto; max-width: 100%; }
.relpos-train .train-summary { margin: 0; padding: 0.5rem 0.8rem; border-left: 4px solid var(--relpos-line, #0072b2); background: var(--relpos-panel, transparent); font-size: 1rem; }
.relpos-train .train-chosen { margin: 0; font-size: 0.9rem; flex-basis: 100%; }
.relpos-train .train-zoom-label { margin: 0.5rem 0 0; font-size: 0.85rem; }
.relpos-train .train-rule { font-size: 0.85rem; color: var(--relpos-muted, #666); }
.relpos-train tr.verdict-shows td:last-child { font-weight: 700; }
.relpos-train .bar { display: inline-block; height: 0.7rem; vertical-align: middle; }
/* The verdict card on a narrow screen: one block per claim, each cell under its column's name. */
.relpos-train .train-card { container-type: inline-size; }
.relpos-train .train-card-columns { display: none; margin: 0.2rem 0; color: var(--relpos-muted, #666); }
@container (max-width: 440px) {
  .relpos-train .train-card-columns:not(:empty) { display: block; }
  .relpos-train #train-verdicts-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .relpos-train #train-verdicts-table tr { display: block; padding: 0.3rem 0; border-bottom: 1px solid var(--relpos-grid, #ddd); }
  .relpos-train #train-verdicts-table th, .relpos-train #train-verdicts-table td { display: block; text-align: left; border: 0; padding: 0.1rem 0.2rem; }
  .relpos-train #train-verdicts-table td::before { content: attr(data-label) " "; color: var(--relpos-muted, #666); }
}
/* The claims and left-or-right tables on a narrow screen: one block per row, its first cell as
   a heading, each number after its column's name. */
.relpos-train .train-stack-box { container-type: inline-size; }
@container (max-width: 440px) {
  .relpos-train .train-stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .relpos-train .train-stack tr { display: block; padding: 0.3rem 0; border-bottom: 1px solid var(--relpos-grid, #ddd); }
  .relpos-train .train-stack td { display: block; text-align: left; border: 0; padding: 0.1rem 0.2rem; }
  .relpos-train .train-stack td:first-child { font-weight: 600; }
  .relpos-train .train-stack td[data-label]::before { content: attr(data-label) " "; color: var(--relpos-muted, #666); }
}
`;
