// relpos-wasm/react: <relpos-attention> and <relpos-profile> defined (as relpos-wasm/elements
// defines them; <relpos-train> stays relpos-wasm/elements/train's); its types (react.d.ts) put
// the three elements in React 19's JSX.
export * from './index.js';
