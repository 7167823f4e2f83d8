// A CPU profile of the engine worker while it loads and schedules the generated 5000 x 10000
// cluster, printed as self time by function and the allocator's time by caller.
//
//   scripts/build-site.sh && node web/bench/worker-profile.mjs [--top N] [--nodes N] [--pods M]
//
// Run it right after `scripts/build-site.sh` (with `scripts/web-env.sh` sourced, for
// wasm-bindgen). The site's light worker has been through wasm-opt, which drops function names.
// This tool copies dist/ (or $DIST) to a temporary folder and puts in it the same worker's wasm
// straight from wasm-bindgen, names kept. That wasm is the release build's
// (target/wasm32-unknown-unknown/worker-release/schedlab-worker.wasm), so it must come from the
// same build as the site. Without wasm-opt it is somewhat slower; read shares, not times.
//
// The worker is reached over CDP from the browser's session (Target.attachToTarget and
// Target.sendMessageToTarget: Playwright's own sessions reach pages, not workers). Its Profiler
// samples every 200 microseconds from the click until the page shows the run.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { start, stop, newPage, ready, pause, fillGenerator, ROOT } from "../tests/helpers.mjs";

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
const TOP = Number(arg("--top", 40));
const NODES = Number(arg("--nodes", 5000));
const PODS = Number(arg("--pods", 10000));

// The site, with the light worker's wasm and glue replaced by wasm-bindgen's output.
const dist = join(ROOT, process.env.DIST || "dist");
const tmp = mkdtempSync(join(tmpdir(), "schedlab-wprof-"));
const site = join(tmp, "site");
const glue = join(tmp, "glue");
cpSync(dist, site, { recursive: true });
const files = readdirSync(site);
const js = files.find((f) => /^schedlab-worker-[0-9a-f]+\.js$/.test(f));
const wasm = files.find((f) => /^schedlab-worker-[0-9a-f]+_bg\.wasm$/.test(f));
if (!js || !wasm) throw new Error(`no light worker in ${dist}: build the site first (scripts/build-site.sh)`);
const built = join(ROOT, "target", "wasm32-unknown-unknown", "worker-release", "schedlab-worker.wasm");
execFileSync("wasm-bindgen", ["--target", "no-modules", "--no-typescript", "--out-dir", glue, "--out-name", "schedlab-worker", built], { stdio: "inherit" });
cpSync(join(glue, "schedlab-worker.js"), join(site, js));
cpSync(join(glue, "schedlab-worker_bg.wasm"), join(site, wasm));
process.env.DIST = relative(ROOT, site);

const env = await start();
try {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const bs = await env.browser.newBrowserCDPSession();
  const { targetInfos } = await bs.send("Target.getTargets");
  const worker = targetInfos.find((t) => t.type === "worker" && /schedlab-worker_loader/.test(t.url));
  if (!worker) throw new Error("the engine worker is not running");
  const { sessionId } = await bs.send("Target.attachToTarget", { targetId: worker.targetId, flatten: false });
  let seq = 0;
  const waiting = new Map();
  bs.on("Target.receivedMessageFromTarget", (e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message);
    if (m.id && waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve);
      bs.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 200 });

  await fillGenerator(page, NODES, PODS);
  await send("Profiler.start");
  await page.click('text="Generate and schedule"');
  await page.waitForFunction(() => document.querySelector(".status").getAttribute("data-busy") === "true");
  await page.waitForFunction(
    (w) => document.querySelector(".status").textContent.includes(w) && document.querySelector(".status").getAttribute("data-busy") === "false",
    `${NODES} nodes · ${PODS} pods`,
    { timeout: 600000, polling: 50 },
  );
  const { result } = await send("Profiler.stop");
  report(result.profile);
} finally {
  await stop(env);
  rmSync(tmp, { recursive: true, force: true });
}

// Self time by function, then the allocator's time by its nearest caller outside the allocator
// (the wasm's talc, Rust's alloc glue, drops).
function report(p) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const self = new Map();
  const callers = new Map();
  const ALLOC = /Talc|talc::|__rust_(alloc|realloc|dealloc)|RawVecInner.*deallocate/;
  // std's own functions carry their crate's hash in the wasm's names (`alloc[3ca5…]::boxed::
  // box_new_uninit`, where `Box::new` and `Arc::new` allocate): glue too, or they hide the caller.
  const GLUE = /Talc|talc::|__rust|alloc::|^<?alloc\[|RawVec|core::ptr::drop_in_place|^<alloc/;
  let busy = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]);
    const name = n.callFrame.functionName || "(anonymous)";
    if (name === "(idle)" || name === "(program)") continue;
    const t = p.timeDeltas[i + 1] ?? 0;
    busy += t;
    self.set(name, (self.get(name) || 0) + t);
    if (ALLOC.test(name)) {
      let up = n;
      while (up && GLUE.test(up.callFrame.functionName)) up = byId.get(parent.get(up.id));
      const k = up ? up.callFrame.functionName : "(root)";
      callers.set(k, (callers.get(k) || 0) + t);
    }
  }
  const ms = (us) => `${(us / 1000).toFixed(1).padStart(8)} ms`;
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  console.log(`${NODES} x ${PODS}: ${p.samples.length} samples, ${ms(busy).trim()} busy in the worker\n\nself time by function:`);
  for (const [k, v] of top(self)) console.log(`${(100 * v / busy).toFixed(1).padStart(5)}% ${ms(v)}  ${k.slice(0, 140)}`);
  let alloc = 0;
  for (const v of callers.values()) alloc += v;
  console.log(`\nthe allocator: ${ms(alloc).trim()} (${(100 * alloc / busy).toFixed(1)}%), by nearest caller:`);
  for (const [k, v] of top(callers)) console.log(`${ms(v)}  ${k.slice(0, 140)}`);
}
