// Registers <relpos-train>. In an app: import 'relpos-wasm/elements/train';
import '../web/elements/relpos-train.js';
