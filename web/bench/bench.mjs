// The playground's benchmark (scripts/bench-web.sh builds the site, then runs this): for one built
// site (dist/) in headless Chromium it prints
//   - the download size: each file of dist/ and the total, gzip -9;
//   - navigation → first frame and → first animated frame of the default scenario (see FRAMES);
//   - the 5000 × 10000 generated cluster: scheduling time in the worker (the engine's own load +
//     run time, as the worker reports it) and the page's wall time, the same scenario natively
//     (`schedlab bench --scenario`, the worker's exact work on the exact text) and the ratio;
//   - an embed's (?embed) navigation → first frame over a throttled network (Chromium's network
//     emulation through CDP: 10 Mbit/s each way, 40 ms round trip; files served gzip -9, no cache);
//   - the longest main-thread task (PerformanceObserver "longtask") during that large run, and
//     while typing in the 10 000-pod document (with the longest keystroke → paint delay, from
//     the Event Timing API).
// Figures are measured, never asserted: targets are printed beside them. Each figure is the best
// (minimum) and median of --runs repetitions (default 3); a busy machine inflates wall times.
//
//   node web/bench/bench.mjs [--runs N] [--nodes N] [--pods M] [--json FILE]

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync, mkdtempSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir, loadavg, cpus } from "node:os";
import { join } from "node:path";
import { start, stop, newPage, ready, pause, fillGenerator, savedParts, ROOT } from "../tests/helpers.mjs";
import { serve } from "../tests/server.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(arg("--runs", 3));
const NODES = Number(arg("--nodes", 5000));
const PODS = Number(arg("--pods", 10000));
const JSON_OUT = arg("--json", null);
const DIST = join(ROOT, process.env.DIST || "dist");
const NATIVE = process.env.SCHEDLAB_NATIVE || join(ROOT, "target", "release", "schedlab");

const log = (...a) => console.error("bench:", ...a);
const best = (xs) => Math.min(...xs);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ---- download size --------------------------------------------------------------------------

