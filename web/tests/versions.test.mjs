// Browser tests of the Kubernetes version in the page (issue 22): the top bar's version
// selector runs the scenario with another kube-scheduler, the page names the version of the
// run, a share link and an embed carry it, and the --feature-gates setting re-runs (an unknown
// gate is an error of the run). The oracle is `schedlab run --kubernetes-version X`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, pause, runId, nextRun, ROOT } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

/** Only node-1 fits and node-2 has an untolerated taint: b-none stays pending, and its
 *  FailedScheduling message names the taint in v1.34 but not in v1.35 (kubernetes#134740). */
const TEXT = readFileSync(join(ROOT, "tests/conformance/v1.35/scenarios/queue-priority-order.yaml"), "utf8");

/** `schedlab run --kubernetes-version V --output json` on TEXT. */
function oracle(version) {
  const cliPath = process.env.SCHEDLAB_CLI || join(ROOT, "target", "debug", "schedlab");
  const f = join(mkdtempSync(join(tmpdir(), "schedlab-web-")), "scenario.yaml");
  writeFileSync(f, TEXT);
  return JSON.parse(execFileSync(cliPath, ["run", f, "--output", "json", "--kubernetes-version", version]).toString());
}

/** The FailedScheduling messages the engine gave, in order. */
const failures = (run) => run.events.filter((e) => e.reason === "FailedScheduling").map((e) => e.message);

/** The FailedScheduling messages of the Events tab at the end of the run. */
async function pageFailures(page, want) {
  await page.click('button[role="tab"]:has-text("Events")');
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelectorAll(".events-table tbody tr").length === n, want.events.length);
  return page.$$eval(".events-table tbody tr", (trs) =>
    trs.filter((tr) => tr.children[3].textContent === "FailedScheduling").map((tr) => tr.children[5].textContent),
  );
}

const SELECT = 'select[aria-label="Kubernetes version"]';

test("the version selector re-runs the scenario with another kube-scheduler; a share link and an embed keep it", async () => {
  const [v134, v135] = [oracle("1.34"), oracle("1.35")];
  assert.equal(v134.kubernetesVersion, "1.34");
  assert.notDeepEqual(failures(v134), failures(v135), "the two versions word the failure differently");
  assert.ok(failures(v134).some((m) => m.includes("untolerated taint {dedicated: storage}")), failures(v134).join("\n"));
  assert.ok(failures(v135).some((m) => m.includes("untolerated taint(s)")), failures(v135).join("\n"));

  // A scenario saved before versions were a setting opens at v1.34.
  const page = await newPage(env);
  await page.addInitScript((saved) => {
    if (!localStorage.getItem("schedlab.scenario.v1")) localStorage.setItem("schedlab.scenario.v1", saved);
  }, JSON.stringify({ parts: { nodes: TEXT, pods: "", other: "", config: "", timeline: "" }, seed: 1, controllers: true }));
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  assert.equal(await page.inputValue(SELECT), "1.34");
  assert.deepEqual(
    await page.$$eval(`${SELECT} option`, (os) => os.map((o) => o.value)),
    ["1.34", "1.35"],
    "the selector offers the supported versions",
  );
  assert.match(await page.textContent(".status"), /^\s*v1\.34 · 2 nodes · 3 pods/);
  assert.deepEqual(await pageFailures(page, v134), failures(v134));

  // Switch to v1.35: a new run, named v1.35, with v1.35's messages.
  const before = await runId(page);
  await page.selectOption(SELECT, "1.35");
  await nextRun(page, before);
  await pause(page);
  assert.match(await page.textContent(".status"), /^\s*v1\.35 · /);
  assert.deepEqual(await pageFailures(page, v135), failures(v135));
  await shot(page, "versions-1440");

  // The feature gates: kube-scheduler's flag, kept with the scenario; an unknown gate is an
  // error of the run, named as kube-scheduler names it.
  await page.click(".gates > summary");
  const gates = page.locator('input[aria-label="kube-scheduler --feature-gates"]');
  await gates.waitFor({ state: "visible" });
  assert.match(await page.textContent(".gates-popover"), /not part of the KubeSchedulerConfiguration/);
  await shot(page, "versions-gates-1440");
  await gates.fill("NoSuchGate=true");
  await gates.press("Enter");
  await page.waitForSelector('.error-list:has-text("unrecognized feature gate: NoSuchGate")');
  const beforeGate = await runId(page);
  await gates.fill("SchedulerAsyncAPICalls=true");
  await gates.press("Enter");
  await nextRun(page, beforeGate);
  assert.match(await page.textContent(".gates > summary"), /Gates \(1\)$/);
  await page.click(".gates > summary");

  // Share, and open the link elsewhere: the same version and gates, the same messages.
  await page.click('button:has-text("Share")');
  const url = await page.inputValue(".share-url");
  const other = await newPage(env);
  await other.goto(url);
  await ready(other);
  await pause(other);
  assert.equal(await other.inputValue(SELECT), "1.35", "the link carries the version");
  assert.equal(await other.inputValue('input[aria-label="kube-scheduler --feature-gates"]'), "SchedulerAsyncAPICalls=true");
  assert.match(await other.textContent(".status"), /^\s*v1\.35 · /);
  assert.deepEqual(await pageFailures(other, v135), failures(v135));

  // An embed of the link names the version beside the run.
  const embed = await newPage(env, { viewport: { width: 800, height: 500 } });
  await embed.goto(url.replace("#", "?embed#"));
  await embed.waitForFunction(() => /v1\.35 · 2 nodes · 3 pods/.test(document.querySelector(".embed-bar .status")?.textContent || ""));
  await shot(embed, "versions-embed-800");
  noErrors(page);
  noErrors(other);
  noErrors(embed);
});

