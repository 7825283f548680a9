// Types for relpos-wasm/elements and relpos-wasm/elements/bundle (hand-written; see web/elements/*.js).
import type { AttentionResult, LocalityProfile } from '../api/index.js';

/** The panel ids of <relpos-attention>'s `panels` attribute. */
export type RelposPanelId =
  'content-scores' | 'position-biases' | 'content-weights' | 'combined-weights' | 'difference' | 'offsets';

export type RelposTheme = 'light' | 'dark' | 'auto' | 'inherit';

/**
 * <relpos-attention>: the matrix panels. Every attribute is also a property that reflects it
 * (el.seed = 9 sets seed="9"; a boolean property sets or removes the bare attribute; null
 * removes it); reading a property gives the value drawn with (the default if absent or invalid).
 * Attributes beyond the settings: panels, theme ("light" | "dark" | "auto" | "inherit"), fit
 * ("width" | "box"), max-height (px), captions and actions ("on" | "off").
 */
export declare class RelposAttentionElement extends HTMLElement {
  /** The numbers last drawn (null before the first render). */
  readonly view: {
    n: number;
    maxDistance: number;
    causal: boolean;
    tokens: string[];
    result: AttentionResult;
  } | null;
  /**
   * Numbers of your own: a result of rp.attention() (n ≤ 64, Float64Array or Float32Array),
   * drawn instead of the seeded example (causal, tokens, panels and theme still apply); null
   * goes back to the example. Setting anything else throws a TypeError or RangeError.
   */
  result: AttentionResult | null;
  /** seq-len: positions n, 1–64 (set by tokens unless given). */
  seqLen: number;
  /** d-k: the width of queries and keys, 1–64. */
  dK: number;
  /** max-distance: the clipping distance k, 0–63. */
  maxDistance: number;
  seed: number;
  causal: boolean;
  /** The words, separated by spaces (an array is joined). */
  tokens: string;
  /** 'stable' (default) or 'handbook'. */
  draw: 'stable' | 'handbook';
  /** 'locality' (default) or 'random'. */
  table: 'locality' | 'random';
  /** same-query: one query (1, …, 1)/√d_k for every row. */
  sameQuery: boolean;
  strength: number;
  noise: number;
  width: number;
  asymmetry: number;
  /** Space-separated panel ids (RelposPanelId). */
  panels: string;
  theme: RelposTheme;
  /** 'width' (default: the width decides the height) or 'box' (fit the element's own height). */
  fit: 'width' | 'box';
  /** At most this many px tall (with fit="width"); null: no limit. */
  maxHeight: string | null;
  /** 'on' (default) or 'off'. */
  captions: string;
  /** 'on' (default) or 'off'. */
  actions: string;
}

/** <relpos-profile>: the locality profile; attributes reflected by properties as for <relpos-attention>. */
export declare class RelposProfileElement extends HTMLElement {
  readonly view: LocalityProfile | null;
  seed: number;
  /** d-k: 1–64. */
  dK: number;
  /** max-distance: 0–32. */
  maxDistance: number;
  noise: number;
  width: number;
  asymmetry: number;
  theme: RelposTheme;
}

/** Fired after every render (bubbles, composed); `notes` lists attribute values that were invalid and replaced. */
export type RelposRenderEvent = CustomEvent<{ notes: string[] }>;

type Attribute = string | number | boolean | undefined;

/** What both elements take in JSX besides their own attributes: HTML's and frameworks' own. */
interface ElementAttributes {
  id?: string;
  class?: string;
  className?: string;
  style?: unknown;
  hidden?: boolean;
  slot?: string;
  key?: string | number;
  ref?: unknown;
  children?: unknown;
}

/** The attributes of <relpos-attention>, for JSX (TSX) and frameworks' element typings. */
export interface RelposAttentionAttributes extends ElementAttributes {
  'seq-len'?: Attribute;
  'd-k'?: Attribute;
  'max-distance'?: Attribute;
  seed?: Attribute;
  causal?: Attribute;
  tokens?: string;
  draw?: 'stable' | 'handbook';
  table?: 'locality' | 'random';
  'same-query'?: Attribute;
  strength?: Attribute;
  noise?: Attribute;
  width?: Attribute;
  asymmetry?: Attribute;
  panels?: string;
  theme?: RelposTheme;
  fit?: 'width' | 'box';
  'max-height'?: Attribute;
  captions?: 'on' | 'off';
  actions?: 'on' | 'off';
}

/** The attributes of <relpos-profile>, for JSX (TSX). */
export interface RelposProfileAttributes extends ElementAttributes {
  seed?: Attribute;
  'd-k'?: Attribute;
  'max-distance'?: Attribute;
  noise?: Attribute;
  width?: Attribute;
  asymmetry?: Attribute;
  theme?: RelposTheme;
}

declare global {
  interface HTMLElementTagNameMap {
    'relpos-attention': RelposAttentionElement;
    'relpos-profile': RelposProfileElement;
  }
  interface HTMLElementEventMap {
    'relpos-render': RelposRenderEvent;
  }
  // <relpos-attention> and <relpos-profile> in TSX (the global JSX namespace: TypeScript's own,
  // Preact's and React 18's). React 19 users: add the same two entries to React.JSX.IntrinsicElements.
  namespace JSX {
    interface IntrinsicElements {
      'relpos-attention': RelposAttentionAttributes;
      'relpos-profile': RelposProfileAttributes;
    }
  }
}
