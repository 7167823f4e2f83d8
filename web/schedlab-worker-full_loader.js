// Starts the full engine's Web Worker (crates/worker/src/full.rs: the engine with the CEL
// interpreter), as web/schedlab-worker_loader.js starts the light one; the page starts this one
// only when the light one answers that a scenario needs it (crates/web/src/bridge.rs).
self.addEventListener("error", function (e) {
  if (self.schedlabPanicReported) e.preventDefault();
});
importScripts("./schedlab-worker-full.js");
wasm_bindgen({ module_or_path: "./schedlab-worker-full_bg.wasm" });
