// Browser tests of the playground (headless Chromium through playwright-core; node --test).
// The engine's CLI is the oracle: the numbers the page shows must be the engine's.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  start, stop, newPage, noErrors, shot, ready, pause, stage, playhead, gotoPhase, savedParts, joinParts, cli, replaceEditorText,
  runId, nextRun, waitAttr, waitStage, frameShown,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** The cycle (1-based) in which `podKey` got the event `reason`, from the CLI's json. */
function eventCycle(run, podKey, reason) {
  const e = run.events.find((e) => e.object === podKey && e.reason === reason);
  assert.ok(e, `${reason} event for ${podKey}`);
  return e.cycle;
}

test("the default scenario loads and animates", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  assert.equal(await page.locator(".node-card").count(), 5);
  assert.equal(await page.locator(".zone").count(), 3, "nodes grouped by zone");
  assert.equal(await page.getAttribute("button.play", "aria-pressed"), "true", "playing on open");
  const p0 = await playhead(page);
  await page.waitForFunction((p) => Number(document.querySelector(".timeline input[type=range]").value) >= p + 2, p0);
  await shot(page, "01-default-animating");
  // It reaches the preemption and the bind of api by itself (however slowly the machine plays).
  await page.waitForSelector('.node-card .chip[data-pod="api"]', { timeout: 600000 });
  await shot(page, "02-default-later");
  noErrors(page);
});

test("a pod edited so it no longer fits shows the FailedScheduling message", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const parts = await savedParts(page);
  // web-1 asks for 64 cpu: no node has that.
  const pods = parts.pods.replace(/(name: web-1\n[\s\S]*?cpu: )'?1'?\n/, "$1'64'\n");
  assert.notEqual(pods, parts.pods);
  await page.click("#tab-pods");
  const run = await runId(page);
  await replaceEditorText(page, pods);
  await nextRun(page, run);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("'64'"));
  const oracle = cli(joinParts({ ...parts, pods }));
  const web1 = oracle.pods.find((p) => p.name === "web-1");
  assert.equal(web1.node, null);
  assert.match(web1.message, /Insufficient cpu/);
  const cycle = eventCycle(oracle, "default/web-1", "FailedScheduling");
  await gotoPhase(page, cycle, "FailedScheduling");
  const msg = (await page.textContent('[data-testid="failed-message"]')).trim();
  assert.equal(msg, web1.message, "the message verbatim");
  await shot(page, "03-failed-scheduling");
  // The pod waits in the unschedulable pool with that reason at the end of the run.
  await page.keyboard.press("End");
  await page.waitForSelector('.q-section[aria-label="Unschedulable"] .chip[data-pod="web-1"]');
  noErrors(page);

  // Reload: the edit survives.
  await page.reload();
  await ready(page);
  const again = await savedParts(page);
  assert.ok(again.pods.includes("'64'"), "the edit is still there after a reload");
  await page.click("#tab-pods");
  await page.keyboard.press("End");
  await page.waitForSelector('.q-section[aria-label="Unschedulable"] .chip[data-pod="web-1"]');
  await shot(page, "04-after-reload");
  noErrors(page);
});

