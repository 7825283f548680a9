// Types for relpos-wasm/elements and relpos-wasm/elements/bundle (hand-written; see web/elements/*.js).
import type {
  AttentionResult,
  CheckpointPositionTable,
  LocalityProfile,
  PositionTableName,
  ScenarioDrawName,
} from '../api/index.js';

/** The panel ids of <relpos-attention>'s `panels` attribute. */
export type RelposPanelId =
  'content-scores' | 'position-biases' | 'content-weights' | 'combined-weights' | 'difference' | 'offsets';

export type RelposTheme = 'light' | 'dark' | 'auto' | 'inherit';

/**
 * How a matrix of your own is coloured and captioned: 'weights' (viridis from 0 to the largest
 * weight or `max`; values in [0, 1]), 'scores', 'biases' and 'difference' (red-blue, symmetric
 * around 0; −Infinity is a masked cell).
 */
export type RelposMatrixKind = 'weights' | 'scores' | 'biases' | 'difference';

/** What <relpos-attention>'s `matrix` takes besides the numbers. */
export interface RelposMatrixOptions {
  /** Default: 'weights' when every value is in [0, 1], else 'scores'. */
  kind?: RelposMatrixKind;
  /** The panel's title (default: the kind's, e.g. "Attention weights"). */
  title?: string;
  /** Replaces the caption the element writes for the kind and the numbers. */
  caption?: string;
  /** One per row (query), e.g. the tokens. */
  rowLabels?: readonly (string | number)[];
  /** One per column (key). */
  colLabels?: readonly (string | number)[];
  /** Colours up to this value (weights: 0 to max; signed kinds: −max to max); beyond it they saturate. */
  max?: number;
}

/** Numbers row-major: a plain array (JSON; null is a masked cell) or any typed array but BigInt ones. */
type MatrixData = ArrayLike<number | null>;

/**
 * One matrix of your own for <relpos-attention>'s `matrix`: { data, rows, cols }, { data, dims:
 * [rows, cols] } (an onnxruntime-web Tensor can be given as is), { data, shape: [rows, cols] } or
 * { data } with data an array of rows;
 * at most 2048 × 2048 = 4,194,304 cells.
 */
export type RelposMatrixInput =
  | (RelposMatrixOptions & { data: MatrixData; rows: number; cols: number })
  /** Rows as arrays (a 2-D array as JSON or PyTorch's .tolist() give it): the sides are theirs. */
  | (RelposMatrixOptions & { data: ReadonlyArray<ReadonlyArray<number | null>> })
  | (RelposMatrixOptions & { data: MatrixData; dims: readonly number[] })
  | (RelposMatrixOptions & { data: MatrixData; shape: readonly number[] });

/** A matrix of your own as the element draws it (reading `matrix`). */
export interface RelposMatrix {
  rows: number;
  cols: number;
  /** A copy of the numbers; −Infinity where a cell is masked. */
  data: Float64Array;
  kind: RelposMatrixKind;
  title: string;
  caption: string | null;
  rowLabels: string[] | null;
  colLabels: string[] | null;
  max: number | null;
}

/**
 * <relpos-attention>: the matrix panels. Every attribute is also a property that reflects it
 * (el.seed = 9 sets seed="9"; a switch set to its default removes its attribute, otherwise
 * el.causal = true adds it bare and el.captions = false writes captions="off"; null removes it); reading a property gives the value drawn with (the default if absent or invalid).
 * Attributes beyond the settings: panels, theme ("light" | "dark" | "auto" | "inherit"), fit
 * ("width" | "box"), max-height (px), captions and actions (switches: on by default).
 */
export declare class RelposAttentionElement extends HTMLElement {
  /** The numbers last drawn (null before the first render, and while a matrix of your own is drawn). */
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
  /**
   * One matrix of your own, any rows × cols (n_q ≠ n_k too): your model's attention weights,
   * scores or biases, drawn as one panel instead of the example (theme, fit, max-height,
   * captions and actions still apply; the tokens attribute labels a square matrix without
   * labels). A bad value throws a TypeError or RangeError naming the field and changes nothing;
   * null goes back to the example. Setting it clears `result`, and setting `result` clears it.
   */
  get matrix(): RelposMatrix | null;
  set matrix(value: RelposMatrixInput | null | undefined);
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
  draw: ScenarioDrawName;
  /** 'locality' (default) or 'random'. */
  table: PositionTableName;
  /** same-query: one query (1, …, 1)/√d_k for every row. */
  sameQuery: boolean;
  strength: number;
  noise: number;
  width: number;
  asymmetry: number;
  /**
   * Space-separated panel ids (RelposPanelId). Reading gives the panels drawn, in the page's
   * order, unknown ids left out (all where none is known).
   */
  panels: string;
  theme: RelposTheme;
  /** 'width' (default: the width decides the height) or 'box' (fit the element's own height). */
  fit: 'width' | 'box';
  /** At most this many px tall (with fit="width"; at least 100); null: no limit. */
  maxHeight: number | null;
  /** The captions shown (default): false writes captions="off". */
  captions: boolean;
  /** The buttons shown (default): false writes actions="off". */
  actions: boolean;
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
  /** A position-tables JSON drawn instead of the simulation ('' : none). */
  src: string;
  /** The caption shown (default): false writes captions="off". */
  captions: boolean;
  /** The buttons shown (default): false writes actions="off". */
  actions: boolean;
}

/** Fired after every render (bubbles, composed); `notes` lists attribute values that were invalid and replaced. */
export type RelposRenderEvent = CustomEvent<{ notes: string[] }>;

type Attribute = string | number | boolean | undefined;
/**
 * A switch attribute, read by one rule whatever its case: bare (''), 1, true, on or yes is on; 0,
 * false, off or no is off. In JSX a boolean works too.
 */
export type SwitchAttribute = boolean | '' | 0 | 1 | '0' | '1' | 'true' | 'false' | 'on' | 'off' | 'yes' | 'no';
/**
 * A numeric attribute: a number, or a number's text ("2", "0.4", "1e-3"). Other text ("wide") is
 * a type error here; at run time the element notes it and uses the default.
 */
export type NumberAttribute = number | `${number}`;

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
  'seq-len'?: NumberAttribute;
  'd-k'?: NumberAttribute;
  'max-distance'?: NumberAttribute;
  seed?: NumberAttribute;
  causal?: SwitchAttribute;
  tokens?: string;
  draw?: ScenarioDrawName;
  table?: PositionTableName;
  'same-query'?: SwitchAttribute;
  strength?: NumberAttribute;
  noise?: NumberAttribute;
  width?: NumberAttribute;
  asymmetry?: NumberAttribute;
  panels?: string;
  theme?: RelposTheme;
  fit?: 'width' | 'box';
  'max-height'?: NumberAttribute;
  captions?: SwitchAttribute;
  actions?: SwitchAttribute;
  /**
   * Properties, not attributes: frameworks that set properties on custom elements (React 19,
   * Preact, Vue with .prop, Lit with .matrix=) pass these objects through.
   */
  matrix?: RelposMatrixInput | null;
  result?: AttentionResult | null;
}

/** The attributes of <relpos-profile>, for JSX (TSX). */
export interface RelposProfileAttributes extends ElementAttributes {
  seed?: NumberAttribute;
  'd-k'?: NumberAttribute;
  'max-distance'?: NumberAttribute;
  noise?: NumberAttribute;
  width?: NumberAttribute;
  asymmetry?: NumberAttribute;
  theme?: RelposTheme;
  src?: string;
  captions?: SwitchAttribute;
  actions?: SwitchAttribute;
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
