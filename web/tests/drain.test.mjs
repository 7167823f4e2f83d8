// Browser test of Drain as kubectl drain decides it: before anything happens the node's menu
// shows each pod's fate — evicted and replaced by its controller, evicted for good (its owner is
// not in the scenario), refused (no controller: kubectl drain stops at the cordon unless
// forced), ignored (a DaemonSet's pod) — and the steps written are the ones shown. Every wait
// is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, runId, nextRun, savedParts, replaceEditorText } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** A pod started by hand (no controller) and one whose ReplicaSet is not in the scenario. */
const EXTRA = `---
apiVersion: v1
kind: Pod
metadata: {name: scratch}
spec:
  nodeName: node-a
  containers: [{name: c, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata:
  name: legacy-7c9f-x1
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: legacy-7c9f, controller: true}]
spec:
  nodeName: node-a
  containers: [{name: c, image: busybox}]
`;

/** The pods listed under the confirmation's group `fate`. */
const group = (page, fate) =>
  page.$$eval(`.drain-confirm .drain-group[data-fate="${fate}"] li code`, (els) => els.map((e) => e.textContent.trim()));

async function openDrain(page) {
  await page.click('button[aria-label="To the end"]');
  await page.click('.node-card[data-node="node-a"] .node-menu');
  await page.click('.action-menu [data-action="drain"]');
  await page.waitForSelector(".drain-confirm");
}

test("drain shows what it will evict, refuse, ignore and not bring back, with Force for bare pods", async () => {
  const page = await newPage(env);
  await page.goto(`${env.url}?preset=drain`);
  await ready(page);
  await pause(page);
  // The preset's own drain steps go; two pods join node-a.
  let before = await runId(page);
  await page.click("#tab-timeline");
  await replaceEditorText(page, "");
  await nextRun(page, before);
  before = await runId(page);
  await page.click("#tab-pods");
  const pods = (await savedParts(page)).pods;
  await replaceEditorText(page, pods.trimEnd() + "\n" + EXTRA);
  await nextRun(page, before);
  await pause(page);

  await openDrain(page);
  assert.deepEqual((await group(page, "replaced")).sort(), ["web-6d4cf56db6-a1", "web-6d4cf56db6-a2"]);
  assert.deepEqual(await group(page, "refused"), ["scratch"]);
  assert.deepEqual(await group(page, "gone"), ["legacy-7c9f-x1"]);
  const ignored = await group(page, "ignored");
  assert.equal(ignored.length, 1, ignored.join());
  assert.match(ignored[0], /^log-agent-/);
  assert.match(await page.textContent('.drain-group[data-fate="gone"]'), /its owner ReplicaSet legacy-7c9f is not in the scenario/);
  assert.equal((await page.textContent('[data-action="drain-confirm"]')).trim(), "Cordon only");
  await shot(page, "drain-confirm-refused-1440");

  // Without Force, drain is the cordon alone (kubectl drain stops there): no pod is deleted.
  before = await runId(page);
  await page.click('[data-action="drain-confirm"]');
  await nextRun(page, before);
  let tl = (await savedParts(page)).timeline;
  assert.match(tl, /  patch:\n    kind: Node\n    name: node-a\n  merge:\n    spec:\n      unschedulable: true\n/);
  assert.doesNotMatch(tl, /delete:/, tl);

  // With Force, the bare pod is deleted for good too; the DaemonSet's pod stays.
  await pause(page);
  await openDrain(page);
  await page.check('[data-action="drain-force"]');
  await page.waitForFunction(() => !document.querySelector('.drain-group[data-fate="refused"]'));
  assert.deepEqual((await group(page, "gone")).sort(), ["legacy-7c9f-x1", "scratch"]);
  assert.equal((await page.textContent('[data-action="drain-confirm"]')).trim(), "Drain");
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, "drain-confirm-force-1280");
  before = await runId(page);
  await page.click('[data-action="drain-confirm"]');
  await nextRun(page, before);
  tl = (await savedParts(page)).timeline;
  for (const p of ["web-6d4cf56db6-a1", "web-6d4cf56db6-a2", "scratch", "legacy-7c9f-x1"]) {
    assert.match(tl, new RegExp(`  delete:\\n    kind: Pod\\n    name: ${p}\\n`), tl);
  }
  assert.doesNotMatch(tl, /name: log-agent/, tl);
  // At the end only the DaemonSet's pod is left on node-a.
  await pause(page);
  await page.click('button[aria-label="To the end"]');
  await page.waitForFunction(() => {
    const chips = [...document.querySelectorAll('.node-card[data-node="node-a"] [data-pod]')].map((c) => c.dataset.pod);
    return chips.length === 1 && chips[0].startsWith("log-agent-");
  });
  noErrors(page);
});
