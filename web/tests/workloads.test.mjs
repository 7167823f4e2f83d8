// Browser tests of workloads and devices: a Deployment preset's controller-made pods (owner marks
// on chips, grouped by owner in the queue), the "Controllers" switch (it removes them, and a
// share link carries it), and the GPU preset's devices taken by its claims (DRA).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, gotoPhase, savedParts, joinParts, cli } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** The pod count in the status line ("4 nodes · 8 pods · …"). */
async function podCount(page) {
  const s = await page.textContent(".status");
  return Number((s.match(/(\d+) pods?\b/) || [])[1]);
}

test("the Deployment preset: pods its ReplicaSet made, marked and grouped; the switch removes them and links carry it", async () => {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=deployment`);
  await ready(page);
  await pause(page);
  // The oracle: the CLI runs the same scenario with controllers on (its default).
  const oracle = cli(joinParts(await savedParts(page)));
  const web = oracle.pods.filter((p) => /^web-[a-z0-9]+-[a-z0-9]{5}$/.test(p.name));
  assert.equal(web.length, 6, "six replicas");
  assert.equal(await podCount(page), 8, "two scenario pods and six made by the controllers");

  // At the start, the replicas wait in activeQ, grouped under their ReplicaSet.
  await page.keyboard.press("Home");
  const group = page.locator('.queue-panel .q-group[data-owner^="ReplicaSet/web-"]');
  await group.first().waitFor();
  assert.ok(Number(await group.first().getAttribute("data-count")) >= 2);
  assert.match(await group.first().locator(".q-group-label").textContent(), /web-\w{4}… ×\d/);
  await shot(page, "workloads-deployment-queue");

  // At the end, each replica sits where the engine put it, with its owner mark.
  await page.keyboard.press("End");
  await page.waitForFunction(
    () => document.querySelectorAll('.cluster-panel .chip .owner-mark[data-owner^="ReplicaSet/web-"]').length === 6,
  );
  for (const p of web) {
    const chip = page.locator(`.cluster-panel .node-card[data-node="${p.node}"] .chip[data-pod="${p.name}"]`);
    assert.equal(await chip.count(), 1, `${p.name} on ${p.node}`);
    assert.match(await chip.getAttribute("title"), /created by ReplicaSet\/web-\w+ at t = 0\.000 s/);
  }
  // System default spreading: every zone gets a replica.
  const zones = new Set(web.map((p) => p.node.replace(/^node-(\w).*/, "$1")));
  assert.deepEqual([...zones].sort(), ["a", "b", "c"]);
  await shot(page, "workloads-1440");

  // Controllers off: only the scenario's own pods.
  await page.click(".ctl-toggle");
  await page.waitForFunction(() => document.querySelector(".ctl-toggle").dataset.controllers === "off");
  await page.waitForFunction(() => /\b2 pods\b/.test(document.querySelector(".status").textContent) && document.querySelector(".status").dataset.busy === "false");
  assert.equal(await page.locator(".owner-mark").count(), 0);
  // The address carries it; a fresh visitor opening it gets the same world.
  await page.waitForFunction(() => location.hash.includes("ctl=off"));
  const link = await page.evaluate(() => location.href);
  const other = await newPage(env);
  await other.goto(link);
  await ready(other);
  assert.equal(await other.getAttribute(".ctl-toggle", "data-controllers"), "off");
  assert.equal(await podCount(other), 2);
  // And on again.
  await other.click(".ctl-toggle");
  await other.waitForFunction(() => /\b8 pods\b/.test(document.querySelector(".status").textContent));
  await other.waitForFunction(() => !location.hash.includes("ctl=off"));
  noErrors(page);
  noErrors(other);
});

test("the GPU preset: each claim's device, taken on the chosen node, and DynamicResources explained", async () => {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=gpu`);
  await ready(page);
  await pause(page);
  const oracle = cli(joinParts(await savedParts(page)));
  const trainers = oracle.pods.filter((p) => p.name.startsWith("train-"));
  assert.equal(trainers.length, 2);
  await page.keyboard.press("End");
  for (const p of trainers) {
    assert.ok(p.node, `${p.name} is placed`);
    // The claim made for the pod from its template, allocated a device on its node.
    const key = Object.keys(oracle.claims || {}).find((k) => k.startsWith(`default/${p.name}-gpu`));
    assert.ok(key, JSON.stringify(oracle.claims));
    const [alloc] = oracle.claims[key].allocated;
    assert.equal(alloc.pool, p.node, "a device of the pod's node");
    const dev = page.locator(`.node-card[data-node="${p.node}"] .device.taken`);
    await dev.first().waitFor();
    assert.equal(await dev.count(), 1);
    assert.equal(await dev.first().getAttribute("data-claim"), key);
    assert.equal(await dev.first().getAttribute("data-device"), `${alloc.driver}/${alloc.pool}/${alloc.device}`);
    const short = key.replace(/^default\//, "");
    assert.ok(new RegExp(`${alloc.device}\\s→ ${short}$`).test((await dev.first().textContent()).trim()), await dev.first().textContent());
  }
  // The small GPUs stay free.
  assert.equal(await page.locator('.node-card[data-node="gpu-small"] .device').count(), 2);
  assert.equal(await page.locator('.node-card[data-node="gpu-small"] .device.taken').count(), 0);
  await shot(page, "workloads-gpu-1440");

  // The Claims tab: one row per claim, allocated.
  await page.click('button[role="tab"]:has-text("Claims")');
  await page.waitForFunction(() => document.querySelectorAll(".claims-table tbody tr.allocated").length === 2);
  await shot(page, "workloads-gpu-claims-1440");

  // Why not gpu-small: the DynamicResources cell explains it.
  await page.click('button[role="tab"]:has-text("Scheduling cycle")');
  await gotoPhase(page, 1, "Filter");
  const cell = page.locator('table.matrix tr[data-node="gpu-small"] [data-plugin="DynamicResources"]');
  await cell.waitFor();
  await cell.click();
  await page.waitForSelector(".explain li");
  const text = await page.textContent(".explain");
  assert.match(text, /DynamicResources/);
  assert.match(text, /No set of free devices usable from gpu-small/, text);
  await shot(page, "workloads-gpu-explain-1440");
  noErrors(page);
});

test("workloads at 1280 × 800: the queue groups, the devices and the Claims tab fit", async () => {
  const page = await newPage(env, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.url}?preset=deployment`);
  await ready(page);
  await pause(page);
  await page.keyboard.press("Home");
  await page.locator(".queue-panel .q-group").first().waitFor();
  await shot(page, "workloads-1280");
  // Nothing in the top bar is pushed out of the window.
  const overflow = await page.evaluate(() => {
    const bar = document.querySelector(".topbar");
    return [...bar.children].filter((c) => c.getBoundingClientRect().right > window.innerWidth + 1).map((c) => c.className);
  });
  assert.deepEqual(overflow, []);
  await page.goto(`${env.url}?preset=gpu`);
  await ready(page);
  await pause(page);
  await page.keyboard.press("End");
  await page.locator(".node-card .device.taken").first().waitFor();
  await page.click('button[role="tab"]:has-text("Claims")');
  await page.locator(".claims-table tbody tr").first().waitFor();
  await shot(page, "workloads-gpu-1280");
  noErrors(page);
});
