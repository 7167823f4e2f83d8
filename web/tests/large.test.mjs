// A 5000-node × 10000-pod cluster generated in the page: the worker schedules it while the page
// keeps answering (a click during the run gets its answer), and the cluster is shown as a
// heatmap; a cycle's per-node detail is recovered on demand. Functional only: how long things
// take is measured by scripts/bench-web.sh, never asserted here.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, frameShown, waitStage, playhead, fillGenerator } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Records every canvas paint (a paint starts with clearRect): which canvas, in which animation
 * frame (the timestamp every callback of one frame is given), and how many rectangles it drew. */
const CANVAS_PAINTS = () => {
  window.__paints = [];
  let frame = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) =>
    raf((ts) => {
      frame = ts;
      return cb(ts);
    });
  const which = (c) => (c.closest(".heatmap") ? "heatmap" : c.closest(".timeline") ? "timeline" : "other");
  const P = CanvasRenderingContext2D.prototype;
  const clear = P.clearRect;
  const fill = P.fillRect;
  P.clearRect = function (...a) {
    window.__paints.push({ canvas: which(this.canvas), frame, rects: 0, width: this.canvas.clientWidth });
    return clear.apply(this, a);
  };
  P.fillRect = function (...a) {
    const w = which(this.canvas);
    const last = window.__paints.findLast((p) => p.canvas === w);
    if (last) last.rects++;
    return fill.apply(this, a);
  };
};

test("5000 nodes × 10000 pods schedule in the worker while the page answers clicks", { timeout: 1200000 }, async () => {
  const page = await newPage(env, { init: CANVAS_PAINTS });
  await page.goto(env.url);
  await ready(page);
  await pause(page);

  await fillGenerator(page, 5000, 10000);
  await page.click('text="Generate and schedule"');
  // While the worker runs, the page keeps answering: a click opens the shortcuts dialog, Escape
  // closes it (however long the run takes, each click gets its answer).
  await page.waitForFunction(() => document.querySelector(".status").getAttribute("data-busy") === "true");
  for (let i = 0; i < 3; i++) {
    await page.click('button[aria-label="Keyboard shortcuts"]');
    await page.waitForSelector(".modal");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".modal", { state: "detached" });
    if ((await page.getAttribute(".status", "data-busy")) === "false") break;
  }
  await page.waitForFunction(
    () => /5000 nodes · 10000 pods/.test(document.querySelector(".status").textContent) && document.querySelector(".status").getAttribute("data-busy") === "false",
    null,
    { timeout: 900000, polling: 250 },
  );
  const status = (await page.textContent(".status")).trim();
  assert.match(status, /at the end: 10000 running · 0 pending/, "every pod is placed");
  await page.waitForSelector(".heatmap canvas");
  // A large run opens at its end: the heatmap of the final placement.
  await waitStage(page, "Quiet");
  await shot(page, "12-large-cluster-end");
  // Each canvas is painted at most once per animation frame, and the timeline's 10 000 cycle
  // markers are drawn as the runs they make on its width, not one rectangle each.
  const paints = await page.evaluate(() => window.__paints);
  for (const c of ["heatmap", "timeline"]) {
    const mine = paints.filter((p) => p.canvas === c);
    assert.ok(mine.length > 0, `${c} painted`);
    const frames = new Set(mine.map((p) => p.frame));
    assert.equal(frames.size, mine.length, `${c}: one paint per frame (${mine.map((p) => p.frame).join(", ")})`);
  }
  const timeline = paints.filter((p) => p.canvas === "timeline").at(-1);
  assert.ok(timeline.rects > 1 && timeline.rects < 2 * timeline.width, `timeline: ${timeline.rects} rectangles on ${timeline.width} px`);

  // Jump into the middle: the worker recovers that cycle's per-node detail (a re-run).
  await page.fill(".cycle-jump input", "5000");
  await page.press(".cycle-jump input", "Enter");
  await page.locator(".cycle-jump input").blur();
  await page.waitForFunction(() => (document.querySelector(".cycle-title")?.textContent || "").includes("cycle 5000 "));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("table.matrix", { timeout: 300000 });
  await frameShown(page);
  await shot(page, "13-large-cycle-detail");

  // Play at the highest speed until the playhead has moved on a few stops, then pause.
  const from = await playhead(page);
  await page.keyboard.press("4");
  await page.keyboard.press("Space");
  await page.waitForFunction((p) => Number(document.querySelector(".timeline input[type=range]").value) >= p + 3, from);
  await pause(page);
  await frameShown(page);
  noErrors(page);
});

// The address holds the scenario only while its payload is small (crates/web/src/shell/
// address.rs: each rewrite of a long address costs the page a long task); a larger one is left
// out of it, with the view kept, and a reload finds it in the autosave.
test("a scenario too large for the address is left out of it, and a reload still has it", { timeout: 600000 }, async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  const hash = () => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.hash.slice(1))));
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get("s"), null, { timeout: 30000 });
  await pause(page);
  await fillGenerator(page, 1500, 3000);
  await page.click('text="Generate and schedule"');
  const done = () =>
    page.waitForFunction(
      // After the reload the status bar may not be mounted yet at the first poll.
      () => {
        const status = document.querySelector(".status");
        return !!status && /1500 nodes · 3000 pods/.test(status.textContent) && status.getAttribute("data-busy") === "false";
      },
      null,
      { timeout: 300000, polling: 250 },
    );
  await done();
  // A generated cluster travels as its sizes: a short payload.
  await page.waitForFunction(() => (new URLSearchParams(location.hash.slice(1)).get("s") || "").length > 0);
  await page.click('text="Load the YAML into the editor"');
  // Its YAML (about 1.2 MB, some 40 KB once compressed) does not: the address keeps the view.
  await page.waitForFunction(() => {
    const h = new URLSearchParams(location.hash.slice(1));
    return !h.has("s") && h.get("v") === "2";
  }, null, { timeout: 120000, polling: 100 });
  await done();
  const h = await hash();
  assert.ok(!("s" in h) && h.view, `the view stays in the address: ${JSON.stringify(h)}`);
  await page.waitForTimeout(1500); // the autosave's debounce
  await page.reload();
  await done();
  assert.equal(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).has("s")), false);
  noErrors(page);
  await page.context().close();
});
