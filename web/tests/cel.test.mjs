// Browser test of the CEL plugin (docs/cel-plugin.md) in the cycle view: a profile enables
// schedlab.dev/CEL at Filter and Score; the profile card lists it at both points with its note
// (a schedlab extension), the filter matrix shows its rejection on the nodes the trace says it
// rejected, the score table has its column with the trace's raw and normalized scores (the CLI,
// the native engine, is the oracle), its explanations quote the expressions, a pod it keeps
// pending gets `schedlab why`'s suggestions (turning its Filter off applied and undone), and an
// expression that does not compile is an error at its line. Every wait is for a condition.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop, newPage, noErrors, shot, ready, pause, gotoPhase, cli, savedParts, joinParts, replaceEditorText, runId, nextRun, PAGE_VERSION } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const FILTER = `!("tier" in pod.metadata.labels && pod.metadata.labels.tier == "critical") || node.metadata.labels.lifecycle == "on-demand"`;
const SCORE = `"cost" in node.metadata.labels && node.metadata.labels.cost == "low" ? 150 : -10`;
const CONFIG = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - {name: schedlab.dev/CEL, weight: 2}
  pluginConfig:
  - name: schedlab.dev/CEL
    args:
      filter: '${FILTER}'
      score: '${SCORE}'
`;
const node = (name, labels, cpu, more = "") => `apiVersion: v1
kind: Node
metadata: {name: ${name}, labels: {${labels}}}
status: {capacity: {cpu: "${cpu}", memory: 64Gi, pods: "110"${more}}}
`;
// spot-big alone has GPUs: the only node with a GPU bar (no "0/0" bars elsewhere).
const NODES = [node("ondemand-1", "lifecycle: on-demand", 8), node("spot-big", "lifecycle: spot", 32, ", example.com/gpu: 2"), node("spot-small", "lifecycle: spot, cost: low", 4)].join("---\n");
const pod = (name, tier, cpu) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {tier: ${tier}}}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "${cpu}"}}}]
`;
// checkout fits on the on-demand node only; audit is too big for it and critical: pending.
const PODS = [pod("report", "batch", "500m"), pod("checkout", "critical", "1"), pod("audit", "critical", "16")].join("---\n");
const CEL = "schedlab.dev/CEL";
const REASON = "node(s) didn't satisfy the schedlab.dev/CEL filter expression";

async function open() {
  const saved = JSON.stringify({
    parts: { nodes: NODES, pods: PODS, other: "", config: CONFIG, timeline: "" },
    seed: 1,
    controllers: true,
    kubernetesVersion: PAGE_VERSION,
  });
  const page = await newPage(env, { viewport: { width: 1440, height: 900 }, init: `if (!sessionStorage.getItem("seeded")) { sessionStorage.setItem("seeded", "1"); localStorage.setItem("schedlab.scenario.v1", ${JSON.stringify(saved)}); }` });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  return page;
}

/** `schedlab why FILE POD --output json` on the scenario text. */
function why(text, key) {
  const dir = mkdtempSync(join(tmpdir(), "schedlab-cel-"));
  const f = join(dir, "scenario.yaml");
  writeFileSync(f, text);
  return JSON.parse(execFileSync(process.env.SCHEDLAB_CLI, ["why", f, key, "--output", "json", "--kubernetes-version", PAGE_VERSION]).toString());
}

