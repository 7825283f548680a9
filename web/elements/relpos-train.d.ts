// Types for relpos-wasm/elements/train (hand-written; see relpos-train.js).
import type { RelposRenderEvent, RelposTheme, SwitchAttribute } from './index.js';

/**
 * <relpos-train>: the "Learned position patterns" section (train a small relative-attention
 * model on English text in a worker, and read what it learned). Importing it outside a
 * browser defines nothing. Every attribute is also a property that reflects it, as on the other
 * elements: `el.task = 'next'` sets task="next" and starts again with it, `el.autostart = true`
 * adds the bare attribute (false removes it), null removes one; reading gives the value in force
 * (the default where the attribute is absent or invalid). Fires 'relpos-render'
 * (RelposRenderEvent: bubbles, composed, detail.notes the invalid attribute values replaced) once
 * the model is ready and after each reading of what it learned.
 */
export declare class RelposTrainElement extends HTMLElement {
  /** task: 'masked' (default), 'next' or 'copy'. */
  task: RelposTrainTask;
  /** size: 'small' (default), 'tiny' or 'large'. */
  size: RelposTrainSize;
  /** seed: an integer from 0 to 2³² − 1 (default 1). */
  seed: number;
  /** autostart: train once loaded (true adds the bare attribute, false removes it). */
  autostart: boolean;
  /**
   * corpus: the URL the corpus is fetched from, the attribute resolved against the document's
   * base URL; '' where the attribute is absent or empty (the package's own corpus).
   */
  corpus: string;
  /** workers: 1 or 2 (default 2 where the machine has two cores, else 1). */
  workers: 1 | 2;
  /** theme: as the other elements' ('auto' where absent or invalid). */
  theme: RelposTheme;
}

/** The tasks of <relpos-train>. */
export type RelposTrainTask = 'masked' | 'next' | 'copy';
/** The model sizes of <relpos-train>. */
export type RelposTrainSize = 'tiny' | 'small' | 'large';

/** The attributes of <relpos-train>, for JSX (TSX). */
export interface RelposTrainAttributes {
  /** 'masked' (default), 'next' or 'copy'. */
  task?: RelposTrainTask;
  /** 'small' (default), 'tiny' or 'large'. */
  size?: RelposTrainSize;
  /** The seed, an integer from 0 to 2³² − 1 (default 1): the model's initial weights and, on the corpus tasks, its batches. */
  seed?: number | string;
  /** Start training once loaded: bare, 1, true, on or yes; 0, false, off or no do not. */
  autostart?: SwitchAttribute;
  /** The URL of training-corpus.bin (default: the package's, next to the module; inside dist/relpos-train.js). */
  corpus?: string;
  /**
   * 1, or 2: a second worker computes half of each step (default 2 where the machine has two
   * cores; the numbers are the same). Another value is noted in the message and the default used.
   */
  workers?: 1 | 2 | '1' | '2';
  /** 'light', 'dark', 'auto' (default: the reader's system) or 'inherit' (the page around it), as the other elements. */
  theme?: RelposTheme;
  id?: string;
  class?: string;
  className?: string;
  style?: unknown;
}

declare global {
  interface HTMLElementTagNameMap {
    'relpos-train': RelposTrainElement;
  }
  interface HTMLElementEventMap {
    'relpos-render': RelposRenderEvent;
  }
  namespace JSX {
    interface IntrinsicElements {
      'relpos-train': RelposTrainAttributes;
    }
  }
}
