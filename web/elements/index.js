// import 'relpos-wasm/elements' registers <relpos-attention> and <relpos-profile>. All elements
// on a page share one WebAssembly instance. Importing is safe where there is no DOM (server-side
// rendering, Node): the classes are exported and nothing is defined.
import { RelposAttentionElement } from './relpos-attention.js';
import { RelposProfileElement } from './relpos-profile.js';

export { RelposAttentionElement, RelposProfileElement };

if (typeof customElements !== 'undefined') {
  if (!customElements.get('relpos-attention')) customElements.define('relpos-attention', RelposAttentionElement);
  if (!customElements.get('relpos-profile')) customElements.define('relpos-profile', RelposProfileElement);
}