test("the CEL plugin in the cycle view: profile, filter matrix, score table and explanations as the engine computed them", async () => {
  const page = await open();
  const text = joinParts(await savedParts(page));
  const trace = cli(text, "trace");
  const nodes = trace.header.nodes;
  const start = trace.events.find((e) => e.type === "cycleStart" && trace.header.pods[e.pod] === "default/checkout");
  const filter = trace.events.find((e) => e.type === "filter" && e.cycle === start.cycle);
  // checkout passes on one node only (nothing to score): report's cycle scores all three.
  const scored = trace.events.find((e) => e.type === "cycleStart" && trace.header.pods[e.pod] === "default/report").cycle;
  const score = trace.events.find((e) => e.type === "score" && e.cycle === scored);
  const byCel = filter.verdicts.filter((v) => v.failed?.plugin === CEL).map((v) => nodes[v.node]);
  assert.deepEqual(byCel.sort(), ["spot-big", "spot-small"], "the oracle: CEL rejects both spot nodes for checkout");

  // The cluster view: a bar per resource a node allocates (or something on it requests), so
  // a GPU bar on spot-big only, and no node shows an empty "0/0" bar.
  const bars = await page.$$eval(".node-card", (cards) =>
    cards.map((c) => [c.dataset.node, [...c.querySelectorAll(".bar")].map((b) => b.dataset.res), [...c.querySelectorAll(".bar-text")].map((b) => b.textContent)]),
  );
  assert.equal(bars.length, 3);
  for (const [name, res, texts] of bars) {
    assert.equal(res.includes("example.com/gpu"), name === "spot-big", `${name}: ${res}`);
    assert.ok(!res.includes("ephemeral-storage"), `${name}: ${res}`);
    assert.ok(!texts.some((x) => /^0(\D*)\/0\1$/.test(x)), `${name}: ${texts}`);
  }

  // The profile lists it at Filter and at Score, and says it is a schedlab extension.
  await page.click('.lower [role="tab"]:has-text("Profiles")');
  const card = page.locator(".profile-card").first();
  await card.waitFor();
  for (const point of ["Filter", "Score"]) {
    assert.match(await card.locator(`tr:has(th:text-is("${point}")) td`).textContent(), /schedlab\.dev\/CEL/, point);
  }
  assert.match(await card.locator(".notes").textContent(), /schedlab\.dev\/CEL filters with .* a schedlab extension/);
  await shot(page, "cel-profile-1440");
  await page.click('.lower [role="tab"]:has-text("Scheduling cycle")');

  // The filter matrix: its column, its rejection on exactly the nodes the trace says.
  await gotoPhase(page, start.cycle, "Filter");
  assert.equal((await page.textContent(`table.matrix th.plugin-col[title="${CEL}"]`)).trim(), "CEL");
  for (const v of filter.verdicts) {
    const row = page.locator(`table.matrix tr[data-node="${nodes[v.node]}"]`);
    const rejected = await row.locator(`[data-cell="fail"][data-plugin="${CEL}"]`).count();
    assert.equal(rejected, v.failed?.plugin === CEL ? 1 : 0, nodes[v.node]);
    if (v.failed?.plugin === CEL) assert.ok((await row.locator("td.verdict").textContent()).includes(REASON));
  }
  await page.click(`table.matrix tr[data-node="spot-big"] [data-plugin="${CEL}"]`);
  await page.waitForSelector(".explain li");
  const why1 = await page.textContent(".explain");
  assert.ok(why1.includes(`Filter expression: ${FILTER}`), why1);
  assert.ok(why1.includes("On node spot-big it is false: the node is rejected."), why1);
  await shot(page, "cel-filter-1440");
  await page.keyboard.press("Escape");

  // The score table: its column with the trace's raw, normalized (clamped) and weighted scores.
  await gotoPhase(page, scored, "NormalizeScore");
  const t = score.table;
  const row = t.plugins.find((p) => p.plugin === CEL);
  assert.ok(row, "the trace scores with CEL");
  for (let k = 0; k < t.nodes.length; k++) {
    const cell = page.locator(`table.scores tr[data-node="${nodes[t.nodes[k]]}"] [data-plugin="${CEL}"]`);
    assert.equal(await cell.getAttribute("data-raw"), String(row.raw[k]));
    assert.equal(await cell.getAttribute("data-normalized"), String(row.normalized[k]));
    assert.equal(await cell.getAttribute("data-weighted"), String(row.normalized[k] * row.weight));
  }
  assert.equal(await page.getAttribute(`table.scores th[title="${CEL} (weight 2)"]`, "aria-label"), `${CEL} (weight 2)`);
  const k = t.nodes.findIndex((n) => nodes[n] === "ondemand-1");
  await page.click(`table.scores tr[data-node="ondemand-1"] [data-plugin="${CEL}"]`);
  await page.waitForSelector(".explain li");
  const why2 = await page.textContent(".explain");
  assert.ok(why2.includes(`Score expression: ${SCORE}`), why2);
  assert.ok(why2.includes(`On node ondemand-1 it gives ${row.raw[k]}.`), why2);
  assert.ok(why2.includes(`${row.raw[k]} → ${row.normalized[k]}`), why2);
  await shot(page, "cel-score-1440");
  noErrors(page);
});

test("a pod the CEL filter keeps pending: schedlab why's suggestions; turning the Filter off applies and undoes", async () => {
  const page = await open();
  await page.click('button[aria-label="To the end"]');
  const text = joinParts(await savedParts(page));
  const want = why(text, "default/audit");
  assert.ok(want.pending, "the oracle: audit is pending");
  const off = want.pending.suggestions.findIndex((s) => s.sentence.startsWith(`Turn off ${CEL}'s Filter`));
  assert.ok(off >= 0, "the oracle suggests turning the CEL filter off");
  assert.ok(want.pending.suggestions.some((s) => s.sentence.startsWith("Label node spot-big lifecycle=on-demand")));

  await page.click('.chip[data-pod="audit"]');
  await page.click('.action-menu [data-action="ask-why"]');
  await page.waitForSelector(".answers .answer-sentences");
  assert.deepEqual(await page.$$eval(".answers .answer-sentences p", (ps) => ps.map((p) => p.textContent)), want.sentences);
  const shown = await page.$$eval(".answers .suggestion .suggestion-text", (s) => s.map((e) => e.textContent));
  assert.deepEqual(shown, want.pending.suggestions.map((s) => s.sentence));
  await shot(page, "cel-why-1440");

  const before = await savedParts(page);
  let run = await runId(page);
  await page.click(`.answers .suggestion[data-index="${off}"] [data-action="apply-suggestion"]`);
  await nextRun(page, run);
  const after = await savedParts(page);
  assert.equal(after.nodes, before.nodes);
  assert.equal(after.pods, before.pods);
  assert.notEqual(after.config, before.config, "the edit is in the Config tab");
  const landed = cli(joinParts(after)).pods.find((p) => p.name === "audit").node;
  assert.equal(landed, want.pending.suggestions[off].landsOn);
  await page.waitForFunction((n) => document.querySelector(".answers h4")?.textContent === `Why is default/audit on ${n}?`, landed);

  run = await runId(page);
  await page.click("#tab-config");
  await page.click(".editor-host .cm-content");
  await page.keyboard.press("Control+Z");
  await nextRun(page, run);
  assert.equal((await savedParts(page)).config, before.config);
  noErrors(page);
});

test("an expression that does not compile is an error at its line", async () => {
  const page = await open();
  await page.click("#tab-config");
  const lines = CONFIG.split("\n");
  const i = lines.findIndex((l) => l.trim().startsWith("filter:"));
  lines[i] = "      filter: 'node.metadata.labels['";
  await replaceEditorText(page, lines.join("\n"));
  await page.waitForSelector(".error-list");
  assert.match(await page.textContent(".error-list .where"), new RegExp(`^Config line ${i + 1}, column \\d+$`));
  const msg = await page.textContent(".error-list .msg");
  assert.ok(msg.includes("args.filter") && msg.includes("compilation failed"), msg);
  await shot(page, "cel-invalid-1440");
});
