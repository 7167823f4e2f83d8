// Browser test of the answers panel and the compare view (docs/answers.md, docs/web.md): a
// pending pod's "why pending?" and its verified suggestions as `schedlab why --output json`
// gives them (the oracle), one applied (the pod then runs) and undone; a bound pod's "why
// here?"; the compare view with MostAllocated against the default, whose differing pods are
// `schedlab compare --output json`'s. Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, pause, runId, nextRun, savedParts, joinParts, PAGE_VERSION, MOST_ALLOCATED } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const NODES = `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {topology.kubernetes.io/zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "20"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {topology.kubernetes.io/zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "20"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-gpu, labels: {topology.kubernetes.io/zone: a}}
spec:
  taints: [{key: gpu, value: "true", effect: NoSchedule}]
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "20"}}
`;

const pod = (name, cpu) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "${cpu}", memory: 1Gi}}}]
`;
const PODS = ["web-1", "web-2", "web-3"].map((n) => pod(n, "1")).join("---\n") + "---\n# too big for node-a and node-b\n" + pod("train", "6");

const CLI = process.env.SCHEDLAB_CLI;

/** Runs a `schedlab` subcommand on the scenario (and more files), parsing its JSON. */
function oracle(sub, text, args, files = {}) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-answers-"));
  const f = join(dir, "scenario.yaml");
  writeFileSync(f, text);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  const out = execFileSync(CLI, [sub, f, ...args.map((a) => a.replace("@", dir + "/")), "--output", "json", "--kubernetes-version", PAGE_VERSION]);
  return JSON.parse(out.toString());
}

/** A fresh page with the scenario as the autosave (so it opens with it). */
async function open(viewport) {
  const saved = JSON.stringify({
    parts: { nodes: NODES, pods: PODS, other: "", config: "", timeline: "" },
    seed: 1,
    controllers: true,
    kubernetesVersion: PAGE_VERSION,
  });
  const page = await newPage(env, { viewport, init: `if (!sessionStorage.getItem("seeded")) { sessionStorage.setItem("seeded", "1"); localStorage.setItem("schedlab.scenario.v1", ${JSON.stringify(saved)}); }` });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.click('button[aria-label="To the end"]');
  return page;
}

async function ask(page, podName) {
  await page.click(`.chip[data-pod="${podName}"]`);
  await page.click('.action-menu [data-action="ask-why"]');
  await page.waitForSelector(".answers .answer-sentences");
}

test("why pending: the engine's sentences and verified suggestions; Apply schedules the pod and undo restores", async () => {
  const page = await open({ width: 1440, height: 900 });
  const text = joinParts(await savedParts(page));
  const want = oracle("why", text, ["default/train"]);
  assert.ok(want.pending, "the oracle says train is pending");
  assert.ok(want.pending.suggestions.length > 0);

  await ask(page, "train");
  assert.equal((await page.textContent(".answers h4")).trim(), "Why is default/train pending?");
  const sentences = await page.$$eval(".answers .answer-sentences p", (ps) => ps.map((p) => p.textContent));
  assert.deepEqual(sentences, want.sentences);
  const shown = await page.$$eval(".answers .suggestion .suggestion-text", (s) => s.map((e) => e.textContent));
  assert.deepEqual(shown, want.pending.suggestions.map((s) => s.sentence));
  const lands = await page.$$eval(".answers .suggestion", (s) => s.map((e) => e.dataset.landsOn));
  assert.deepEqual(lands, want.pending.suggestions.map((s) => s.landsOn));
  await shot(page, "answers-pending-1440");

  // A cell link selects the cycle and explains the cell.
  await page.click(".answers .suggestion .cell-link");
  await page.waitForSelector(".explain h4");

  // Apply the first suggestion that edits only the pod (a Pods-tab edit): the pod runs.
  const i = want.pending.suggestions.findIndex((s) => s.edits.every((e) => e.type === "patch" && e.kind === "Pod"));
  assert.ok(i >= 0, "a pod-side suggestion");
  const landsOn = want.pending.suggestions[i].landsOn;
  const podsBefore = (await savedParts(page)).pods;
  let before = await runId(page);
  await page.click(`.answers .suggestion[data-index="${i}"] [data-action="apply-suggestion"]`);
  await nextRun(page, before);
  const podsAfter = (await savedParts(page)).pods;
  assert.notEqual(podsAfter, podsBefore);
  assert.ok(podsAfter.startsWith(podsBefore.slice(0, podsBefore.indexOf("# too big"))), "the documents not edited are kept as written");
  await page.waitForFunction(() => /on node/.test(document.querySelector(".answers h4")?.textContent || ""));
  assert.equal((await page.textContent(".answers h4")).trim(), `Why is default/train on ${landsOn}?`);
  const here = oracle("why", joinParts(await savedParts(page)), ["default/train"]);
  assert.equal(here.node, landsOn);
  await page.waitForSelector(".answers .answer-sentences");
  assert.deepEqual(await page.$$eval(".answers .answer-sentences p", (ps) => ps.map((p) => p.textContent)), here.sentences);
  await shot(page, "answers-applied-1440");

  // Compared with the scenario before the edit, train is the pod that lands differently.
  const beforeText = joinParts({ nodes: NODES, pods: podsBefore, other: "", config: "", timeline: "" });
  const edited = oracle("compare", joinParts(await savedParts(page)), ["@before.yaml"], { "before.yaml": beforeText });
  assert.deepEqual(edited.differing, ["default/train"]);
  await page.click('[data-action="open-compare"]');
  await page.waitForSelector(".compare-headline");
  await page.check('input[name="compare-by"] >> nth=1');
  await page.click('[data-action="compare"]');
  await page.waitForFunction(() => /other scenario/.test(document.querySelector(".compare-figures thead")?.textContent || ""));
  assert.deepEqual(await page.$$eval(".compare-pods tr.differs", (rows) => rows.map((r) => r.dataset.pod)), edited.differing);
  await page.click('.modal.compare button[aria-label="Close"]');

  // Undo in the editor restores the pod as it was.
  before = await runId(page);
  await page.click(".editor-host .cm-content");
  await page.keyboard.press("Control+Z");
  await nextRun(page, before);
  assert.equal((await savedParts(page)).pods, podsBefore);
  await page.waitForFunction(() => /pending/.test(document.querySelector(".answers h4")?.textContent || ""));
  noErrors(page);
});

