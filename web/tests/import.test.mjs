// Browser test of "Import from a cluster": a kind dump pasted into the dialog is read in the
// worker (the summary lists skipped kinds, the cluster's state and what was changed), nothing
// is sent anywhere, "Replace the scenario" runs it, and the pending pod's FailedScheduling
// reason is the CLI's. A file dropped on the dialog is read the same way.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, pause, savedParts, joinParts, cli, ROOT } from "./helpers.mjs";

const TESTDATA = join(ROOT, "crates", "core", "src", "import", "testdata");
const dump = (name) => readFileSync(join(TESTDATA, name), "utf8");

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Every request the page makes that does not go to the page's own server. */
function watchRequests(page, origin) {
  const away = [];
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) away.push(u);
  });
  return away;
}

test("a pasted kind dump is imported, and the pending pod shows the scheduler's reason", async () => {
  const page = await newPage(env);
  const away = watchRequests(page, env.url);
  await page.goto(env.url);
  await ready(page);
  await pause(page);

  await page.click('button[aria-label="Import from a cluster"]');
  await page.waitForSelector('.import-dialog[role="dialog"]');
  assert.match(await page.textContent(".import-private"), /Everything stays in this browser/);
  await page.fill(".import-text", dump("kind-list.yaml"));
  await page.click('.import-actions button:has-text("Read it")');
  await page.waitForSelector(".import-report");

  assert.equal((await page.textContent(".import-imported")).trim(), "imported 1 ReplicaSet, 2 Nodes, 3 Pods");
  assert.equal(
    (await page.textContent(".import-skipped")).trim(),
    "skipped 2 Events, 3 ConfigMaps, 1 Secret — Secret data is never read",
  );
  const warnings = await page.$$eval(".import-warnings li", (lis) => lis.map((li) => li.textContent));
  assert.ok(warnings.some((w) => w.includes("Pod default/web: Running on kind-control-plane but ImagePullBackOff")), warnings.join("\n"));
  assert.ok(
    warnings.some((w) => w.includes("node kind-worker is NotReady") && w.includes("node.kubernetes.io/not-ready:NoSchedule")),
    warnings.join("\n"),
  );
  assert.ok(warnings.some((w) => w.includes("Pod default/trainer: Pending (Unschedulable)")), warnings.join("\n"));
  assert.equal(await page.locator(".import-errors").count(), 0, "no errors");
  await page.click(".import-notes summary");
  await page.waitForSelector(".import-notes[open] li");
  await shot(page, "import-dialog");

  await page.click('.import-actions button:has-text("Replace the scenario")');
  await page.waitForFunction(() => {
    const s = JSON.parse(localStorage.getItem("schedlab.scenario.v1") || "{}");
    return s.parts && s.parts.pods.includes("name: trainer") && !s.preset;
  });
  await page.waitForSelector(".import-dialog", { state: "detached" });
  await ready(page);
  await pause(page);

  // The engine's reason for the pending pod, as the CLI gives it for the same text.
  const oracle = cli(joinParts(await savedParts(page)));
  const trainer = oracle.pods.find((p) => p.name === "trainer");
  assert.equal(trainer.node, null);
  // The taint import gave the NotReady node is one of the reasons.
  assert.match(trainer.message, /untolerated taint \{node.kubernetes.io\/not-ready: \}/);
  await page.keyboard.press("End");
  const item = page.locator('.q-section[aria-label="Unschedulable"] .q-item', {
    has: page.locator('.chip[data-pod="trainer"]'),
  });
  await item.waitFor();
  assert.equal((await item.locator(".q-note").textContent()).trim(), trainer.message, "the message verbatim");
  // The NotReady node carries the taint import added.
  assert.ok(joinParts(await savedParts(page)).includes("key: node.kubernetes.io/not-ready"));
  await shot(page, "import-result");

  assert.deepEqual(away, [], "nothing was sent anywhere");
  noErrors(page);
});

test("a dump dropped on the dialog is read, and bad objects are listed without losing the rest", async () => {
  const page = await newPage(env);
  const away = watchRequests(page, env.url);
  await page.goto(env.url);
  await ready(page);
  await page.click('button[aria-label="Import from a cluster"]');
  await page.waitForSelector(".import-dialog");
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "aks-old.yaml", { type: "application/yaml" }));
    const target = document.querySelector(".import-dialog");
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, dump("aks-old.yaml"));
  await page.waitForSelector(".import-report");
  assert.equal(
    (await page.textContent(".import-imported")).trim(),
    "imported 2 Deployments, 1 DaemonSet, 2 PodDisruptionBudgets, 1 Pod",
  );
  assert.match(await page.inputValue(".import-text"), /policy\/v1beta1/);
  const errors = await page.$$eval(".import-errors li", (lis) => lis.map((li) => li.textContent));
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.ok(errors.some((e) => e.includes("payments-7c8d9f-abcde") && e.includes('quantity "lots"')), errors.join("\n"));
  assert.ok(errors.some((e) => e.includes("kind not set")), errors.join("\n"));
  await shot(page, "import-errors");
  // Escape closes the dialog and leaves the scenario alone.
  await page.locator(".import-text").press("Escape");
  await page.waitForSelector(".import-dialog", { state: "detached" });
  assert.deepEqual(away, [], "nothing was sent anywhere");
  noErrors(page);
});

test("objects saved without a kind (an insights-operator archive) are imported by their shape, and the dialog says so", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.click('button[aria-label="Import from a cluster"]');
  await page.waitForSelector(".import-dialog");
  // Two files of the archive, as a user pastes them one after the other: a Node and a Pod, neither
  // with kind or apiVersion.
  const node = dump("insights/config/node/worker-a.json");
  const pod = dump("insights/config/pod/shop/checkout-6f7d9c8b5-x2kqp.json");
  await page.fill(".import-text", node + "\n" + pod);
  await page.click('.import-actions button:has-text("Read it")');
  await page.waitForSelector(".import-report");
  assert.equal((await page.textContent(".import-imported")).trim(), "imported 1 Node, 1 Pod");
  assert.equal(await page.locator(".import-errors").count(), 0, "no errors");
  await page.click(".import-notes summary");
  const notes = await page.$$eval(".import-notes li", (lis) => lis.map((li) => li.textContent));
  assert.ok(notes.some((n) => /^inferred kind Node for 1 object without a kind \(from status\.nodeInfo/.test(n)), notes.join("\n"));
  assert.ok(notes.some((n) => /^inferred kind Pod for 1 object without a kind \(from spec\.containers/.test(n)), notes.join("\n"));
  // A shape nothing recognises is still refused, at its place.
  await page.fill(".import-text", '{"metadata": {"name": "mystery"}, "data": {"color": "blue"}}');
  await page.click('.import-actions button:has-text("Read it")');
  await page.waitForFunction(() => /kind not set/.test(document.querySelector(".import-errors")?.textContent || ""));
  noErrors(page);
});