test("the filter matrix and score table show the engine's numbers", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const parts = await savedParts(page);
  const trace = cli(joinParts(parts), "trace");
  const nodes = trace.header.nodes;
  const start = trace.events.find((e) => e.type === "cycleStart" && trace.header.pods[e.pod] === "default/web-1");
  const cycle = start.cycle;
  const filter = trace.events.find((e) => e.type === "filter" && e.cycle === cycle);
  const score = trace.events.find((e) => e.type === "score" && e.cycle === cycle);

  await gotoPhase(page, cycle, "Filter");
  await shot(page, "05-filter-matrix"); // (after the rows' reveal animation)
  for (const v of filter.verdicts) {
    const row = page.locator(`table.matrix tr[data-node="${nodes[v.node]}"]`);
    if (v.failed) {
      const failed = row.locator('td.cell [data-cell="fail"]');
      assert.equal(await failed.count(), 1, `one rejecting plugin on ${nodes[v.node]}`);
      assert.equal(await failed.getAttribute("data-plugin"), v.failed.plugin);
      assert.ok((await row.locator("td.verdict").textContent()).includes(v.failed.reasons[0]));
    } else {
      assert.equal(await row.locator('[data-cell="fail"]').count(), 0);
      assert.ok((await row.locator("td.verdict").textContent()).includes("feasible"));
    }
  }
  // Explain a rejected cell: a sentence with the plugin and the reason.
  const rejected = filter.verdicts.find((v) => v.failed);
  await page.click(`table.matrix tr[data-node="${nodes[rejected.node]}"] [data-cell="fail"]`);
  await page.waitForSelector(".explain li");
  const text = await page.textContent(".explain");
  assert.ok(text.includes(rejected.failed.plugin) && text.includes(rejected.failed.reasons[0]), text);
  await shot(page, "06-filter-explained");
  await page.keyboard.press("Escape");

  await gotoPhase(page, cycle, "NormalizeScore");
  const t = score.table;
  for (let k = 0; k < t.nodes.length; k++) {
    const row = page.locator(`table.scores tr[data-node="${nodes[t.nodes[k]]}"]`);
    assert.equal(await row.getAttribute("data-total"), String(t.totals[k]), `total of ${nodes[t.nodes[k]]}`);
    for (const p of t.plugins) {
      const cell = row.locator(`[data-plugin="${p.plugin}"]`);
      assert.equal(await cell.getAttribute("data-raw"), String(p.raw[k]));
      assert.equal(await cell.getAttribute("data-normalized"), String(p.normalized[k]));
      assert.equal(await cell.getAttribute("data-weighted"), String(p.normalized[k] * p.weight));
    }
  }
  const winner = await page.locator("table.scores tr.winner").getAttribute("data-node");
  assert.equal(winner, nodes[score.selected]);
  // Explain the winner's NodeResourcesFit score: the formula reproduces the raw score.
  await page.click(`table.scores tr[data-node="${winner}"] [data-plugin="NodeResourcesFit"]`);
  await page.waitForSelector(".explain li");
  const fit = t.plugins.find((p) => p.plugin === "NodeResourcesFit");
  const exp = await page.textContent(".explain");
  assert.ok(exp.includes(`raw score of ${fit.raw[t.nodes.indexOf(score.selected)]}`), exp);
  assert.match(exp, /LeastAllocated/);
  await shot(page, "07-score-table");
  noErrors(page);
});

test("a preemption shows its victims leaving", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const oracle = cli(joinParts(await savedParts(page)));
  assert.deepEqual(oracle.evicted, ["default/batch-3"]);
  const cycle = eventCycle(oracle, "default/api", "FailedScheduling");
  await gotoPhase(page, cycle, "PostFilter");
  await page.waitForSelector('.candidates tr.chosen .chip[data-pod="batch-3"]');
  await page.waitForSelector('.node-card[data-node="node-b1"] .chip.victim[data-pod="batch-3"]');
  await shot(page, "08-preemption-victims");
  await gotoPhase(page, cycle, "Evict");
  await page.waitForSelector('.node-card[data-node="node-b1"] .chip.leaving[data-pod="batch-3"]');
  await page.waitForSelector('.node-card[data-node="node-b1"] .chip.nominated[data-pod="api"]');
  await shot(page, "09-preemption-evicted");
  // Next cycle: the victim is gone from the node.
  await page.keyboard.press("Shift+ArrowRight");
  await page.waitForFunction(() => !document.querySelector('.node-card[data-node="node-b1"] .chip[data-pod="batch-3"]'));
  noErrors(page);
});

test("an invalid edit shows the error at its line and keeps the last good run", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const status = await page.textContent(".status");
  const parts = await savedParts(page);
  await page.click("#tab-nodes");
  const lines = parts.nodes.split("\n");
  const i = lines.findIndex((l) => l.includes("cpu: '4'"));
  lines[i] = lines[i].replace("cpu: '4'", "cpu: 'four'");
  await replaceEditorText(page, lines.join("\n"));
  await page.waitForSelector(".error-list");
  const where = await page.textContent(".error-list .where");
  assert.match(where, new RegExp(`^Nodes line ${i + 1}, column \\d+$`));
  assert.match(await page.textContent(".error-list .msg"), /four/);
  await page.waitForSelector(".cm-lintRange-error");
  const marked = await page.textContent(".cm-lintRange-error");
  assert.ok(marked.startsWith("cpu") && marked.includes("four"), `the marker underlines the bad field: ${marked}`);
  assert.equal(await page.locator(".node-card").count(), 5, "the cluster view stays");
  assert.equal(await page.textContent(".status"), status, "the last good run stays");
  assert.ok(await page.locator("#tab-nodes.has-errors").count());
  // The error in the list takes the cursor to its line.
  await page.click(".error-list .error-item");
  await page.waitForFunction((l) => {
    const g = [...document.querySelectorAll(".cm-activeLineGutter")].map((e) => e.textContent.trim());
    return g.includes(String(l));
  }, i + 1);
  await shot(page, "10-invalid-edit");
  // Mended, the marker goes (the editor clears only the markers it set: editor.js `marked`).
  await replaceEditorText(page, parts.nodes);
  await page.waitForFunction(() => !document.querySelector(".error-list") && !document.querySelector(".cm-lintRange-error"));
  noErrors(page);
});

