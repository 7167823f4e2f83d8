// Browser test of "Play both" (components/compare_play.rs) and a comparison in an embed
// (components/embed_compare.rs): LeastAllocated (the default) against MostAllocated, both runs
// stepped, scrubbed and played under one transport, each side's placements at each cycle held
// against two native `schedlab run`s (their traces: the binds up to that cycle; their JSON: the
// end). Every wait is for a condition, never for a duration.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, savedParts, joinParts, cli, MOST_ALLOCATED } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const node = (name) => `apiVersion: v1
kind: Node
metadata: {name: ${name}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "20"}}
`;
const pod = (name, cpu) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers: [{name: c, image: busybox, resources: {requests: {cpu: "${cpu}", memory: 1Gi}}}]
`;
const NODES = ["node-a", "node-b", "node-c"].map(node).join("---\n");
const PODS = ["web-1", "web-2", "web-3", "web-4"].map((n) => pod(n, "1")).join("---\n") + "---\n" + pod("big", "3");
async function open(viewport) {
  const saved = JSON.stringify({
    parts: { nodes: NODES, pods: PODS, other: "", config: "", timeline: "" },
    seed: 1,
    controllers: true,
    kubernetesVersion: "1.34",
  });
  const page = await newPage(env, { viewport, init: `if (!sessionStorage.getItem("seeded")) { sessionStorage.setItem("seeded", "1"); localStorage.setItem("schedlab.scenario.v1", ${JSON.stringify(saved)}); }` });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  return page;
}

/** A native run: per cycle (index = cycle) each pod's node after it, and the cycle's pod. */
function native(text) {
  const t = cli(text, "trace");
  const end = cli(text);
  assert.equal(end.evicted.length, 0, "no pod leaves a node: the binds alone say where pods are");
  const at = [{}];
  const pods = [null];
  for (const e of t.events) {
    if (e.type === "cycleStart") {
      at.push({ ...at[at.length - 1] });
      pods.push(t.header.pods[e.pod]);
    }
    if (e.type === "bind") at[e.cycle][t.header.pods[e.pod]] = t.header.nodes[e.node];
  }
  const final = Object.fromEntries(end.pods.filter((p) => p.node).map((p) => [`${p.namespace}/${p.name}`, p.node]));
  return { at, pods, final };
}

/** Each side's pods and their nodes as drawn, once both sides show cycle `c`. */
async function drawn(page, c, scope = "") {
  await page.waitForFunction(([s, c]) => document.querySelector(`${s} .compare-sides`)?.dataset.shown === String(c), [scope, c]);
  return page.$$eval(`${scope} .compare-side`, (sides) =>
    sides.map((side) => {
      const placed = {};
      for (const n of side.querySelectorAll(".compare-node")) for (const chip of n.querySelectorAll(".chip")) placed[chip.dataset.pod] = n.dataset.node;
      const differs = [...side.querySelectorAll(".chip.differs")].map((c) => c.dataset.pod).sort();
      return { side: side.dataset.side, placed, now: side.querySelector(".compare-now").dataset.pod, differs };
    }),
  );
}

function check(got, a, b, c) {
  assert.deepEqual(got[0].placed, a.at[Math.min(c, a.at.length - 1)], `A at cycle ${c}`);
  assert.deepEqual(got[1].placed, b.at[Math.min(c, b.at.length - 1)], `B at cycle ${c}`);
  if (c > 0) {
    assert.equal(got[0].now, a.pods[Math.min(c, a.pods.length - 1)], `A's pod of cycle ${c}`);
    assert.equal(got[1].now, b.pods[Math.min(c, b.pods.length - 1)], `B's pod of cycle ${c}`);
  }
}

