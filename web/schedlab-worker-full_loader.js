// Starts the full engine's Web Worker (crates/worker/src/full.rs: the engine with the CEL
// interpreter), as web/schedlab-worker_loader.js starts the light one; the page starts this one
// only when the light one answers that a scenario needs it (crates/web/src/bridge.rs).
self.addEventListener("error", function (e) {
  if (self.schedlabPanicReported) e.preventDefault();
});
// The page may ask before the engine is up (it does not wait for `Ready`): what it asks in the
// meantime is kept here and handed to the engine, in order, once the engine listens (its start
// replaces this handler).
var early = [];
self.onmessage = function (e) {
  early.push(e);
};
// The wasm is asked for first, so that its download runs while the bindings are fetched and
// evaluated (importScripts blocks); wasm_bindgen takes the response's promise.
var wasm = fetch("./schedlab-worker-full_bg.wasm");
importScripts("./schedlab-worker-full.js");
wasm_bindgen({ module_or_path: wasm }).then(function () {
  // Dispatched, not called: an engine that traps on one of them reports it as an `error`
  // event, as it would for a message that came later.
  early.splice(0).forEach(function (e) {
    self.dispatchEvent(new MessageEvent("message", { data: e.data }));
  });
}, function (e) {
  // An engine that could not start is reported as an `error` event (schedlab-worker_loader.js).
  setTimeout(function () { throw e; });
});
