// The line chart's end labels (web/render/end-labels.js): where labels go so that none overlaps,
// each as near its line's end as the others allow, inside the plot's height.
import { describe, expect, test } from 'vitest';
import { spreadLabels } from '../../web/render/end-labels.js';

describe('spreadLabels', () => {
  test('labels far enough apart stay at their targets', () => {
    expect(spreadLabels([10, 40, 80], 13, 0, 200)).toEqual([10, 40, 80]);
  });

  test('labels that would overlap are set a gap apart, centred on their targets’ mean', () => {
    // 50, 52, 54: mean 52, three labels 13 apart around it.
    expect(spreadLabels([50, 52, 54], 13, 0, 200)).toEqual([39, 52, 65]);
    // A block that grows into the one before joins it: 10 and 20 become 8.5 and 21.5 (their mean
    // 15 ± 6.5), then 22 overlaps 21.5: the three centred on their mean, 52/3 = 17.33.
    const placed = spreadLabels([10, 20, 22], 13, 0, 200);
    expect(placed.map((y) => Math.round(y * 100) / 100)).toEqual([4.33, 17.33, 30.33]);
  });

  test('a block stays inside [low, high], every label a gap from the next', () => {
    // Six labels aimed at the bottom edge (the review's bunched lines): stacked up from it.
    const placed = spreadLabels([195, 196, 197, 198, 199, 200], 13, 0, 200);
    expect(placed.at(-1)).toBe(200);
    expect(placed[0]).toBe(200 - 5 * 13);
    for (let k = 1; k < placed.length; k += 1) expect(placed[k] - placed[k - 1]).toBeCloseTo(13, 10);
    expect(spreadLabels([-20, -10], 13, 0, 200)).toEqual([0, 13]);
  });
});
