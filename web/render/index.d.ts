// Types for relpos-wasm/render (hand-written; see web/render/index.js).

/** { rows, cols, data }, { data, dims: [rows, cols] } (onnxruntime-web) or { data, shape: [rows, cols] }; row-major. */
export type MatrixLike =
  | { rows: number; cols: number; data: ArrayLike<number> }
  | { data: ArrayLike<number>; dims: readonly number[] }
  | { data: ArrayLike<number>; shape: readonly number[] };

export interface ThemeColours {
  fg?: string;
  muted?: string;
  panel?: string;
  masked?: string;
  outline?: string;
  outlineHalo?: string;
  font?: string;
}

export interface ScaleOptions {
  /** 'sequential' (viridis, default) or 'diverging' (red-blue, symmetric around 0). */
  scale?: 'sequential' | 'diverging';
  /** The value given the first colour (default: the data's smallest). */
  min?: number;
  /** The value given the last colour (default: the data's largest). */
  max?: number;
  /** The colour bar's label. */
  label?: string;
}

export interface HeatmapOptions extends ScaleOptions {
  /** CSS px; default the canvas's parent's width. */
  width?: number;
  rowLabels?: string[];
  colLabels?: string[];
  xTitle?: string;
  yTitle?: string;
  note?: string;
  /** The first column of row i drawn grey, or null (causal: (i) => i + 1). */
  maskFrom?: (i: number) => number | null;
  /** Default: the canvas's --relpos-* CSS custom properties. */
  colours?: ThemeColours;
}

/** Where the cells are, in CSS px: cell (i, j) at x0 + j·cellW, y0 + i·cellH. */
export interface HeatmapLayout {
  x0: number;
  y0: number;
  cellW: number;
  cellH: number;
  width: number;
  height: number;
}

type Canvas = HTMLCanvasElement | OffscreenCanvas;

/** The narrowest heatmap() draws, in CSS px (its labels and margins take 114). */
export declare const MIN_HEATMAP_WIDTH: number;
/** The most cells heatmap() draws (rows × cols): 2^22 (2048 × 2048). */
export declare const MAX_HEATMAP_CELLS: number;
export declare function toMatrix(value: MatrixLike): { rows: number; cols: number; data: ArrayLike<number> };
export declare function heatmap(canvas: Canvas, matrix: MatrixLike, options?: HeatmapOptions): HeatmapLayout;
export declare function colourBar(
  canvas: Canvas,
  options: ScaleOptions & { min: number; max: number; width?: number; height?: number; colours?: ThemeColours },
): { width: number; height: number };
export declare function linePlot(
  canvas: HTMLCanvasElement,
  options: {
    x: ArrayLike<number>;
    y: ArrayLike<number>;
    xLabel?: string;
    yLabel?: string;
    height?: number;
    highlight?: number;
  },
): { px: (x: number) => number; py: (y: number) => number };
/** The [r, g, b] heatmap() gives `value` with these options. */
export declare function colourOf(
  value: number,
  options: ScaleOptions & { min: number; max: number },
): [number, number, number];
