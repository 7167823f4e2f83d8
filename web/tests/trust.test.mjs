// Browser tests of what makes the page trustworthy: one run on screen at a time, edits never
// lost (reload, two tabs, invalid text), links that carry the whole view (and old links that
// keep working), files in and out. Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, stage, gotoPhase, savedParts, replaceEditorText } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** A small scenario whose every name starts with `p` (nodes `p-node-*`, pods `p-pod-*`). */
function scenario(p, nodes, pods) {
  const docs = [];
  for (let i = 1; i <= nodes; i++) {
    docs.push(`apiVersion: v1
kind: Node
metadata:
  name: ${p}-node-${i}
  labels: {kubernetes.io/hostname: ${p}-node-${i}, topology.kubernetes.io/zone: ${p}-zone-${i % 2}}
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "110"}`);
  }
  for (let i = 1; i <= pods; i++) {
    const cpu = i % 5 === 0 ? "3" : "700m";
    docs.push(`apiVersion: v1
kind: Pod
metadata: {name: ${p}-pod-${i}}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: ${cpu}}}}]`);
  }
  return docs.join("\n---\n") + "\n";
}

/** Every pod and node name the page renders (cluster, queue, cycle tables, candidates). */
const RENDERED = `() => {
  const names = new Set();
  for (const el of document.querySelectorAll("[data-pod], [data-node], [data-candidate]")) {
    for (const a of ["data-pod", "data-node", "data-candidate"]) {
      const v = el.getAttribute(a);
      if (v) names.add(v);
    }
  }
  return [...names];
}`;

