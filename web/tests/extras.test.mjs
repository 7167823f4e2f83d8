// Browser tests of the playground's events log, embedding, keeping the user's own scenario when
// a preset replaces it, and its look at the narrowest supported width (1280 px) in both themes.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  start, stop, newPage, noErrors, shot, ready, pause, gotoPhase, savedParts, joinParts, cli, replaceEditorText,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

test("the Events tab lists the engine's events up to the playhead", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const oracle = cli(joinParts(await savedParts(page)));
  assert.ok(oracle.events.length >= 3, "the tour has several events");
  await page.click('button[role="tab"]:has-text("Events")');
  // At the end of the run: every event, in order, with the engine's reasons and messages.
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelectorAll(".events-table tbody tr").length === n, oracle.events.length);
  const rows = await page.$$eval(".events-table tbody tr", (trs) =>
    trs.map((tr) => ({
      cycle: Number(tr.children[1].textContent),
      type: tr.children[2].textContent,
      reason: tr.children[3].textContent,
      pod: tr.children[4].childNodes[0].textContent,
      message: tr.children[5].textContent,
    })),
  );
  const want = oracle.events.map((e) => ({
    cycle: e.cycle,
    type: e.reason === "FailedScheduling" ? "Warning" : "Normal",
    reason: e.reason,
    pod: `pod/${e.object.split("/")[1]}`,
    message: e.message,
  }));
  assert.deepEqual(rows, want);
  assert.match(await page.textContent('button[role="tab"]:has-text("Events") .count'), new RegExp(`^${want.length}$`));
  await shot(page, "14-events-end");

  // Mid-run only the events so far are listed; clicking one goes to its cycle.
  const preempted = oracle.events.find((e) => e.reason === "Preempted");
  const later = oracle.events.find((e) => e.cycle > preempted.cycle);
  await gotoPhase(page, preempted.cycle + 1, "PreFilter");
  await page.click('button[role="tab"]:has-text("Events")');
  const upTo = oracle.events.filter((e) => e.cycle <= preempted.cycle).length;
  await page.waitForFunction((n) => document.querySelectorAll(".events-table tbody tr").length === n, upTo);
  await page.click(`.events-table tbody tr:has-text("${preempted.reason}")`);
  await page.waitForFunction(
    (c) => (document.querySelector(".cycle-title")?.textContent || "").includes(`cycle ${c} `),
    preempted.cycle,
  );
  assert.ok(later, "an event after the preemption");
  noErrors(page);
});

test("an embedded playground has no editor, never autosaves and opens the full one", async () => {
  const page = await newPage(env, { viewport: { width: 900, height: 640 } });
  // The visitor's own work, which an embedded demo must not touch.
  await page.addInitScript(() => {
    if (!localStorage.getItem("schedlab.scenario.v1")) {
      localStorage.setItem("schedlab.scenario.v1", JSON.stringify({ parts: { nodes: "# mine\n", pods: "", other: "", config: "" }, seed: 7 }));
    }
  });
  await page.goto(`${env.url}?embed&preset=preemption`);
  await ready(page);
  assert.equal(await page.locator(".editor-panel").count(), 0, "no editor");
  assert.equal(await page.locator(".node-card").count(), 2, "the preset asked for in the URL");
  assert.equal(await page.getAttribute("button.play", "aria-pressed"), "true", "animating on open");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")));
  assert.equal(stored.parts.nodes, "# mine\n", "the visitor's autosave is untouched");
  // Its options in the address open it at a cycle and phase, paused.
  await page.goto(`${env.url}?embed&preset=preemption&autoplay=0&cycle=1&phase=PostFilter`);
  await ready(page);
  await page.waitForFunction(() => document.querySelector(".stage-label").textContent === "PostFilter");
  assert.equal(await page.getAttribute("button.play", "aria-pressed"), "false");
  await shot(page, "15-embedded");
  // "Open in schedlab" opens the same scenario, editor included, in a new tab.
  const [popup] = await Promise.all([
    page.context().waitForEvent("page"),
    page.click('a[aria-label="Open this scenario in the full playground"]'),
  ]);
  await popup.waitForLoadState();
  assert.ok(!popup.url().includes("embed"), "the full playground");
  await ready(popup);
  assert.equal(await popup.locator(".editor-panel").count(), 1);
  assert.equal(await popup.locator(".node-card").count(), 2);
  noErrors(page);
});

test("the Embed dialog copies an iframe that shows the scenario", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await page.selectOption('select[aria-label="Preset scenario"]', "preemption");
  await page.waitForFunction(() => document.querySelectorAll(".node-card").length === 2);
  await page.click('button[aria-label="Embed"]');
  await page.waitForFunction(() => document.querySelector("#embed-snippet")?.value.replace(/&amp;/g, "&").includes("#v=2&s="));
  await page.click('button[aria-label="Copy the embed code"]');
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).startsWith("<iframe"));
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const src = code.match(/src="([^"]+)"/)[1].replace(/&amp;/g, "&");
  assert.match(src, /\?embed[^#]*#v=2&s=/);
  const other = await newPage(env);
  await other.goto(src);
  await ready(other);
  assert.equal(await other.locator(".editor-panel").count(), 0);
  assert.equal(await other.locator(".node-card").count(), 2);
  // A reload of the embedded page keeps its scenario (the link stays in the address).
  await other.reload();
  await ready(other);
  assert.equal(await other.locator(".node-card").count(), 2);
  noErrors(page);
  noErrors(other);
});