const cycleInput = (page, c) =>
  page.$eval(".compare-scrub", (el, c) => {
    el.value = String(c);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, c);

let embedSrc;

test("play both: LeastAllocated against MostAllocated, stepped, scrubbed and played, each side as a native run", async () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }]) {
    const page = await open(viewport);
    const text = joinParts(await savedParts(page));
    const a = native(text);
    const b = native(text + "---\n" + MOST_ALLOCATED);
    const differing = Object.keys(a.final).filter((k) => a.final[k] !== b.final[k]).sort();
    assert.ok(differing.length > 0, "MostAllocated places some pod elsewhere");
    const mainStop = await page.$eval(".timeline input[type=range]", (el) => el.value);

    await page.click('[data-action="open-compare"]');
    await page.waitForSelector(".compare-headline");
    await page.click('[data-action="play-both"]');
    check(await drawn(page, 0), a, b, 0);
    // Step both runs to cycle 2, one cycle at a time.
    await page.click('.compare-transport button[aria-label="Next cycle"]');
    check(await drawn(page, 1), a, b, 1);
    await page.click('.compare-transport button[aria-label="Next cycle"]');
    const two = await drawn(page, 2);
    check(two, a, b, 2);
    // The differing pods are marked on both sides (those placed by now).
    for (const side of two) assert.deepEqual(side.differs, differing.filter((k) => k in side.placed), side.side);
    await shot(page, `compare-play-${viewport.width}`);
    // Scrub to the third cycle, then back to the first.
    await cycleInput(page, 3);
    check(await drawn(page, 3), a, b, 3);
    await cycleInput(page, 1);
    check(await drawn(page, 1), a, b, 1);
    // Play to the end: both end as the native runs end.
    const last = Math.max(a.at.length, b.at.length) - 1;
    await page.click('[data-action="play-both-toggle"]');
    await page.waitForFunction((l) => document.querySelector(".compare-sides")?.dataset.shown === String(l) && document.querySelector('[data-action="play-both-toggle"]').getAttribute("aria-pressed") === "false", last);
    const end = await drawn(page, last);
    check(end, a, b, last);
    assert.deepEqual(end[0].placed, a.final);
    assert.deepEqual(end[1].placed, b.final);
    for (const side of end) assert.deepEqual(side.differs, differing, side.side);
    await shot(page, `compare-play-end-${viewport.width}`);

    // The Embed dialog, opened from the compare view, includes the comparison.
    await page.click('[data-action="embed-compare"]');
    await page.waitForFunction(() => /compare=config-/.test(document.querySelector("#embed-snippet")?.value || ""));
    embedSrc = await page.$eval("#embed-snippet", (el) => el.value.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"));
    await page.click('.embed-dialog button[aria-label="Close"]');
    // Closing the compare view left the main player where it was.
    assert.equal(await page.$eval(".timeline input[type=range]", (el) => el.value), mainStop);
    noErrors(page);
    await page.context().close();
  }
});

test("an embed at 800×500 with ?compare= shows the comparison and plays both runs to the end", async () => {
  assert.ok(embedSrc, "the first test made the embed's address");
  assert.match(embedSrc, /[?&]embed\b/);
  const page = await newPage(env, { viewport: { width: 800, height: 500 } });
  await page.goto(embedSrc);
  // Autoplay: the embed opens on "Play both" and plays to the end.
  await page.waitForSelector(".embed-compare .compare-sides");
  const texts = joinParts({ nodes: NODES, pods: PODS, other: "", config: "", timeline: "" });
  const a = native(texts);
  const b = native(texts + "---\n" + MOST_ALLOCATED);
  const last = Math.max(a.at.length, b.at.length) - 1;
  await page.waitForFunction((l) => document.querySelector(".compare-sides")?.dataset.shown === String(l) && document.querySelector('[data-action="play-both-toggle"]').getAttribute("aria-pressed") === "false", last);
  const end = await drawn(page, last);
  assert.deepEqual(end[0].placed, a.final);
  assert.deepEqual(end[1].placed, b.final);
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth && document.documentElement.scrollHeight <= window.innerHeight);
  assert.ok(fits, "nothing spills out of the 800×500 frame");
  await shot(page, "embed-compare-play-800");
  // The summary tab: the pods that land differently, as the native runs say.
  await page.click('.embed-compare [data-tab="summary"]');
  await page.waitForSelector(".embed-compare .compare-pods");
  const differing = Object.keys(a.final).filter((k) => a.final[k] !== b.final[k]).sort();
  assert.deepEqual((await page.$$eval(".compare-pods tr.differs", (r) => r.map((x) => x.dataset.pod))).sort(), differing);
  await shot(page, "embed-compare-summary-800");
  noErrors(page);
});