// Every file of dist/, its subfolders (the page's wasm-bindgen snippets) included. The totals are
// what a visitor downloads at start: all of it but the presets' and lessons' texts (fetched when
// one is opened) and the full engine worker (schedlab-worker-full*, fetched only for a scenario
// with CEL or an import: scripts/build-site.sh counts the same); an embed all that but
// CodeMirror's editor-<hash>.js (web/index.html loads that only outside one).
function sizes() {
  const walk = (dir) =>
    readdirSync(join(DIST, dir)).flatMap((f) => {
      const rel = dir ? `${dir}/${f}` : f;
      return statSync(join(DIST, rel)).isDirectory() ? walk(rel) : [rel];
    });
  const files = walk("")
    .sort()
    .map((f) => {
      const b = readFileSync(join(DIST, f));
      return { file: f, bytes: b.length, gzip: gzipSync(b, { level: 9 }).length };
    });
  const start = files.filter((f) => !/^(presets|lessons)\//.test(f.file) && !/^schedlab-worker-full/.test(f.file));
  const gzip = start.reduce((s, f) => s + f.gzip, 0);
  const editor = files.filter((f) => /^editor-[0-9a-f]{16}\.js$/.test(f.file)).reduce((s, f) => s + f.gzip, 0);
  return { files, bytes: start.reduce((s, f) => s + f.bytes, 0), gzip, embedGzip: gzip - editor };
}

// ---- in-page probes -------------------------------------------------------------------------

// Installed before the page's own scripts: long tasks, event timings, the first frames, and a
// peek at the worker's `loaded` answers (only their last bytes are decoded, and decoding the
// whole summary would add main-thread work of its own). In `schedlab_view::wire`'s encoding a
// `Response::Loaded` without a lesson starts with its variant index 2 and ends with field 5
// (loadMs, an f64), field 6 (runMs, an f64) and the struct's end mark 0.
//
// FRAMES: a frame is a requestAnimationFrame callback; the DOM it sees is what that frame
// paints. "first frame": the first frame with a scheduling stage shown (the engine has run and
// the page drew the stop it asked for). "first animated frame": the first frame whose stage
// differs from that one (the playback clock advanced the playhead and the new stop is drawn).
const PROBES = () => {
  const b = (window.__bench = { longtasks: [], events: [], loaded: [], firstFrame: null, firstAnimated: null, firstStage: null });
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) b.events.push({ name: e.name, start: e.startTime, duration: e.duration, processing: e.processingEnd - e.processingStart });
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
  } catch {}
  const tick = () => {
    const el = document.querySelector(".stage-label");
    const s = el ? el.textContent.trim() : "";
    if (s && s !== "—") {
      if (b.firstStage === null) {
        b.firstStage = s;
        b.firstFrame = performance.now();
      } else if (s !== b.firstStage) {
        b.firstAnimated = performance.now();
        return;
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const desc = Object.getOwnPropertyDescriptor(Worker.prototype, "onmessage");
  Object.defineProperty(Worker.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(f) {
      desc.set.call(this, function (ev) {
        const d = ev.data;
        const n = d instanceof Uint8Array ? d.length : 0;
        if (n > 64 && d[0] === 2 && d[n - 19] === 5 && d[n - 10] === 6 && d[n - 1] === 0) {
          const v = new DataView(d.buffer, d.byteOffset, n);
          b.loaded.push({ at: performance.now(), bytes: n, loadMs: v.getFloat64(n - 18, true), runMs: v.getFloat64(n - 9, true) });
        }
        return f.call(this, ev);
      });
    },
  });
};

const tasksSince = (page, t) => page.evaluate((t) => window.__bench.longtasks.filter((x) => x.start >= t), t);
const now = (page) => page.evaluate(() => performance.now());

// ---- first frames ---------------------------------------------------------------------------

async function firstFrames(env) {
  const page = await newPage(env, { init: PROBES });
  await page.goto(env.url);
  await page.waitForFunction(() => window.__bench.firstAnimated !== null, null, { timeout: 120000 });
  const r = await page.evaluate(() => ({
    firstFrame: window.__bench.firstFrame,
    firstAnimated: window.__bench.firstAnimated,
    longest: Math.max(0, ...window.__bench.longtasks.map((t) => t.duration)),
    nav: performance.getEntriesByType("navigation")[0]?.toJSON(),
  }));
  await page.context().close();
  return r;
}

// An embed's first frame over a slow link: a docs page's visitor on 10 Mbit/s with a 40 ms round
// trip, downloading the gzip-compressed site with an empty cache.
async function throttledEmbed(env, url) {
  const page = await newPage(env, { init: PROBES });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 40,
    downloadThroughput: 10e6 / 8,
    uploadThroughput: 10e6 / 8,
  });
  await page.goto(url + "?embed");
  await page.waitForFunction(() => window.__bench.firstFrame !== null, null, { timeout: 300000 });
  const firstFrame = await page.evaluate(() => window.__bench.firstFrame);
  await page.context().close();
  return firstFrame;
}

// ---- the large run, natively, and typing ----------------------------------------------------

async function idle(page, timeout = 600000) {
  await page.waitForFunction(() => document.querySelector(".status")?.getAttribute("data-busy") === "false", null, { timeout, polling: 100 });
}

async function largeRun(env) {
  const page = await newPage(env, { init: PROBES });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await fillGenerator(page, NODES, PODS);
  const t0 = await now(page);
  const seen = await page.evaluate(() => window.__bench.loaded.length);
  await page.click('text="Generate and schedule"');
  // The page answers a click while the worker runs (recorded, not asserted).
  await page.waitForFunction(() => document.querySelector(".status").getAttribute("data-busy") === "true");
  const c0 = await now(page);
  await page.click('button[aria-label="Keyboard shortcuts"]');
  await page.waitForSelector(".modal");
  const click = (await now(page)) - c0;
  await page.keyboard.press("Escape");
  const want = `${NODES} nodes · ${PODS} pods`;
  await page.waitForFunction(
    (w) => document.querySelector(".status").textContent.includes(w) && document.querySelector(".status").getAttribute("data-busy") === "false",
    want,
    { timeout: 600000, polling: 50 },
  );
  const t1 = await now(page);
  // The final placement drawn (a large run opens at its end), then a second of quiet.
  await page.waitForSelector(".heatmap canvas");
  await page.waitForFunction(() => document.querySelector(".stage-label").textContent.trim() === "Quiet");
  await page.waitForTimeout(1000);
  const loaded = (await page.evaluate(() => window.__bench.loaded.slice()))[seen];
  const tasks = await tasksSince(page, t0);
  return { page, wallMs: t1 - t0, loaded, clickMs: click, tasks };
}