test("a share link carries the scenario", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await page.selectOption('select[aria-label="Preset scenario"]', "preemption");
  await page.waitForFunction(() => document.querySelectorAll(".node-card").length === 2);
  await ready(page);
  await page.click('button[aria-label="Copy a share link"]');
  await page.waitForSelector(".share-url");
  const link = await page.inputValue(".share-url");
  assert.ok(link.includes("#v=2&s="), link);
  const other = await newPage(env);
  await other.goto(link);
  await ready(other);
  assert.equal(await other.locator(".node-card").count(), 2);
  const parts = await savedParts(other);
  assert.ok(parts.pods.includes("urgent"));
  noErrors(page);
  noErrors(other);
});

test("keyboard: space, arrows, Home/End, speeds", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector(".timeline input[type=range]").value === "0");
  await frameShown(page);
  assert.equal(await stage(page), "Ready");
  await page.keyboard.press("ArrowRight");
  await waitStage(page, "QueueSort");
  await page.keyboard.press("Shift+ArrowRight");
  await page.waitForFunction(() => (document.querySelector(".cycle-title")?.textContent || "").includes("cycle 2 "));
  await page.keyboard.press("4");
  await waitAttr(page, '.speeds [title="Speed 16× (key 4)"]', "aria-checked", "true");
  await page.keyboard.press("End");
  await waitStage(page, "Quiet");
  await page.keyboard.press("Space");
  // Space at the end plays from the start.
  await waitAttr(page, "button.play", "aria-pressed", "true");
  // With the play button focused, space still toggles once (not the button's click as well).
  await page.click("button.play");
  await waitAttr(page, "button.play", "aria-pressed", "false");
  await page.keyboard.press("Space");
  await waitAttr(page, "button.play", "aria-pressed", "true");
  await page.keyboard.press("Space");
  await waitAttr(page, "button.play", "aria-pressed", "false");
  noErrors(page);
});

test("profiles: effective configuration next to the written one", async () => {
  const page = await newPage(env, { colorScheme: "dark" });
  await page.goto(env.url);
  await ready(page);
  await page.selectOption('select[aria-label="Preset scenario"]', "profiles");
  await ready(page);
  await pause(page);
  await page.click('text="Profiles"');
  await page.waitForSelector(".profile-card");
  assert.equal(await page.locator(".profile-card").count(), 2);
  const eff = await page.textContent('pre[aria-label="Effective configuration"]');
  assert.match(eff, /binpack-scheduler/);
  assert.match(eff, /percentageOfNodesToScore/);
  await shot(page, "11-profiles-dark");
  noErrors(page);
});

test("reduced motion: no animations", async () => {
  const page = await newPage(env, { reducedMotion: "reduce" });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await gotoPhase(page, 2, "Bind");
  const anim = await page.evaluate(() => {
    const chip = document.querySelector(".cluster-panel .chip.new");
    return chip ? [getComputedStyle(chip).animationName, chip.getAnimations().length] : null;
  });
  assert.deepEqual(anim, ["none", 0], "the placed pod does not move");
  noErrors(page);
});

test("an edit re-runs and keeps the playhead at the same cycle and phase", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await gotoPhase(page, 3, "Filter");
  const parts = await savedParts(page);
  // huge asks for 7 cpu instead of 6: a later pod, the first cycles do not change.
  const pods = parts.pods.replace(/(name: huge\n[\s\S]*?cpu: )'?6'?\n/, "$1'7'\n");
  assert.notEqual(pods, parts.pods);
  await page.click("#tab-pods");
  const run = await runId(page);
  await replaceEditorText(page, pods);
  await nextRun(page, run);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("'7'"));
  await page.waitForFunction(() => (document.querySelector(".cycle-title")?.textContent || "").includes("cycle 3 "));
  assert.equal(await stage(page), "Filter");
  assert.equal(await page.getAttribute("button.play", "aria-pressed"), "false", "still paused");
  noErrors(page);
});
