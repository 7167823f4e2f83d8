// Browser tests of an engine that stops: a panic while it explains a cell, a trap no panic hook
// sees, a worker terminated outright. Each time the page answers what was asked with an error
// (an explanation that could not be computed, with its report), starts a new worker, runs the
// same scenario again and returns to the same stop, edits kept; no "engine stopped" banner
// stays. The worker is stopped through the page's test hooks (window.__schedlabTest, see
// docs/web.md). Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  start, stop, newPage, shot, ready, pause, stage, playhead, gotoPhase, savedParts, joinParts, cli, replaceEditorText, runId, nextRun,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** What a stopped worker leaves in the console: the panic (the worker's own hook), the page's
 * note that it starts a new one, an error event's report. Anything else fails the test. */
const EXPECTED = /panicked at|the page asked this worker to crash|schedlab: the engine (panicked|stopped)|schedlab: engine worker error|RuntimeError: unreachable/;

function noOtherErrors(page) {
  const others = page.errors.filter((e) => !EXPECTED.test(e));
  assert.deepEqual(others, [], "no console errors or warnings but the expected stop");
}

async function workers(page) {
  return page.evaluate(() => window.__schedlabTest.workers());
}

/** No notice about the engine is on screen. */
async function noEngineNotice(page) {
  const notes = await page.locator(".notice").allTextContents();
  assert.deepEqual(notes.filter((n) => /engine/i.test(n)), [], "no engine notice stays");
}

/** The first cycle of the scenario on screen that has a filter matrix with at least two nodes. */
async function filterCycle(page) {
  const trace = cli(joinParts(await savedParts(page)), "trace");
  const f = trace.events.find((e) => e.type === "filter" && e.verdicts.length >= 2);
  assert.ok(f, "a cycle with a filter matrix");
  return { cycle: f.cycle };
}

test("a panic while explaining a cell: the panel says so with a report, the same stop comes back, the next click is explained", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const { cycle } = await filterCycle(page);
  await gotoPhase(page, cycle, "Filter");
  const nodes = await page.evaluate(() =>
    [...document.querySelectorAll("table.matrix tr[data-node]")].filter((r) => r.querySelector(".cell-btn")).map((r) => r.dataset.node),
  );
  assert.ok(nodes.length >= 2, "two evaluated nodes");
  const at = await playhead(page);
  const run = await runId(page);
  const started = await workers(page);

  // The next explanation is asked as a deliberate panic under its id.
  await page.evaluate(() => window.__schedlabTest.crashNextExplain());
  const first = page.locator(`table.matrix tr[data-node="${nodes[0]}"] .cell-btn`).first();
  const plugin = await first.getAttribute("data-plugin");
  await first.click();
  await page.waitForSelector(".explain .explain-failed");
  assert.equal((await page.textContent(".explain .explain-failed")).trim(), "This explanation could not be computed.");

  // A new worker runs the same scenario and shows the same stop; the panel keeps its error.
  await nextRun(page, run);
  assert.equal(await workers(page), started + 1, "one new worker");
  assert.equal(await playhead(page), at, "the same stop");
  assert.equal(await stage(page), "Filter");
  await page.waitForFunction((c) => (document.querySelector(".cycle-title")?.textContent || "").includes(`cycle ${c} `), cycle);
  assert.equal(await page.locator(".explain .explain-failed").count(), 1, "the explanation's error stays");
  assert.equal(await page.getAttribute(".status", "data-busy"), "false");
  await noEngineNotice(page);

  // The report: why the engine stopped, what was asked, where the playhead was.
  await page.click(".explain .explain-report summary");
  const report = await page.textContent(".explain .explain-report pre");
  assert.match(report, /engine: panicked at crates\/worker\/src\/lib\.rs:\d+:\d+: the page asked this worker to crash \(request \d+\)/);
  assert.ok(report.includes(`request: explain the filter cell ${plugin} × node ${nodes[0]}, cycle ${cycle}`), report);
  assert.match(report, new RegExp(`run ${run}, stop ${at} \\(cycle ${cycle}, Filter\\)`));
  await shot(page, "resilience-explain-failed-1440");

  // The new worker explains the next click normally.
  await page.click(`table.matrix tr[data-node="${nodes[1]}"] .cell-btn`);
  await page.waitForSelector(".explain li");
  assert.ok((await page.textContent(".explain h4")).includes(nodes[1]), "the explanation names the node clicked");
  assert.equal(await page.locator(".explain .explain-failed").count(), 0);
  await noEngineNotice(page);
  noOtherErrors(page);
});

test("a worker that dies (terminated, a trap without a hook, a panic between requests) is replaced: same scenario, same stop, edits kept", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  // An edit: web-1 asks for 64 cpu and cannot be placed; a note at the end (where the editor's
  // cursor, and so its view, stays: CodeMirror draws only the lines in view).
  const parts = await savedParts(page);
  const pods = parts.pods.replace(/(name: web-1\n[\s\S]*?cpu: )'?1'?\n/, "$1'64'\n") + "# my note survives the engine\n";
  assert.notEqual(pods, parts.pods);
  await page.click("#tab-pods");
  let run = await runId(page);
  await replaceEditorText(page, pods);
  await nextRun(page, run);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("'64'"));
  const edited = joinParts({ ...parts, pods });
  assert.equal(cli(edited).pods.find((p) => p.name === "web-1").node, null, "web-1 is unschedulable");
  // A stop with a score table.
  const { cycle } = cli(edited, "trace").events.find((e) => e.type === "score");
  await gotoPhase(page, cycle, "Score");
  const at = await playhead(page);

  for (const how of ["terminateWorker", "abortWorker", "crashWorker"]) {
    run = await runId(page);
    const started = await workers(page);
    await page.evaluate((h) => window.__schedlabTest[h](), how);
    await nextRun(page, run);
    assert.equal(await workers(page), started + 1, `${how}: one new worker`);
    assert.equal(await playhead(page), at, `${how}: the same stop`);
    assert.equal(await stage(page), "Score", how);
    await page.waitForFunction((c) => (document.querySelector(".cycle-title")?.textContent || "").includes(`cycle ${c} `), cycle);
    // The edit is still the scenario: in the editor, in storage, and in the run.
    assert.ok((await page.textContent(".editor-host .cm-content")).includes("# my note survives the engine"), `${how}: the editor keeps the edit`);
    assert.ok((await savedParts(page)).pods.includes("'64'"), `${how}: the saved scenario keeps the edit`);
    await noEngineNotice(page);
  }
  await shot(page, "resilience-restarted-1440");
  // The replacement runs the edited scenario: web-1 ends unschedulable.
  await page.keyboard.press("End");
  await page.waitForSelector('.q-section[aria-label="Unschedulable"] .chip[data-pod="web-1"]');
  noOtherErrors(page);
});