async function typing(page) {
  // The generated cluster's YAML into the editor: a 10 000-pod document (the page re-runs it).
  const seen = await page.evaluate(() => window.__bench.loaded.length);
  await page.click('text="Load the YAML into the editor"');
  await page.waitForFunction((n) => window.__bench.loaded.length > n, seen, { timeout: 600000, polling: 100 });
  await idle(page);
  // The autosave of a large scenario waits up to 2 s after the change (crates/web/src/shell/
  // autosave.rs): until then the saved scenario is the generated cluster's spec, with no text.
  const parts = await savedParts(page);
  await page.click("#tab-pods");
  await page.waitForTimeout(1000);
  const results = [];
  for (let r = 0; r < RUNS; r++) {
    await page.click(".editor-host .cm-content");
    await page.keyboard.press("Control+End");
    const t0 = await now(page);
    const n = await page.evaluate(() => window.__bench.loaded.length);
    // About 8 keys a second, as a quick typist; a YAML comment, so the scenario stays valid.
    await page.keyboard.type(`\n# typed by the benchmark, round ${r + 1}`, { delay: 120 });
    const t1 = await now(page);
    // The edit re-runs the scenario: wait for its answer to be applied, then a second more.
    await page.waitForFunction((n) => window.__bench.loaded.length > n, n, { timeout: 600000, polling: 100 });
    await idle(page);
    await page.waitForTimeout(1000);
    const tasks = await tasksSince(page, t0);
    const events = await page.evaluate((t) => window.__bench.events.filter((e) => e.start >= t && e.start <= t + 1e9), t0);
    const keys = events.filter((e) => ["keydown", "keypress", "keyup", "beforeinput", "input"].includes(e.name));
    results.push({
      typingMs: t1 - t0,
      longestTask: Math.max(0, ...tasks.map((t) => t.duration)),
      longTasks: tasks.length,
      longTasksWhileTyping: tasks.filter((t) => t.start <= t1).length,
      longestWhileTyping: Math.max(0, ...tasks.filter((t) => t.start <= t1).map((t) => t.duration)),
      longestKey: Math.max(0, ...keys.map((e) => e.duration)),
    });
  }
  return { parts, results };
}

function native(text) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-bench-"));
  const f = join(dir, "generated.yaml");
  writeFileSync(f, text);
  const out = [];
  for (let r = 0; r < RUNS; r++) {
    // The page runs at v1.34 (crates/web/src/scenario.rs PRESET_VERSION): the same work natively.
    const s = execFileSync(NATIVE, ["bench", "--scenario", f, "--kubernetes-version", "1.34"], { maxBuffer: 1 << 24 }).toString();
    const num = (k) => Number((s.match(new RegExp(`^${k}: ([\\d.]+)`, "m")) || [])[1]);
    out.push({ loadMs: num("load") * 1000, runMs: num("scheduling") * 1000, summaryMs: num("summary") * 1000, cpu: num("cpu time") });
  }
  return { file: f, runs: out };
}

// ---- report ---------------------------------------------------------------------------------

const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "—");
const kb = (x) => `${(x / 1024).toFixed(1)} KiB`;

function table(rows) {
  const w = [0, 0, 0];
  for (const r of rows) r.forEach((c, i) => (w[i] = Math.max(w[i], String(c).length)));
  return rows.map((r) => `  ${String(r[0]).padEnd(w[0])}  ${String(r[1]).padStart(w[1])}  ${String(r[2] ?? "").padEnd(w[2])}`).join("\n");
}