test("replacing the scenario while it plays never shows names from two runs", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  assert.equal(await page.getAttribute("button.play", "aria-pressed"), "true", "the tour plays");
  const tour = await savedParts(page);
  // Record, at every animation frame, the names on screen.
  await page.evaluate(`(() => {
    window.__seen = [];
    const rendered = ${RENDERED};
    const tick = () => { window.__seen.push(rendered()); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await page.click("#tab-nodes");
  await replaceEditorText(page, "");
  await page.click("#tab-other");
  await replaceEditorText(page, "");
  await page.click("#tab-pods");
  // Several replacements in a row, each while the previous one may still be running.
  const prefixes = ["ra", "rb", "rc", "rd"];
  for (const [i, p] of prefixes.entries()) {
    await replaceEditorText(page, scenario(p, 3 + i, 12));
    // Wait until the page took the edit (the debounce) before the next one, but not for it to run.
    await page.waitForFunction((p) => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes(`${p}-pod-1`), p);
  }
  const last = prefixes[prefixes.length - 1];
  await page.waitForFunction((p) => document.querySelector(`.node-card[data-node="${p}-node-1"]`), last, { timeout: 60000 });
  await ready(page);
  // Let it play a few stops, then stop sampling.
  await page.waitForFunction(() => Number(document.querySelector(".timeline input[type=range]").value) > 3);
  const seen = await page.evaluate(() => window.__seen);
  const tourNames = (n) => tour.nodes.includes(`name: ${n}`) || tour.pods.includes(`name: ${n}`) || tour.other.includes(`name: ${n}`);
  let mixed = 0;
  let example = null;
  for (const names of seen) {
    const runs = new Set(names.map((n) => (prefixes.find((p) => n.startsWith(p + "-")) || (tourNames(n) ? "tour" : `unknown:${n}`))));
    assert.ok(![...runs].some((r) => r.startsWith("unknown:")), `a name from no scenario: ${[...runs]}`);
    if (runs.size > 1) {
      mixed++;
      example = example || names;
    }
  }
  assert.ok(seen.length > 10, `sampled ${seen.length} frames`);
  assert.equal(mixed, 0, `frames showing names of two runs: ${mixed} of ${seen.length}, e.g. ${example}`);
  // It ends on the newest scenario, playing from its start.
  const final = await page.evaluate(`(${RENDERED})()`);
  assert.ok(final.every((n) => n.startsWith(last + "-")), `final names: ${final}`);
  await shot(page, "30-replaced-while-playing");
  noErrors(page);
});

test("a reload with an invalid edit shows the editor, the error and the last good run", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const nodes = await page.locator(".node-card").count();
  await page.click("#tab-pods");
  const parts = await savedParts(page);
  await replaceEditorText(page, parts.pods.replace("kind: Pod", "kind: Pod\nbogusField: 1"));
  await page.waitForSelector(".error-list");
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.pods.includes("bogusField"));
  await page.reload();
  await page.waitForSelector(".error-list", { timeout: 60000 });
  assert.match(await page.textContent(".error-list"), /bogusField/);
  // The last good run is on screen beside the error, not a blank app.
  await page.waitForFunction((n) => document.querySelectorAll(".node-card").length === n, nodes, { timeout: 60000 });
  await page.waitForSelector(".stage-label");
  await page.waitForFunction(() => /\d+ nodes/.test(document.querySelector(".status").textContent));
  assert.ok(await page.locator(".cm-lintRange-error").count(), "the marker is in the editor");
  await shot(page, "31-reload-invalid");
  noErrors(page);
});

test("two tabs never overwrite each other silently, and a reload right after typing keeps the edit", async () => {
  const a = await newPage(env);
  await a.goto(env.url);
  await ready(a);
  const b = await a.context().newPage();
  b.errors = [];
  b.on("console", (m) => m.type() === "error" && b.errors.push(m.text()));
  await b.goto(env.url);
  await ready(b);
  // A adds a node.
  await a.click("#tab-nodes");
  const nodesA = (await savedParts(a)).nodes;
  await replaceEditorText(a, nodesA + "---\napiVersion: v1\nkind: Node\nmetadata: {name: added-in-a}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n");
  await a.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.nodes.includes("added-in-a"));
  // B notices and asks; B's own edit is not written over A's.
  await b.waitForSelector(".notice.warn", { timeout: 30000 });
  assert.match(await b.textContent(".notices"), /Another tab changed/);
  await b.click("#tab-pods");
  const podsB = (await savedParts(b)).pods;
  await replaceEditorText(b, podsB + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: added-in-b}\nspec: {containers: [{name: c, image: x}]}\n");
  await b.waitForFunction(() => document.querySelector(".status")?.getAttribute("data-busy") === "false");
  let stored = await a.evaluate(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts);
  assert.ok(stored.nodes.includes("added-in-a") && !stored.pods.includes("added-in-b"), "B did not overwrite A");
  await shot(b, "32-two-tabs-conflict");
  // B keeps its own: A is asked in turn, loads B's, and its own joins the recent scenarios.
  await b.click(".notice button:has-text('Keep mine')");
  stored = await a.evaluate(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts);
  assert.ok(stored.pods.includes("added-in-b"));
  await a.waitForSelector(".notice.warn", { timeout: 30000 });
  await a.click(".notice button:has-text('Load theirs')");
  await a.waitForFunction(() => document.querySelector('.node-card[data-node="added-in-a"]') === null);
  const mine = await a.evaluate(() => JSON.parse(localStorage.getItem("schedlab.recent.v1"))[0].saved.parts.nodes);
  assert.ok(mine.includes("added-in-a"), "A's edit is kept among the recent scenarios");
  // A reload 50 ms after typing keeps the edit.
  await b.click("#tab-nodes");
  await b.click(".editor-host .cm-content");
  await b.keyboard.press("Control+End");
  await b.keyboard.insertText("\n# typed just before the reload\n");
  await b.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  await b.reload();
  await ready(b);
  const after = await savedParts(b);
  assert.ok(after.nodes.includes("# typed just before the reload"), "the edit survived the reload");
  noErrors(a);
  assert.deepEqual(b.errors, []);
});

test("a link carries the playhead, the tab and the view; the address bar always holds it", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await gotoPhase(page, 3, "Filter");
  await page.click("#tab-nodes");
  await page.click("button[role=tab]:has-text('Events')");
  await page.waitForFunction(() => /[#&]cycle=3&phase=Filter&tab=nodes&view=events/.test(location.hash) && location.hash.includes("&s="));
  const link = await page.evaluate(() => location.href);
  assert.ok(link.includes("#v=2&s="), link);
  const other = await newPage(env);
  await other.goto(link);
  await ready(other);
  await other.waitForFunction(() => (document.querySelector(".cycle-title")?.textContent || "").includes("cycle 3 "));
  assert.equal(await stage(other), "Filter");
  assert.equal(await other.getAttribute("button.play", "aria-pressed"), "false", "a linked playhead opens paused");
  assert.equal(await other.getAttribute("#tab-nodes", "aria-selected"), "true");
  assert.equal(await other.getAttribute("button[role=tab]:has-text('Events')", "aria-selected"), "true");
  // Share shows the link, its length, and no warning for a short one.
  await page.click('button[aria-label="Copy a share link"]');
  await page.waitForSelector(".share-popover");
  assert.match(await page.textContent(".share-len"), /^[\d,]+ characters$/);
  assert.equal(await page.locator(".share-warn").count(), 0);
  await shot(page, "33-share-popover");
  noErrors(page);
  noErrors(other);
});

test("a reload that loads the address from just before its last update keeps the newer autosave", async () => {
  // The address follows the scenario after a debounce. A reload under way when the address is
  // updated loads the address as it was just before (the trust test of a restored lesson hit
  // this on a slow machine): that address is still this tab's own, so the autosave wins.
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.waitForFunction(() => location.hash.includes("&s=") || location.hash.includes("#s="));
  const before = await page.evaluate(() => location.href);
  await page.click("#tab-nodes");
  const nodes = (await savedParts(page)).nodes;
  await replaceEditorText(page, nodes + "---\napiVersion: v1\nkind: Node\nmetadata: {name: added-after-the-link}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n");
  await page.waitForSelector('.node-card[data-node="added-after-the-link"]');
  const was = new URLSearchParams(new URL(before).hash.slice(1)).get("s");
  assert.ok(was, before);
  await page.waitForFunction((w) => {
    const s = new URLSearchParams(location.hash.slice(1)).get("s");
    return s && s !== w;
  }, was);
  assert.ok((await savedParts(page)).nodes.includes("added-after-the-link"));
  // The reload loads the address of before the edit.
  await page.evaluate((b) => history.replaceState(null, "", b), before);
  await page.reload();
  await ready(page);
  assert.equal(await page.locator('.node-card[data-node="added-after-the-link"]').count(), 1, "the run on screen is the autosave's");
  assert.ok((await savedParts(page)).nodes.includes("added-after-the-link"), "the autosave is kept");
  assert.equal(await page.locator(".toast:has-text('Opened the scenario from the link')").count(), 0);
  noErrors(page);
});

/** A link made by the first release (format 1: `#s=` and the scenario only), kept verbatim. */
const V1_LINK =
  "#s=bZBBSwNBDIX_SogXhWltRRFy8-RNPHlxPKQ7aTt0J7NOZsWy7H-XqQoivYWXl8f7MuHApRrShJqDGBLyEF-kWMxK8LH2eogaCJ5yEK9JKgeuTF4BlJMQ5D4s-qiHhZ4cAD1vpDeC6TBupKhUsWXM1_ts9czF7NUq19FOkR0P3MV6JJi6YSTweOPRQZKUy5Hg9jE6GHKwtlmvPM5e0WFTkPACHqDlQuIgsDlC3QtsY7EKRXphE7jc5pK4wvpq6fU86HMOfzhh-td5yKFVHqT7Lpy1clQpRvD64-0cxMQ7IdBd1E8HRSyPpZP2lCLvo1i1X8K71SrN8_x2Asl1LwUJ0WGXdRt3bZ4dmkhAunc4FDGpSDr2vcOdqBSubdeE-Qs";

test("a link of the first format still opens the same way", async () => {
  const page = await newPage(env);
  await page.goto(env.url + V1_LINK);
  await ready(page);
  await page.waitForSelector('.node-card[data-node="old-link-node"]');
  assert.equal(await page.inputValue('input[aria-label="Random seed for tie-breaks"]'), "7");
  await page.waitForFunction(() => document.querySelector('.node-card[data-node="old-link-node"] .chip[data-pod="old-link-pod"]'), null, { timeout: 30000 });
  noErrors(page);
});

test("a broken or tampered link says what could not be read and shows the visitor's own scenario", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  // The visitor's own scenario: an edit of the tour.
  await page.click("#tab-nodes");
  const nodes = (await savedParts(page)).nodes;
  await replaceEditorText(page, nodes + "---\napiVersion: v1\nkind: Node\nmetadata: {name: my-own-node}\nstatus: {capacity: {cpu: '1', pods: '10'}}\n");
  await page.waitForFunction(() => JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.nodes.includes("my-own-node"));
  const cut = V1_LINK.slice(0, 60); // truncated
  for (const [hash, why] of [
    [cut, /cut short or damaged/],
    ["#v=2&s=bm90LWRlZmxhdGU", /cut short or damaged/],
    ["#v=2&cycle=three", /not valid/],
    ["#v=99&s=x", /newer version/],
  ]) {
    await page.goto("about:blank");
    await page.goto(env.url + hash);
    await ready(page);
    await page.waitForSelector(".notice.error");
    assert.match(await page.textContent(".notice.error"), why, hash);
    assert.match(await page.textContent(".notice.error"), /your own saved scenario/);
    await page.waitForSelector('.node-card[data-node="my-own-node"]');
  }
  // It stays until dismissed (playback moving on does not take it away).
  const before = Number(await page.inputValue(".timeline input[type=range]"));
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((b) => Number(document.querySelector(".timeline input[type=range]").value) > b, before);
  assert.equal(await page.locator(".notice.error").count(), 1);
  await shot(page, "34-broken-link");
  await page.click('.notice.error button[aria-label="Dismiss"]');
  assert.equal(await page.locator(".notice.error").count(), 0);
  noErrors(page);
});

test("a file dropped on the editor can be added to the scenario, and the scenario saved as a file", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const file = "apiVersion: v1\nkind: Node\nmetadata:\n  name: dropped-node\n  labels: {kubernetes.io/hostname: dropped-node}\nstatus: {capacity: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: dropped-pod}\nspec:\n  containers: [{name: c, image: x}]\n";
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "more.yaml", { type: "application/yaml" }));
    const target = document.querySelector(".editor-host .cm-content");
    target.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: dt }));
    target.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, file);
  await page.waitForSelector(".file-choice");
  assert.match(await page.textContent(".file-choice"), /more\.yaml/);
  await shot(page, "35-file-dropped");
  const before = await savedParts(page);
  assert.ok(!before.pods.includes("dropped-pod"), "the drop did not paste into the editor");
  await page.click(".file-choice button:has-text('Add its objects')");
  await page.waitForSelector('.node-card[data-node="dropped-node"]', { timeout: 30000 });
  // The autosave runs in a task of its own shortly after the change: wait for it.
  await page.waitForFunction(() => (localStorage.getItem("schedlab.scenario.v1") || "").includes("dropped-pod"));
  const after = await savedParts(page);
  assert.ok(after.nodes.startsWith(before.nodes.trimEnd()), "the existing nodes stay first");
  assert.ok(after.nodes.includes("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: dropped-node"), `added as its own document: ${JSON.stringify(after.nodes.slice(-400))}`);
  assert.ok(after.pods.includes("dropped-pod"));
  assert.equal(await page.locator(".error-list").count(), 0, "the result is valid");
  // Save: a download of the joined scenario.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(".files button:has-text('Save')")]);
  assert.match(download.suggestedFilename(), /\.yaml$/);
  const text = await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString());
  assert.ok(text.includes("dropped-node") && text.includes("dropped-pod"));
  noErrors(page);
});