test("the top bar keeps the version selector and the gates at 1280x800", async () => {
  const page = await newPage(env, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.url}?preset=tour`);
  await ready(page);
  await pause(page);
  // Presets open at the version they are written for.
  assert.equal(await page.inputValue(SELECT), "1.34");
  for (const sel of [SELECT, ".gates > summary", 'button:has-text("Share")', 'button[aria-label="Keyboard shortcuts"]']) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 1280, `${sel} is inside the top bar at 1280: ${JSON.stringify(box)}`);
  }
  assert.ok(await page.$eval(".topbar", (t) => t.scrollWidth <= t.clientWidth), "the top bar fits the window");
  await shot(page, "versions-1280");
  noErrors(page);
});

test("the compare view shows v1.34 against v1.35, each difference with the change that explains it, as schedlab compare --against-version does", async () => {
  const cliPath = process.env.SCHEDLAB_CLI || join(ROOT, "target", "debug", "schedlab");
  const f = join(mkdtempSync(join(tmpdir(), "schedlab-web-")), "scenario.yaml");
  writeFileSync(f, TEXT);
  const want = JSON.parse(
    execFileSync(cliPath, ["compare", f, "--kubernetes-version", "1.34", "--against-version", "1.35", "--output", "json"]).toString(),
  );
  const why = (fd) => (fd.explainedBy.length ? fd.explainedBy.join(", ") : "unexplained (no single change reproduces it)");
  const rows = want.pods.flatMap((p) => p.fields.map((fd) => `${p.pod} ${fd.field} ${why(fd)}`));
  assert.ok(rows.some((r) => r.endsWith("message TaintFilterReason")), rows.join("\n"));

  const page = await newPage(env);
  await page.addInitScript((saved) => {
    if (!localStorage.getItem("schedlab.scenario.v1")) localStorage.setItem("schedlab.scenario.v1", saved);
  }, JSON.stringify({ parts: { nodes: TEXT, pods: "", other: "", config: "", timeline: "" }, seed: 1, controllers: true }));
  // The comparison in the address opens the view at once.
  await page.goto(`${env.url}?compare=version-1.35`);
  await ready(page);
  await page.waitForSelector(".compare-versions .version-pods tbody tr");
  assert.equal(await page.inputValue('select[name="compare-version"]'), "1.35");
  const shown = await page.$$eval(".version-pods tbody tr", (trs) =>
    trs.map((tr) => `${tr.dataset.pod} ${tr.dataset.field} ${tr.querySelector(".why").textContent}`),
  );
  assert.deepEqual(shown, rows);
  assert.match(await page.textContent(".version-changes"), /TaintFilterReason \(kubernetes#134740\)/);
  assert.match(await page.textContent(".compare-figures thead"), /v1\.34/);
  await shot(page, "versions-compare-1440");
  noErrors(page);
});
