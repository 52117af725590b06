// The worker's entry: loads wasm-bindgen's no-modules glue, then the worker's wasm, passing one object as the
// glue asks (the positional form trunk's loader shim uses prints a deprecation warning on every load).
importScripts("./worker.js");
wasm_bindgen({ module_or_path: "./worker_bg.wasm" });
