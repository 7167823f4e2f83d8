// Browser test of acting on the cluster while it plays: each action from the cluster view is a
// timeline step at the playhead's logical time (the Timeline tab), the run is recomputed and
// plays on, the scrubber marks each step, a change stop tells the queue's story, and a share
// link carries it all. Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, frameShown, runId, nextRun, savedParts } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Two 2-cpu nodes, five 1.5-cpu pods (three cannot fit) and one gated pod. */
const NODES = ["a", "b"]
  .map(
    (n) => `apiVersion: v1
kind: Node
metadata:
  name: tl-node-${n}
  labels: {kubernetes.io/hostname: tl-node-${n}, topology.kubernetes.io/zone: zone-${n}}
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "110"}
`,
  )
  .join("---\n");
const PODS =
  [1, 2, 3, 4, 5]
    .map(
      (i) => `apiVersion: v1
kind: Pod
metadata: {name: tl-web-${i}, labels: {app: web}}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 1500m}}}]
`,
    )
    .join("---\n") +
  `---
apiVersion: v1
kind: Pod
metadata: {name: tl-train}
spec:
  schedulingGates: [{name: example.com/quota}]
  containers: [{name: c, image: pytorch, resources: {requests: {cpu: 100m}}}]
`;

function seed(parts) {
  return `(() => {
    if (!localStorage.getItem("schedlab.scenario.v1")) {
      localStorage.setItem("schedlab.scenario.v1", JSON.stringify({ parts: ${JSON.stringify(parts)}, seed: 1 }));
    }
  })()`;
}

const playing = (page) => page.getAttribute("button.play", "aria-pressed");

/** Opens the actions menu of `selector` (a node's ⋯ or a pod chip) and clicks `action`. */
async function act(page, selector, action) {
  const before = await runId(page);
  await page.click(selector);
  await page.waitForSelector(".action-menu");
  await page.click(`.action-menu [data-action="${action}"]`);
  await nextRun(page, before);
}

/** The `s` parameter of the address bar's link. */
const linkPayload = (page) => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get("s"));

test("actions while playing become timeline steps, markers, the queue's story, and a link", async () => {
  const page = await newPage(env, { init: seed({ nodes: NODES, pods: PODS, other: "", config: "" }) });
  await page.goto(env.url);
  await ready(page);
  assert.equal(await playing(page), "true", "the scenario plays");
  await page.keyboard.press("1"); // the slowest speed: the actions land while it plays

  // The node's menu (screenshot of it open).
  await page.click('.node-card[data-node="tl-node-a"] .node-menu');
  await page.waitForSelector('.action-menu [data-action="cordon"]');
  await shot(page, "timeline-node-menu-1440");
  await page.keyboard.press("Escape");
  await page.waitForSelector(".action-menu", { state: "detached" });

  // 1. Cordon tl-node-a while playing: the run is recomputed and keeps playing.
  const stopBefore = Number(await page.inputValue(".timeline input[type=range]"));
  await act(page, '.node-card[data-node="tl-node-a"] .node-menu', "cordon");
  assert.equal(await playing(page), "true", "playback goes on after an action");
  assert.ok(Number(await page.inputValue(".timeline input[type=range]")) >= stopBefore, "the playhead stays where the action was taken");
  // 2. Add a node like tl-node-b.
  await act(page, '.node-card[data-node="tl-node-b"] .node-menu', "copy");
  // 3. Lift the gate of tl-train from its chip in the queue (gated until the step).
  const payloadBefore = await linkPayload(page);
  await act(page, '.queue-panel .chip[data-pod="tl-train"]', "lift-gates");
  assert.equal(await playing(page), "true");

  // The Timeline tab holds the three steps, with their times, in plain block YAML (as saved:
  // the autosave follows the edit).
  await page.waitForFunction(() => (JSON.parse(localStorage.getItem("schedlab.scenario.v1")).parts.timeline.match(/^- at: /gm) || []).length === 3);
  const parts = await savedParts(page);
  const steps = parts.timeline.match(/^- at: \S+$/gm) || [];
  assert.equal(steps.length, 3, parts.timeline);
  assert.match(parts.timeline, /^kind: Timeline$/m);
  assert.match(parts.timeline, /- at: \S+\n  patch:\n    kind: Node\n    name: tl-node-a\n  merge:\n    spec:\n      unschedulable: true\n/);
  assert.match(parts.timeline, /- at: \S+\n  create:\n    apiVersion: v1\n    kind: Node\n    metadata:\n      name: tl-node-b-copy\n/);
  assert.match(parts.timeline, /- at: \S+\n  patch:\n    kind: Pod\n    name: tl-train\n  merge:\n    spec:\n      schedulingGates: null\n/);
  await page.click("#tab-timeline");
  await page.waitForFunction(() => document.querySelector(".editor-host .cm-content")?.textContent.includes("tl-node-b-copy"));
  assert.equal((await page.textContent("#tab-timeline .count")).trim(), "3", "the tab counts its steps");

  // Three step markers on the scrubber, titled with the step.
  await page.waitForFunction(() => document.querySelectorAll(".tl-step").length === 3);
  const titles = await page.$$eval(".tl-step", (els) => els.map((e) => e.title));
  assert.match(titles[0], /^patch Node\/tl-node-a at \S+s$/);
  assert.match(titles[1], /^create Node\/tl-node-b-copy at /);
  assert.match(titles[2], /^patch Pod\/tl-train at /);
  await page.keyboard.press("Escape");
  await shot(page, "timeline-tab-1440");

  // The node added: its stop tells which pods the NodeAdd event moved, and where.
  await page.click('.tl-step[data-step="1"]');
  await frameShown(page);
  await page.waitForSelector(".change-story .change");
  const story = await page.textContent(".change-story");
  assert.match(story, /was added/);
  assert.match(story, /backoffQ|activeQ/);
  assert.match(await page.textContent(".clock"), /t = \d+\.\d{3} s/);
  await shot(page, "timeline-change-stop-1440");
  // The gate lifted: the pod leaves the gated list.
  await page.click('.tl-step[data-step="2"]');
  await frameShown(page);
  await page.waitForFunction(() => /tl-train/.test(document.querySelector(".change-story")?.textContent || ""));

  // The address bar's link carries the timeline: a new visitor gets the same steps and markers.
  await page.waitForFunction((b) => {
    const s = new URLSearchParams(location.hash.slice(1)).get("s");
    return s && s !== b;
  }, payloadBefore);
  const link = page.url();
  assert.match(link, /#v=2&s=/);
  noErrors(page);

  const other = await newPage(env, { viewport: { width: 1280, height: 800 } });
  await other.goto(link);
  await ready(other);
  const theirs = await savedParts(other);
  assert.equal(theirs.timeline, parts.timeline);
  await other.waitForFunction(() => document.querySelectorAll(".tl-step").length === 3);
  assert.deepEqual(await other.$$eval(".tl-step", (els) => els.map((e) => e.title)), titles);
  await other.click("#tab-timeline");
  await other.waitForFunction(() => document.querySelector(".editor-host .cm-content")?.textContent.includes("tl-node-b-copy"));
  await shot(other, "timeline-tab-1280");
  await other.click('.tl-step[data-step="1"]');
  await frameShown(other);
  await other.waitForSelector(".change-story .change");
  await shot(other, "timeline-change-stop-1280");
  await other.click('.node-card[data-node="tl-node-b"] .node-menu');
  await other.waitForSelector('.action-menu [data-action="drain"]');
  await shot(other, "timeline-node-menu-1280");
  noErrors(other);
});