test("compare: MostAllocated against the default, the differing pods as schedlab compare lists them", async () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }]) {
    const page = await open(viewport);
    const text = joinParts(await savedParts(page));
    const want = oracle("compare", text, ["--config", "@most.yaml"], { "most.yaml": MOST_ALLOCATED });
    assert.ok(want.differing.length > 0, "MostAllocated packs the pods differently");

    await page.click('[data-action="open-compare"]');
    await page.waitForSelector(".compare-headline");
    const differing = await page.$$eval(".compare-pods tr.differs", (rows) => rows.map((r) => r.dataset.pod));
    assert.deepEqual(differing, want.differing);
    assert.equal(Number(await page.getAttribute(".compare-headline", "data-differing")), want.differing.length);
    assert.match(await page.textContent(".config-diff"), /MostAllocated/);
    // The comparison is in the address: a copy of it opens the same view. The address keeper
    // writes the scenario into the hash debounced: read the address once it holds it.
    await page.waitForFunction(() => location.hash.length > 1 && /[?&]compare=/.test(location.search));
    const link = page.url();
    assert.match(link, /[?&]compare=config-/);
    await shot(page, `compare-${viewport.width}`);

    // Closing the view takes the comparison out of the address; the answers panel at this size.
    await page.click('.modal.compare button[aria-label="Close"]');
    await page.waitForFunction(() => !/compare=/.test(location.search));
    await ask(page, "train");
    await shot(page, `answers-pending-${viewport.width}`);
    // The panel is docked beside the cluster: it covers no node card, and the cards are whole.
    const panel = await page.locator(".answers").boundingBox();
    const cards = await page.$$eval(".node-card", (cs) => cs.map((c) => c.getBoundingClientRect().toJSON()));
    assert.equal(cards.length, 3);
    for (const c of cards) {
      const apart = c.right <= panel.x || c.left >= panel.x + panel.width || c.bottom <= panel.y || c.top >= panel.y + panel.height;
      assert.ok(apart, `a node card at ${JSON.stringify(c)} under the answers at ${JSON.stringify(panel)}`);
    }
    const other = await newPage(env, { viewport });
    await other.goto(link);
    await ready(other);
    await other.waitForSelector(".compare-headline");
    assert.deepEqual(await other.$$eval(".compare-pods tr.differs", (rows) => rows.map((r) => r.dataset.pod)), want.differing);
    noErrors(page);
    noErrors(other);
  }
});