const env = await start();
const result = { runs: RUNS, machine: { cpus: cpus().length, loadavg: loadavg().map((x) => +x.toFixed(2)) } };
try {
  log("sizes");
  result.sizes = sizes();
  log(`first frames (${RUNS} loads)`);
  result.frames = [];
  for (let r = 0; r < RUNS; r++) result.frames.push(await firstFrames(env));
  log(`an embed's first frame over 10 Mbit/s, 40 ms RTT (${RUNS} loads)`);
  const gz = await serve(DIST, 0, { gzip: true });
  try {
    result.throttledEmbed = [];
    for (let r = 0; r < RUNS; r++) result.throttledEmbed.push(await throttledEmbed(env, `http://127.0.0.1:${gz.address().port}/`));
  } finally {
    gz.close();
  }
  log(`${NODES} × ${PODS} in the worker (${RUNS} runs)`);
  result.large = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    const x = await largeRun(env);
    result.large.push({ wallMs: x.wallMs, loadMs: x.loaded?.loadMs, runMs: x.loaded?.runMs, bytes: x.loaded?.bytes, clickMs: x.clickMs, longestTask: Math.max(0, ...x.tasks.map((t) => t.duration)), longTasks: x.tasks.length });
    if (r + 1 < RUNS) await x.page.context().close();
    else last = x.page;
  }
  log("typing in the 10 000-pod document");
  const typed = await typing(last);
  result.typing = typed.results;
  result.errors = last.errors;
  await last.context().close();
  log("the same scenario natively");
  const text = typed.parts.nodes + "---\n" + typed.parts.pods;
  result.native = native(text).runs;
  result.scenarioBytes = text.length;
} finally {
  await stop(env);
}

const L = result.large, N = result.native, F = result.frames, T = result.typing;
const worker = L.map((x) => x.loadMs + x.runMs);
const nat = N.map((x) => x.loadMs + x.runMs);
const ratio = best(nat) / best(worker);
const rows = [["file", "bytes", "gzip -9"]];
for (const f of result.sizes.files) rows.push([f.file, f.bytes, f.gzip]);
rows.push(["total at start (budget 1,600,000 gzip)", result.sizes.bytes, `${result.sizes.gzip} (${kb(result.sizes.gzip)})`]);
rows.push(["an embed (all but the editor)", "", `${result.sizes.embedGzip} (${kb(result.sizes.embedGzip)})`]);
const fig = (name, xs, target) => [name, `${ms(best(xs))} / ${ms(median(xs))}`, target];
const figs = [
  ["figure", "best / median", "target"],
  fig("navigation → first frame", F.map((x) => x.firstFrame), "≤ 400 ms"),
  fig("navigation → first animated frame", F.map((x) => x.firstAnimated), "≤ 1000 ms"),
  fig("longest main-thread task at start-up", F.map((x) => x.longest), "≤ 50 ms"),
  fig("an embed's first frame, 10 Mbit/s 40 ms RTT", result.throttledEmbed, "≤ 2000 ms"),
  fig(`${NODES}×${PODS}: worker load (parse)`, L.map((x) => x.loadMs), ""),
  fig(`${NODES}×${PODS}: worker run (schedule)`, L.map((x) => x.runMs), ""),
  fig(`${NODES}×${PODS}: worker load + run`, worker, "≤ 1000 ms"),
  fig(`${NODES}×${PODS}: native load + run`, nat, ""),
  ["wasm speed / native (best)", `${ratio.toFixed(2)}×`, "≥ 0.7×"],
  fig(`${NODES}×${PODS}: page wall (click → done)`, L.map((x) => x.wallMs), ""),
  fig("a click answered during the run", L.map((x) => x.clickMs), ""),
  fig("longest main-thread task, large run", L.map((x) => x.longestTask), "≤ 50 ms"),
  fig("longest main-thread task, typing", T.map((x) => x.longestWhileTyping), "≤ 50 ms"),
  fig("  … incl. the re-run's answer", T.map((x) => x.longestTask), "≤ 50 ms"),
  fig("longest keystroke → paint", T.map((x) => x.longestKey), "≤ 50 ms"),
];
console.log(`schedlab web benchmark — ${RUNS} runs each; ${result.machine.cpus} cpus, load average ${result.machine.loadavg.join(" ")}`);
console.log("\ndownload (dist/):");
console.log(table(rows));
console.log("\nfigures:");
console.log(table(figs));
console.log(`\nworker answer for the large run: ${kb(best(L.map((x) => x.bytes)))} (schedlab_view::wire); native summary serialization (JSON) ${ms(best(N.map((x) => x.summaryMs)))}; scenario text ${kb(result.scenarioBytes)}`);
if (result.errors.length) console.log(`console errors/warnings: ${JSON.stringify(result.errors)}`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify(result, null, 2));
