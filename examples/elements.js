// Registers <relpos-attention> and <relpos-profile>. In an app: import 'relpos-wasm/elements';
import '../web/elements/index.js';
