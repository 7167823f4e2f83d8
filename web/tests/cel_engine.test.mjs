// Browser tests of the two engines (docs/hosting.md): the page starts the light worker, built
// without the CEL interpreter, and fetches the full one only for a scenario that holds CEL — a
// DRA device selector (the GPU preset) or the schedlab.dev/CEL plugin — which then runs there
// with the results `schedlab run` gives, after a short "loading the full engine…" and no error.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, ready, pause, runId, nextRun, frameShown, savedParts, joinParts, cli, replaceEditorText, shot, PAGE_VERSION } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const LIGHT = /\/schedlab-worker-[0-9a-f]{16}_bg\.wasm$/;
const FULL = /\/schedlab-worker-full-[0-9a-f]{16}_bg\.wasm$/;

/** Every status line the top bar showed, recorded in the page as it changes. */
const RECORD_STATUS = `
  window.__statuses = [];
  new MutationObserver(() => {
    const s = document.querySelector(".topbar .status");
    const t = s && s.textContent.trim();
    if (t && window.__statuses[window.__statuses.length - 1] !== t) window.__statuses.push(t);
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

/** A fresh page recording what it fetches (page and workers) and its status lines; `saved`
 * parts open as the autosave. */
async function open(saved, viewport) {
  const seed = saved
    ? `if (!sessionStorage.getItem("seeded")) { sessionStorage.setItem("seeded", "1"); localStorage.setItem("schedlab.scenario.v1", ${JSON.stringify(
        JSON.stringify({ parts: saved, seed: 1, controllers: true, kubernetesVersion: PAGE_VERSION }),
      )}); }`
    : "";
  const page = await newPage(env, { init: RECORD_STATUS + seed, viewport });
  page.fetched = [];
  page.context().on("request", (r) => page.fetched.push(new URL(r.url()).pathname));
  return page;
}

const engine = (page) => page.evaluate(() => window.__schedlabTest.engine());
const workers = (page) => page.evaluate(() => window.__schedlabTest.workers());
const fetched = (page, re) => page.fetched.filter((p) => re.test(p)).length;

/** Each bound pod's node at the run's end, as the cluster panel shows it. */
async function placements(page) {
  await page.keyboard.press("End");
  await frameShown(page);
  const chips = await page.evaluate(() =>
    [...document.querySelectorAll(".cluster-panel .node-card[data-node] .chip[data-pod]")].map((c) => [
      c.dataset.pod,
      c.closest(".node-card").dataset.node,
    ]),
  );
  return Object.fromEntries(chips.sort());
}

/** The same, as `schedlab run` computes it natively for the scenario the page saved. */
async function oracle(page) {
  const run = cli(joinParts(await savedParts(page)));
  return Object.fromEntries(run.pods.filter((p) => p.node).map((p) => [p.name, p.node]).sort());
}

/** No issue listed, no engine notice, no console error. */
async function clean(page) {
  assert.equal(await page.locator(".error-list").count(), 0, "no load errors listed");
  const notes = await page.locator(".notice").allTextContents();
  assert.deepEqual(notes.filter((n) => /engine/i.test(n)), [], "no engine notice");
  noErrors(page);
}

test("a scenario without CEL runs in the light engine: the full one is never fetched", async () => {
  const page = await open();
  await page.goto(env.url);
  await ready(page);
  assert.equal(await engine(page), "light");
  assert.equal(await workers(page), 1);
  assert.equal(fetched(page, LIGHT), 1, `the light worker's wasm is fetched: ${page.fetched.join(" ")}`);
  assert.equal(fetched(page, FULL), 0, "the full worker's wasm is not");
  assert.equal(fetched(page, /schedlab-worker-full/), 0, "nor anything of the full worker");
  await clean(page);
});

test("the GPU preset (DRA selectors in CEL) switches to the full engine, with the CLI's placements", async () => {
  const page = await open();
  await page.goto(`${env.url}?preset=gpu`);
  await ready(page);
  await pause(page);
  assert.equal(await engine(page), "full");
  assert.equal(await workers(page), 2, "the light worker, then the full one");
  assert.equal(fetched(page, FULL), 1, "the full worker's wasm is fetched");
  const statuses = await page.evaluate(() => window.__statuses);
  assert.ok(statuses.includes("loading the full engine…"), statuses.join(" | "));
  const want = await oracle(page);
  assert.ok(Object.keys(want).some((p) => p.startsWith("train-")), JSON.stringify(want));
  assert.deepEqual(await placements(page), want);
  await clean(page);
});