test("an editor that cannot be downloaded is said, the scenario still runs, and Try again brings it", async () => {
  const page = await newPage(env);
  await page.route("**/editor-*.js", (r) => r.abort("internetdisconnected"));
  await page.goto(env.url);
  await ready(page);
  const failed = page.locator(".editor-loading.failed");
  await failed.waitFor();
  assert.match(await failed.textContent(), /The editor could not be loaded \(editor\.js could not be downloaded\)/);
  // The edits that need the editor are off until it is there; nothing else is.
  assert.equal(await page.locator('button[aria-label="Undo"]').isDisabled(), true);
  assert.equal(await page.locator('button[aria-label="Add a Node"]').isDisabled(), true);
  assert.equal(await page.locator("button.play").isDisabled(), false);
  await shot(page, "36-editor-unavailable");
  await page.unroute("**/editor-*.js");
  await page.click(".editor-loading.failed button:has-text('Try again')");
  await page.waitForSelector(".editor-host .cm-editor");
  assert.equal(await failed.count(), 0);
  assert.match(await page.textContent(".editor-host .cm-content"), /apiVersion: v1/, "the editor holds the scenario");
  assert.equal(await page.locator('button[aria-label="Undo"]').isDisabled(), false);
  // The only console message is the failed download itself.
  assert.ok(page.errors.every((e) => /Failed to load resource|editor\.js/.test(e)), page.errors.join("\n"));
});

