// import 'relpos-wasm/elements' registers <relpos-attention> and <relpos-profile>. All elements
// on a page share one WebAssembly instance.
import { RelposAttentionElement } from './relpos-attention.js';
import { RelposProfileElement } from './relpos-profile.js';

export { RelposAttentionElement, RelposProfileElement };

if (!customElements.get('relpos-attention')) customElements.define('relpos-attention', RelposAttentionElement);
if (!customElements.get('relpos-profile')) customElements.define('relpos-profile', RelposProfileElement);