const NODES = ["gold", "silver", "plain"]
  .map(
    (n) => `apiVersion: v1
kind: Node
metadata: {name: ${n}${n === "plain" ? "" : `, labels: {tier: ${n}}`}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "20"}}
`,
  )
  .join("---\n");
const PODS = ["a", "b", "c", "d"]
  .map(
    (n) => `apiVersion: v1
kind: Pod
metadata: {name: ${n}}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "3", memory: 1Gi}}}]
`,
  )
  .join("---\n");
const CEL_CONFIG = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - {name: schedlab.dev/CEL, weight: 5}
  pluginConfig:
  - name: schedlab.dev/CEL
    args:
      filter: '"tier" in node.metadata.labels'
      score: 'node.metadata.labels.tier == "gold" ? 100 : 0'
`;

test("the CEL plugin, written into the configuration mid-session, runs in the full engine as the CLI runs it", async () => {
  const page = await open({ nodes: NODES, pods: PODS, other: "", config: "", timeline: "" });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  assert.equal(await engine(page), "light");
  const plain = await placements(page);
  assert.deepEqual(plain, await oracle(page));
  assert.ok(Object.values(plain).includes("plain"), "without the plugin a pod lands on the unlabelled node");

  const before = await runId(page);
  await page.click("#tab-config");
  await replaceEditorText(page, CEL_CONFIG);
  await nextRun(page, before);
  assert.equal(await engine(page), "full");
  assert.equal(await workers(page), 2);
  // Run numbers go on from the light worker's: the page never sees one number twice.
  assert.ok((await runId(page)) > before);
  const want = await oracle(page);
  assert.ok(!Object.values(want).includes("plain"), JSON.stringify(want));
  assert.deepEqual(await placements(page), want);
  // Later edits stay with the full engine.
  const again = await runId(page);
  await replaceEditorText(page, CEL_CONFIG.replace("weight: 5", "weight: 1"));
  await nextRun(page, again);
  assert.equal(await workers(page), 2, "no third worker");
  assert.deepEqual(await placements(page), await oracle(page));
  await clean(page);
});

test("a crash of the full engine starts the full engine again", async () => {
  const page = await open();
  await page.goto(`${env.url}?preset=gpu`);
  await ready(page);
  await pause(page);
  const before = await runId(page);
  await page.evaluate(() => window.__schedlabTest.crashWorker());
  await nextRun(page, before);
  assert.equal(await engine(page), "full");
  assert.equal(await workers(page), 3);
  assert.equal(fetched(page, LIGHT), 1, "the light worker was not started again");
  assert.deepEqual(await placements(page), await oracle(page));
});

for (const [w, h, embed] of [[1440, 900, false], [1280, 800, false], [800, 500, true]]) {
  test(`while the full engine downloads, the status says so (${embed ? "an embed" : "the playground"}, ${w}x${h})`, async () => {
    const page = await open(undefined, { width: w, height: h });
    // The full worker's wasm is held back until the screenshot is taken.
    let release;
    const held = new Promise((ok) => (release = ok));
    await page.context().route(FULL, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${env.url}?${embed ? "embed&" : ""}preset=gpu`);
    const status = embed ? ".embed-bar .status" : ".topbar .status";
    await page.waitForFunction((s) => document.querySelector(s)?.textContent.includes("loading the full engine…"), status);
    assert.equal(await page.getAttribute(status, "data-busy"), "true");
    await shot(page, `cel-engine-loading-${embed ? "embed-" : ""}${w}`);
    release();
    await page.waitForFunction((s) => /\d+ nodes?\b/.test(document.querySelector(s)?.textContent || ""), status);
    assert.equal(await engine(page), "full");
    assert.equal(await page.locator(".error-list").count(), 0);
    noErrors(page);
  });
}