test("a preset whose text cannot be downloaded is said; the scenario on screen stays; it opens once it can be", async () => {
  // The presets' texts (all but the tour's) are files of the site, fetched when opened.
  const page = await newPage(env);
  await page.route("**/presets/*.yaml", (r) => r.abort("internetdisconnected"));
  await page.goto(`${env.url}?preset=spread`);
  await ready(page);
  await page.waitForSelector(".notice.error");
  const said = await page.textContent(".notice.error");
  assert.match(said, /The preset “Topology spread \+ anti-affinity over three zones” could not be downloaded/);
  assert.match(said, /the tour instead/);
  const tour = await page.locator(".node-card").count();
  assert.ok(tour > 0, "the tour runs");
  await page.selectOption('select[aria-label="Preset scenario"]', "preemption");
  await page.waitForFunction(() => [...document.querySelectorAll(".notice.error")].some((n) => n.textContent.includes("“Preemption: choosing victims by priority” could not be downloaded")));
  assert.equal(await page.inputValue('select[aria-label="Preset scenario"]'), "tour", "the menu shows what is on screen");
  assert.equal(await page.locator(".node-card").count(), tour, "the scenario on screen is unchanged");
  await shot(page, "37-preset-unavailable");
  await page.unroute("**/presets/*.yaml");
  await page.selectOption('select[aria-label="Preset scenario"]', "preemption");
  await page.waitForFunction(() => document.querySelectorAll(".node-card").length === 2);
  await ready(page);
  assert.ok((await savedParts(page)).pods.includes("urgent"));
  assert.ok(page.errors.every((e) => /Failed to load resource/.test(e)), page.errors.join("\n"));
});

