// A 5000-node × 10000-pod cluster generated in the page: the worker schedules it while the
// page stays responsive (no main-thread task over 50 ms, measured with a PerformanceObserver
// for long tasks), and the cluster is shown as a heatmap.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { start, stop, newPage, shot, ready, pause, SHOTS } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const OBSERVE = () => {
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
};

test("5000 nodes × 10000 pods schedule in the worker without blocking the page", { timeout: 600000 }, async () => {
  const page = await newPage(env, { init: OBSERVE });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const startup = await page.evaluate(() => window.__longtasks.slice());

  const t0 = await page.evaluate(() => performance.now());
  await page.click('button[aria-label="Generate a large cluster"]');
  await page.fill('input[name="nodes"]', "5000");
  await page.fill('input[name="pods"]', "10000");
  await page.fill('input[name="zones"]', "3");
  await page.click('text="Generate and schedule"');
  // While the worker runs, the page keeps answering (the status shows progress).
  await page.waitForFunction(() => document.querySelector(".status").getAttribute("data-busy") === "true");
  const clicks = [];
  for (let i = 0; i < 3; i++) {
    const c0 = await page.evaluate(() => performance.now());
    await page.click('button[aria-label="Keyboard shortcuts"]');
    await page.waitForSelector(".modal");
    await page.keyboard.press("Escape");
    clicks.push((await page.evaluate(() => performance.now())) - c0);
    if ((await page.getAttribute(".status", "data-busy")) === "false") break;
  }
  await page.waitForFunction(
    () => /5000 nodes · 10000 pods/.test(document.querySelector(".status").textContent) && document.querySelector(".status").getAttribute("data-busy") === "false",
    null,
    { timeout: 540000, polling: 250 },
  );
  const t1 = await page.evaluate(() => performance.now());
  const marks = { t0, t1 };
  await page.waitForSelector(".heatmap canvas");
  const status = (await page.textContent(".status")).trim();
  // A large run opens at its end: the heatmap of the final placement.
  await page.waitForFunction(() => document.querySelector(".stage-label").textContent.trim() === "Quiet");
  await page.waitForTimeout(300);
  await shot(page, "12-large-cluster-end");
  marks.end = await page.evaluate(() => performance.now());
  // Jump into the middle: the worker recovers that cycle's per-node detail (a re-run).
  await page.fill(".cycle-jump input", "5000");
  await page.press(".cycle-jump input", "Enter");
  await page.locator(".cycle-jump input").blur();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("table.matrix", { timeout: 120000 });
  await page.waitForTimeout(300);
  await shot(page, "13-large-cycle-detail");
  marks.detail = await page.evaluate(() => performance.now());
  // Play a little at the highest speed, then pause.
  await page.keyboard.press("4");
  await page.keyboard.press("Space");
  await page.waitForTimeout(2000);
  await pause(page);
  await page.waitForTimeout(500);
  const t2 = await page.evaluate(() => performance.now());

  const tasks = await page.evaluate(() => window.__longtasks.slice());
  const during = tasks.filter((t) => t.start >= t0);
  const max = during.reduce((m, t) => Math.max(m, t.duration), 0);
  const report = {
    status,
    scheduleWallMs: Math.round(t1 - t0),
    totalWallMs: Math.round(t2 - t0),
    longTasksDuring: during.length,
    maxLongTaskMs: Math.round(max),
    startupLongTasks: startup.map((t) => Math.round(t.duration)),
    clickRoundTripsMs: clicks.map(Math.round),
    marks: Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, Math.round(v)])),
    tasks: during.map((t) => [Math.round(t.start), Math.round(t.duration)]),
  };
  console.log("large-cluster:", JSON.stringify(report));
  writeFileSync(join(SHOTS, "large-cluster.json"), JSON.stringify(report, null, 2));
  assert.equal(during.length, 0, `main-thread tasks over 50 ms: ${JSON.stringify(during)}`);
  assert.deepEqual(page.errors, []);
});
