// Types for relpos-wasm/elements (hand-written; see web/elements/*.js).
import type { AttentionResult, LocalityProfile } from '../api/index.js';

/**
 * <relpos-attention>: the matrix panels. Attributes: seq-len, d-k, max-distance, seed, causal,
 * tokens, panels ("content-scores position-biases content-weights combined-weights difference
 * offsets", any subset), theme ("light" | "dark" | "auto" | "inherit"), fit ("width" | "box"),
 * max-height (px), captions and actions ("on" | "off").
 */
export declare class RelposAttentionElement extends HTMLElement {
  /** The numbers last drawn (null before the first render). */
  readonly view: {
    n: number;
    maxDistance: number;
    causal: boolean;
    tokens: string[];
    result: AttentionResult<Float64Array>;
  } | null;
}

/** <relpos-profile>: the locality profile. Attributes: seed, d-k, max-distance, noise, width, asymmetry, theme, captions, actions. */
export declare class RelposProfileElement extends HTMLElement {
  readonly view: LocalityProfile | null;
}

/** Fired after every render; `notes` lists attribute values that were invalid and replaced. */
export type RelposRenderEvent = CustomEvent<{ notes: string[] }>;

declare global {
  interface HTMLElementTagNameMap {
    'relpos-attention': RelposAttentionElement;
    'relpos-profile': RelposProfileElement;
  }
  interface HTMLElementEventMap {
    'relpos-render': RelposRenderEvent;
  }
}