test("choosing a preset keeps the user's edited scenario, which comes back from the list", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const parts = await savedParts(page);
  const pods = parts.pods.replace("name: web-1\n", "name: web-one\n");
  assert.notEqual(pods, parts.pods);
  await page.click("#tab-pods");
  await replaceEditorText(page, pods);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("web-one"));
  await page.selectOption('select[aria-label="Preset scenario"]', "scoring");
  await page.waitForFunction(() => !JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("web-one"));
  // Even after a reload, the edited scenario is offered back.
  await page.reload();
  await ready(page);
  await page.selectOption('select[aria-label="Preset scenario"]', "recent:0");
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("web-one"));
  await ready(page);
  await page.waitForSelector('.chip[data-pod="web-one"]');
  noErrors(page);
});

test("at 1280 px, both themes: cycle, score table, events, profiles", async () => {
  for (const scheme of ["light", "dark"]) {
    const page = await newPage(env, { viewport: { width: 1280, height: 800 }, colorScheme: scheme });
    await page.goto(env.url);
    await ready(page);
    const theme = await page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    assert.equal(theme, scheme, "the theme follows the system preference");
    // Nothing is wider than the window.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scroll (${overflow}px)`);
    // Every editor tab is fully visible.
    const tabsFit = await page.$$eval(".editor-panel .tab", (tabs) => {
      const box = tabs[0].parentElement.getBoundingClientRect();
      return tabs.every((t) => t.getBoundingClientRect().right <= box.right + 0.5);
    });
    assert.ok(tabsFit, "the editor's tabs fit");
    await gotoPhase(page, 1, "PostFilter");
    // Every extension point of the pipeline is in view (none scrolled or cut off).
    const cut = await page.$$eval(".pipeline .pp", (pps) => {
      const box = pps[0].closest(".lower-panel").getBoundingClientRect();
      return pps.filter((p) => p.getBoundingClientRect().right > box.right).map((p) => p.textContent);
    });
    assert.deepEqual(cut, [], "the whole pipeline is visible");
    const lines = await page.$$eval(".pipeline .pp", (pps) => new Set(pps.map((p) => Math.round(p.getBoundingClientRect().top))).size);
    assert.equal(lines, 1, "the pipeline is one line");
    await shot(page, `16-1280-${scheme}-preemption`);
    await gotoPhase(page, 2, "NormalizeScore");
    await shot(page, `17-1280-${scheme}-score`);
    await page.click('button[role="tab"]:has-text("Events")');
    await page.keyboard.press("End");
    await page.waitForSelector(".events-table tbody tr");
    await shot(page, `18-1280-${scheme}-events`);
    await page.click('button[role="tab"]:has-text("Profiles")');
    await shot(page, `19-1280-${scheme}-profiles`);
    noErrors(page);
  }
});

test("a PodTopologySpread rejection is explained with the counts per zone and the skew", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const trace = cli(joinParts(await savedParts(page)), "trace");
  const nodes = trace.header.nodes;
  // The first cycle in which PodTopologySpread rejects a node.
  const filter = trace.events.find(
    (e) => e.type === "filter" && e.verdicts.some((v) => v.failed && v.failed.plugin === "PodTopologySpread"),
  );
  assert.ok(filter, "the tour has a spread rejection");
  const v = filter.verdicts.find((v) => v.failed && v.failed.plugin === "PodTopologySpread");
  await gotoPhase(page, filter.cycle, "Filter");
  await page.click(`table.matrix tr[data-node="${nodes[v.node]}"] [data-cell="fail"]`);
  await page.waitForSelector(".explain li");
  const text = await page.textContent(".explain");
  assert.ok(text.includes(v.failed.reasons[0]), text);
  assert.match(text, /Matching pods per zone: zone-a \d+/);
  assert.match(text, /skew \d+ − \d+ = \d+ > maxSkew 1/);
  assert.doesNotMatch(text, /did not reproduce/);
  await shot(page, "20-spread-explained");
  noErrors(page);
});

test("?preset= opens a preset once; a reload then keeps the user's edits", async () => {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=scoring`);
  await ready(page);
  assert.equal(await page.inputValue('select[aria-label="Preset scenario"]'), "scoring");
  assert.ok(!(await page.evaluate(() => location.search)).includes("preset"), "the query is dropped");
  await pause(page);
  const parts = await savedParts(page);
  await page.click("#tab-nodes");
  await replaceEditorText(page, parts.nodes + "\n# my note\n");
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.nodes.includes("# my note"));
  await page.reload();
  await ready(page);
  assert.ok((await savedParts(page)).nodes.includes("# my note"), "the edit survives the reload");
  noErrors(page);
});
