// Types for relpos-wasm/elements/train (hand-written; see relpos-train.js).
import type { RelposRenderEvent } from './index.js';

/**
 * <relpos-train>: the "Learned position patterns" section (train a small relative-attention
 * model on English text in a worker, and read what it learned). Importing it outside a
 * browser defines nothing. No property reflects an attribute: set them with setAttribute. Fires
 * 'relpos-render' (RelposRenderEvent: bubbles, composed, detail.notes the invalid attribute
 * values replaced) once the model is ready and after each reading of what it learned.
 */
export declare class RelposTrainElement extends HTMLElement {}

/** The attributes of <relpos-train>, for JSX (TSX). */
export interface RelposTrainAttributes {
  /** 'masked' (default), 'next' or 'copy'. */
  task?: 'masked' | 'next' | 'copy';
  /** 'small' (default), 'tiny' or 'large'. */
  size?: 'tiny' | 'small' | 'large';
  /** The seed, an integer from 0 to 2³² − 1 (default 1): the model's initial weights and, on the corpus tasks, its batches. */
  seed?: number | string;
  /** Start training once loaded: bare, 1, true, on or yes; 0, false, off or no do not. */
  autostart?: boolean | '' | 0 | 1 | '0' | '1' | 'true' | 'false' | 'on' | 'off' | 'yes' | 'no';
  /** The URL of training-corpus.bin (default: the package's, next to the module; inside dist/relpos-train.js). */
  corpus?: string;
  /**
   * 1, or 2: a second worker computes half of each step (default 2 where the machine has two
   * cores; the numbers are the same). Another value is noted in the message and the default used.
   */
  workers?: 1 | 2 | '1' | '2';
  /** 'light', 'dark', 'auto' (default: the reader's system) or 'inherit' (the page around it), as the other elements. */
  theme?: 'light' | 'dark' | 'auto' | 'inherit';
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
