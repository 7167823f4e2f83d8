// Browser tests of explanations in presets whose cluster changes while it runs (Jobs that finish
// and start pods, a drain, nodes an autoscaler adds): every cell clicked is explained, and the
// explanation names the node clicked; the engine never stops (no new worker, no error in the
// panel, no notice). These reproduce issue 17's reports of explanations that panicked or named
// another node (the engine rebuilt the cluster by position instead of by identity).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  start,
  stop,
  newPage,
  noErrors,
  ready,
  pause,
  gotoPhase,
  runId,
  nextRun,
  savedParts,
  joinParts,
  cliExplainCheck,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

async function open(preset) {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=${preset}`);
  await ready(page);
  await pause(page);
  return page;
}

/** Clicks every cell button matching `sel` (in a table of rows with data-node) and checks
 * that each explanation is titled with the cell's plugin and the node clicked. */
async function explainEvery(page, sel) {
  const cells = await page.evaluate(
    (s) => [...document.querySelectorAll(s)].map((b) => ({ node: b.closest("tr[data-node]").dataset.node, plugin: b.dataset.plugin })),
    sel,
  );
  assert.ok(cells.length > 0, `cells to click: ${sel}`);
  let previous = null;
  for (const { node, plugin } of cells) {
    const want = `${plugin} · ${node}`;
    await page.click(`tr[data-node="${node}"] ${sel.split(" ").pop()}[data-plugin="${plugin}"]`);
    // The answer to this click: the expected title, an error, or any title but the last one.
    await page.waitForFunction(
      ([w, prev]) => {
        if (document.querySelector(".explain .explain-failed")) return true;
        const h = document.querySelector(".explain h4")?.textContent;
        return h === w || (h && h !== prev);
      },
      [want, previous],
    );
    const failed = await page.locator(".explain .explain-failed").count();
    assert.equal(failed, 0, `${want}: explained (${failed ? await page.textContent(".explain pre") : ""})`);
    assert.equal(await page.textContent(".explain h4"), want, "the explanation names the cell clicked");
    assert.ok((await page.locator(".explain li").count()) > 0, `${want}: sentences`);
    previous = want;
  }
  return cells.length;
}

async function engineFine(page) {
  assert.equal(await page.evaluate(() => window.__schedlabTest.workers()), 1, "the first worker still answers");
  const notes = await page.locator(".notice").allTextContents();
  assert.deepEqual(notes.filter((n) => /engine/i.test(n)), [], "no engine notice");
  noErrors(page);
}

test("batch-jobs: every filter cell of cycle 4 is explained for the node clicked", async () => {
  const page = await open("batch-jobs");
  await gotoPhase(page, 4, "Filter");
  await explainEvery(page, "table.matrix .cell-btn");
  await engineFine(page);
});

test("drain: every NodeUnschedulable cell of cycle 4 is explained for the node clicked", async () => {
  const page = await open("drain");
  await gotoPhase(page, 4, "Filter");
  await explainEvery(page, 'table.matrix .cell-btn[data-plugin="NodeUnschedulable"]');
  await engineFine(page);
});

test("autoscaler: cycle 1's matrix lists only the nodes that exist then; every cell of cycle 9 names the node clicked", async () => {
  const page = await open("autoscaler");
  await gotoPhase(page, 1, "Filter");
  const rows = await page.evaluate(() => [...document.querySelectorAll("table.matrix tr[data-node]")].map((r) => r.dataset.node));
  const present = await page.evaluate(() =>
    [...document.querySelectorAll(".cluster-panel .node-card[data-node]:not(.absent)")].map((c) => c.dataset.node),
  );
  assert.deepEqual(rows.slice().sort(), ["node-1", "node-2"], "the nodes of cycle 1 (node-3 and node-4 join later)");
  for (const r of rows) assert.ok(present.includes(r), `${r} is in the cluster at cycle 1`);
  await explainEvery(page, "table.matrix .cell-btn");

  await gotoPhase(page, 9, "Filter");
  await explainEvery(page, "table.matrix .cell-btn");
  // Cycle 9 has one feasible node: nothing is scored (no score cells to click).
  await gotoPhase(page, 9, "Score");
  assert.equal(await page.locator("table.scores .cell-btn").count(), 0);
  assert.match(await page.textContent(".lower-panel"), /node-3 is the only feasible node/);
  await engineFine(page);
});

/** Opens the actions menu of `selector` (a node's ⋯ or a pod chip), clicks `action` and waits
 * for the run the action makes. */
async function act(page, selector, action) {
  const before = await runId(page);
  await page.click(selector);
  await page.waitForSelector(".action-menu");
  await page.click(`.action-menu [data-action="${action}"]`);
  await nextRun(page, before);
  await pause(page);
}

/** The number of cycles of the run on screen (the cycle box's "/ N"). */
async function cycles(page) {
  const t = await page.textContent(".cycle-jump");
  return Number(/\/\s*(\d+)/.exec(t)[1]);
}

/** The scenario on screen, checked natively cell by cell (`schedlab explain --check`). */
async function nativeCheck(page) {
  const text = joinParts(await savedParts(page));
  const seed = await page.inputValue('input[aria-label="Random seed for tie-breaks"]');
  const r = cliExplainCheck(text, Number(seed) || 1);
  assert.equal(r.status, 0, `schedlab explain --check on the page's scenario:\n${r.out}`);
  assert.match(r.out, / 0 disagreement\(s\)/);
}

test("a Deployment scaled up with + : every filter cell of the new pod's cycle names the node clicked", async () => {
  const page = await open("deployment");
  const chip = await page.evaluate(() => [...document.querySelectorAll(".menu-chip-btn[data-pod]")].map((b) => b.dataset.pod).find((n) => n.startsWith("web-")));
  assert.ok(chip, "a pod of the Deployment web");
  const before = await cycles(page);
  await act(page, `.menu-chip-btn[data-pod="${chip}"]`, "scale-up");
  const after = await cycles(page);
  assert.ok(after > before, `the new replica is scheduled (cycles ${before} → ${after})`);
  await gotoPhase(page, after, "Filter");
  assert.match(await page.textContent(".cycle-title"), /pod web-/, "the last cycle schedules a replica");
  await explainEvery(page, "table.matrix .cell-btn");
  await engineFine(page);
  await nativeCheck(page);
});

test("autoscaler with node-1 deleted at cycle 8: cycle 9 lists and explains only the nodes that exist", async () => {
  const page = await open("autoscaler");
  await gotoPhase(page, 8, "Filter");
  await act(page, '.node-card[data-node="node-1"] .node-menu', "delete-node");
  await gotoPhase(page, 9, "Filter");
  const rows = await page.evaluate(() => [...document.querySelectorAll("table.matrix tr[data-node]")].map((r) => r.dataset.node));
  assert.ok(!rows.includes("node-1"), `node-1 is gone from cycle 9's matrix: ${rows}`);
  assert.ok(rows.includes("node-2"), `node-2 is listed: ${rows}`);
  await explainEvery(page, "table.matrix .cell-btn");
  // node-2's Fit cell: the sentences are about node-2's own numbers.
  await page.click('tr[data-node="node-2"] .cell-btn[data-plugin="NodeResourcesFit"]');
  await page.waitForFunction(() => document.querySelector(".explain h4")?.textContent === "NodeResourcesFit · node-2");
  const said = await page.textContent(".explain");
  assert.ok(!/node-3/.test(said), `node-2's Fit cell speaks of node-2 only: ${said}`);
  await engineFine(page);
  await nativeCheck(page);
});
