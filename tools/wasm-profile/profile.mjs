// Runs the engine's wasm (this folder's crate, built as README.md says) in headless Chromium on
// one scenario and prints, per fresh browser, the load and run times of a fresh module (what a
// new worker's first run costs: V8 runs a wasm function unoptimised until it has done enough
// work) and of the same module once more (optimised). With --profile, it also records a CPU
// profile of the optimised load and run and prints the functions with the most self time.
//
//   node tools/wasm-profile/profile.mjs WASM SCENARIO.yaml [--runs N] [--profile]
//
// Figures are printed, never asserted.

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { chromium } = createRequire(join(root, "web", "package.json"))("playwright-core");
const [wasmPath, scenarioPath] = process.argv.slice(2);
if (!wasmPath || !scenarioPath) {
  console.error("usage: node tools/wasm-profile/profile.mjs WASM SCENARIO.yaml [--runs N] [--profile]");
  process.exit(2);
}
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1] || 0) || 3;
const profile = process.argv.includes("--profile");
const files = { "/a.wasm": [readFileSync(wasmPath), "application/wasm"], "/s.yaml": [readFileSync(scenarioPath), "text/plain"] };

const selfTimes = new Map();
for (let r = 0; r < runs; r++) {
  // A browser of its own each time: V8 shares compiled (and optimised) code between modules of
  // the same bytes within one.
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
  const page = await browser.newPage();
  await page.route("http://bench.invalid/**", (route) => {
    const [body, contentType] = files[new URL(route.request().url()).pathname] || ["<!doctype html>", "text/html"];
    return route.fulfill({ body, contentType });
  });
  await page.goto("http://bench.invalid/");
  const cdp = await page.context().newCDPSession(page);
  const once = (i) =>
    page.evaluate(async (i) => {
      if (!window.mod) {
        window.mod = await WebAssembly.compileStreaming(fetch("/a.wasm"));
        window.text = new Uint8Array(await (await fetch("/s.yaml")).arrayBuffer());
      }
      const imports = {};
      for (const im of WebAssembly.Module.imports(window.mod)) (imports[im.module] ??= {})[im.name] = () => { throw new Error(`import ${im.name}`); };
      const e = (await WebAssembly.instantiate(window.mod, imports)).exports;
      const at = e.buf(window.text.length); // may grow the memory: its buffer is read after
      new Uint8Array(e.memory.buffer, at, window.text.length).set(window.text);
      const t0 = performance.now();
      const pods = e.load();
      const t1 = performance.now();
      e.run();
      const t2 = performance.now();
      return { instance: i, pods, loadMs: Math.round(t1 - t0), runMs: Math.round(t2 - t1) };
    }, i);
  const first = await once(1);
  if (profile) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  const second = await once(2);
  if (profile) {
    const { profile: p } = await cdp.send("Profiler.stop");
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    p.samples.forEach((id, k) => {
      const name = byId.get(id).callFrame.functionName || "(anonymous)";
      selfTimes.set(name, (selfTimes.get(name) || 0) + (p.timeDeltas[k] || 0) / 1000);
    });
  }
  console.log(JSON.stringify({ browser: r + 1, fresh: first, optimised: second }));
  await browser.close();
}
if (profile) {
  const total = [...selfTimes.values()].reduce((a, b) => a + b, 0);
  console.log(`\nself time in the optimised load + run, ${runs} runs (${Math.round(total)} ms in all):`);
  for (const [name, ms] of [...selfTimes].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name.slice(0, 140)}`);
  }
}