test("a lesson whose text cannot be downloaded is said, the list stays; a restored lesson runs without it and says so", async () => {
  // The lessons' texts are files of the site, fetched when one is opened.
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await page.route("**/lessons/*.yaml", (r) => r.abort("internetdisconnected"));
  await page.click("button:has-text('Lessons')");
  await page.click(".lesson-row[data-lesson=taints] .lesson-open");
  await page.waitForSelector(".notice.error");
  assert.match(await page.textContent(".notice.error"), /The lesson “A node reserved with a taint” could not be downloaded/);
  assert.equal(await page.locator(".lesson-list[role=dialog]").count(), 1, "the list stays open");
  assert.equal(await page.locator(".lesson-panel").count(), 0);
  await page.unroute("**/lessons/*.yaml");
  await page.click(".lesson-row[data-lesson=taints] .lesson-open");
  await page.waitForSelector(".lesson-panel .lesson-goals[data-pass=false]");
  await page.waitForFunction(() => (localStorage.getItem("schedlab.scenario.v1") || "").includes('"lesson":"taints"'));
  // Reloaded (the autosave holds the lesson), its text cannot be downloaded: it runs without.
  await page.route("**/lessons/*.yaml", (r) => r.abort("internetdisconnected"));
  await page.reload();
  await ready(page);
  await page.waitForSelector(".lesson-panel .lesson-goals[data-pass=false]");
  await page.waitForFunction(() => [...document.querySelectorAll(".notice.error")].some((n) => /A node reserved with a taint.* could not be downloaded.*checked without it/.test(n.textContent)));
  assert.ok(page.errors.every((e) => /Failed to load resource/.test(e)), page.errors.join("\n"));
});

test("?preset= with a name that is no preset says so and names the presets", async () => {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=deployment-zones`);
  await ready(page);
  await page.waitForSelector(".notice.error");
  const said = await page.textContent(".notice.error");
  assert.match(said, /There is no preset named “deployment-zones”/);
  assert.match(said, /\bdeployment\b/, "the presets are listed");
  assert.match(said, /the tour instead/);
  noErrors(page);
});
