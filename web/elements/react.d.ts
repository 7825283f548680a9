// relpos-wasm/react: the elements in React 19's JSX (React.JSX.IntrinsicElements), with their own
// attributes, the HTML attributes and events React gives every element, `ref` typed as the
// element, and the relpos-render event (React 19 listens to a custom element's events from props
// named on + the event's name). Importing it also defines <relpos-attention> and <relpos-profile>,
// as relpos-wasm/elements does (<relpos-train>: import relpos-wasm/elements/train too). Preact and
// React 18 read the global JSX namespace, which relpos-wasm/elements fills.
import type * as React from 'react';
import type {
  RelposAttentionAttributes,
  RelposAttentionElement,
  RelposProfileAttributes,
  RelposProfileElement,
  RelposRenderEvent,
} from './index.js';
import type { RelposTrainAttributes, RelposTrainElement } from './relpos-train.js';

export * from './index.js';

/** What React itself types for every element (HTML attributes, events, ref, key, children). */
type HtmlKeys = 'id' | 'class' | 'className' | 'style' | 'hidden' | 'slot' | 'key' | 'ref' | 'children';

/** An element's props in React 19: its own attributes and properties, and React's for any HTML element. */
export type RelposReactProps<E extends HTMLElement, A> = Omit<A, HtmlKeys> &
  React.HTMLAttributes<E> &
  React.RefAttributes<E> & {
    /** The class attribute as written in HTML (React 19 passes it through on custom elements). */
    class?: string;
    /** Fired after every render (relpos-render; bubbles, composed). */
    'onrelpos-render'?: (event: RelposRenderEvent) => void;
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'relpos-attention': RelposReactProps<RelposAttentionElement, RelposAttentionAttributes>;
      'relpos-profile': RelposReactProps<RelposProfileElement, RelposProfileAttributes>;
      'relpos-train': RelposReactProps<RelposTrainElement, RelposTrainAttributes>;
    }
  }
}
