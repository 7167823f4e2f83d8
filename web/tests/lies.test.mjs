// Browser tests of the page's small lies (issue 17 item 5): counts that say when they count,
// singular nouns for one, the chosen node in view, the score table's Total never cut, the
// Share popover closing, the seed's label, and an embed without controls that cannot act.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  start, stop, newPage, noErrors, shot, ready, pause, frameShown, gotoPhase, playhead, stage, runId, nextRun, cli, joinParts, savedParts, SHOTS,
} from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const NODE = `apiVersion: v1
kind: Node
metadata:
  name: solo
  labels:
    kubernetes.io/hostname: solo
status:
  capacity: {cpu: '2', memory: 4Gi, pods: '10'}
  allocatable: {cpu: '2', memory: 4Gi, pods: '10'}
`;

const pod = (name, cpu, extra = "") => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
${extra}  containers:
  - name: c
    image: registry.example.com/app:1
    resources: {requests: {cpu: ${cpu}}}
`;

/** One node, one pod: every count is one. */
const ONE = { nodes: NODE, pods: pod("only", "500m"), other: "", config: "", timeline: "" };

/** One node, a running pod and an urgent one that evicts it: one victim, one eviction. */
const ONE_VICTIM = {
  nodes: NODE,
  pods: pod("low", "1500m", "  nodeName: solo\n") + "---\n" + pod("urgent", "1", "  priorityClassName: high\n"),
  other: "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n",
  config: "",
  timeline: "",
};

/** A page whose autosaved scenario is `parts` (as a visitor's own). */
async function openWith(parts, opts = {}) {
  const page = await newPage(env, opts);
  await page.addInitScript((saved) => {
    if (!localStorage.getItem("schedlab.scenario.v1")) localStorage.setItem("schedlab.scenario.v1", saved);
  }, JSON.stringify({ parts, seed: 1, controllers: true }));
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  return page;
}

/** Counts printed with a plural noun for one ("1 nodes"), and "(s)" plurals, in the page's
 *  text, titles and labels. ("0/1 nodes are available" is the scheduler's own message.) */
async function wrongCounts(page) {
  return page.evaluate(() => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll("[title], [aria-label]")) {
      texts.push(el.getAttribute("title") || "", el.getAttribute("aria-label") || "");
    }
    const re = /(?:^|[^\d.,/])1 (?:nodes|pods|cycles|victims|events|errors|zones|replicas|steps)\b|\w\(s\)/g;
    const bad = new Set();
    for (const t of texts) for (const m of t.matchAll(re)) bad.add(m[0].trim());
    return [...bad];
  });
}

/** Steps through every stop of the run (from the start), calling `at` at each. */
async function everyStop(page, at) {
  await page.keyboard.press("Home");
  await frameShown(page);
  const last = Number(await page.getAttribute(".timeline input[type=range]", "max"));
  for (;;) {
    await frameShown(page);
    await at(await playhead(page));
    const here = await playhead(page);
    if (here >= last) break;
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((b) => Number(document.querySelector(".timeline input[type=range]").value) !== b, here);
  }
}

test("the top bar counts the run's end, the cluster panel the playhead, and at the last stop they agree", async () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 1280, height: 800 }]) {
    const page = await newPage(env, { viewport });
    await page.goto(env.url);
    await ready(page);
    await pause(page);
    const end = page.locator(".status .st-end");
    const here = page.locator("[data-testid=playhead-counts]");
    await page.keyboard.press("Home");
    await frameShown(page);
    assert.match(await end.textContent(), /^at the end: \d+ running · \d+ pending/);
    assert.match(await end.getAttribute("title"), /At the end of the run: .*The cluster panel counts the pods at the playhead/);
    assert.match(await here.textContent(), /^at the playhead: \d+ running · \d+ pending/);
    assert.match(await here.getAttribute("title"), /^Pods at the playhead \(t = .*The top bar counts them at the end of the run/);
    assert.ok(await end.isVisible(), "the end's counts are on screen");
    // Both lines fit: neither is cut with an ellipsis.
    assert.ok(await end.evaluate((e) => e.scrollWidth <= e.clientWidth), "the top bar's counts are not cut");
    assert.ok(await page.$eval(".topbar", (t) => t.scrollWidth <= t.clientWidth), "the top bar fits the window");
    await page.keyboard.press("End");
    await frameShown(page);
    const counts = (t) => t.replace(/^at the (end|playhead): /, "");
    assert.equal(counts(await here.textContent()), counts(await end.textContent()), "at the last stop the two agree");
    await shot(page, `lies-counts-${viewport.width}`);
    noErrors(page);
    await page.context().close();
  }
});

test("one node, one pod, one victim: every count takes the singular", async () => {
  const page = await openWith(ONE);
  assert.match(await page.textContent(".status"), /1 node · 1 pod · /);
  await everyStop(page, async (s) => assert.deepEqual(await wrongCounts(page), [], `at stop ${s}`));
  assert.match(await page.textContent(".status .st-end"), /^at the end: 1 running · 0 pending$/);
  await page.click('button[role="tab"]:has-text("Events")');
  await page.waitForSelector(".events-table tbody tr");
  assert.match(await page.textContent(".events"), /1 event up to the playhead/);
  await page.click('button[role="tab"]:has-text("Profiles")');
  await page.waitForSelector(".profile-card");
  assert.match(await page.textContent(".profile-card"), /1 pod uses it/);
  assert.deepEqual(await wrongCounts(page), []);
  noErrors(page);

  const p2 = await openWith(ONE_VICTIM);
  let victim = false;
  await everyStop(p2, async (s) => {
    assert.deepEqual(await wrongCounts(p2), [], `at stop ${s}`);
    const role = await p2.locator(".node-card .role.candidate").allTextContents();
    if (role.some((r) => /1 victim$/.test(r))) victim = true;
  });
  assert.ok(victim, "the node card said “1 victim” at the preemption");
  assert.match(await p2.textContent(".status .st-end"), /^at the end: 1 running · 0 pending · 1 evicted$/);
  assert.match(await p2.textContent("[data-testid=playhead-counts]"), /^at the playhead: 1 running · 0 pending · 1 evicted$/);
  await shot(p2, "lies-singular-1440");
  noErrors(p2);
});

/** Whether the element `sel` lies wholly inside the visible box of its scroll container. */
async function inView(page, sel, container) {
  return page.evaluate(
    ([sel, container]) => {
      const el = document.querySelector(sel);
      const box = el?.closest(container);
      if (!el || !box) return false;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.left >= b.left - 1 && r.right <= b.right + 1;
    },
    [sel, container],
  );
}

test("the chosen node is in the cluster panel's view at Score, NormalizeScore and Reserve", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    const page = await newPage(env, { viewport });
    await page.goto(env.url);
    await ready(page);
    await pause(page);
    assert.equal(await page.getAttribute("details.story", "open"), "", "the story is open above the cards");
    let checked = 0;
    await everyStop(page, async (s) => {
      const phase = await stage(page);
      if (!["Score", "NormalizeScore", "Reserve"].includes(phase)) return;
      // The chosen node: the score table's winner (at Score it is not marked on its card yet).
      const name = await page.evaluate(() => {
        const c = document.querySelector(".node-card.is-chosen");
        if (c) return c.dataset.node;
        const w = document.querySelector("table.scores tr.winner");
        if (w) return w.dataset.node;
        // One feasible node (no table): "★ name is the only feasible node."
        return document.querySelector(".score-wrap p strong")?.textContent;
      });
      assert.ok(name, `a chosen node at stop ${s} (${phase})`);
      const sel = `.node-card[data-node="${name}"]`;
      // Scrolled there once the frame is drawn (bounded: it never comes when the page does not).
      await page.waitForFunction(
        ([sel]) => {
          const el = document.querySelector(sel);
          const b = el?.closest(".cluster-body")?.getBoundingClientRect();
          const r = el?.getBoundingClientRect();
          return b && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
        },
        [sel],
        { timeout: 10000 },
      ).catch(() => {});
      assert.ok(await inView(page, sel, ".cluster-body"), `${name} in view at stop ${s} (${phase}) at ${viewport.width}`);
      if (checked === 0) await shot(page, `lies-chosen-in-view-${viewport.width}`);
      checked++;
    });
    assert.ok(checked >= 3, `checked ${checked} stops`);
    noErrors(page);
    await page.context().close();
  }
});

/** Six nodes in three zones and a pod that every default score plugin but VolumeBinding scores
 *  (a toleration, preferred node affinity, preferred anti-affinity, a soft spread). */
const MANY_SCORES = (() => {
  const nodes = [];
  for (const [i, zone] of ["a", "b", "c", "a", "b", "c"].entries()) {
    const name = `worker-pool-${zone}-node-${i + 1}`;
    nodes.push(`apiVersion: v1
kind: Node
metadata:
  name: ${name}
  labels:
    kubernetes.io/hostname: ${name}
    topology.kubernetes.io/zone: zone-${zone}
    disktype: ${i % 2 ? "ssd" : "hdd"}
status:
  capacity: {cpu: '8', memory: 32Gi, pods: '110'}
  allocatable: {cpu: '8', memory: 32Gi, pods: '110'}
`);
  }
  const db = `apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default, labels: {app: db}}
spec:
  nodeName: worker-pool-a-node-1
  containers:
  - name: db
    image: registry.example.com/db:1
    resources: {requests: {cpu: '2', memory: 4Gi}}
`;
  const web = `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  tolerations: [{key: dedicated, operator: Equal, value: web, effect: PreferNoSchedule}]
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        preference: {matchExpressions: [{key: disktype, operator: In, values: [ssd]}]}
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector: {matchLabels: {app: db}}
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector: {matchLabels: {app: web}}
  containers:
  - name: web
    image: registry.example.com/web:1
    resources: {requests: {cpu: 500m, memory: 1Gi}}
`;
  return { nodes: nodes.join("---\n"), pods: db + "---\n" + web, other: "", config: "", timeline: "" };
})();

test("the score table's Total column is never cut, with six score plugins", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    const page = await openWith(MANY_SCORES, { viewport });
    await gotoPhase(page, 1, "NormalizeScore");
    assert.equal(await stage(page), "NormalizeScore");
    await page.waitForSelector("table.scores td.total");
    const plugins = await page.locator("table.scores thead th").count() - 2;
    assert.ok(plugins >= 6, `${plugins} score plugins`);
    // The table is wider than its box: the case the Total column must survive.
    assert.ok(await page.$eval(".score-wrap .table-scroll", (e) => e.scrollWidth > e.clientWidth), "the table scrolls sideways");
    const cut = await page.evaluate(() => {
      const box = document.querySelector(".score-wrap .table-scroll").getBoundingClientRect();
      const grid = document.querySelector(".cycle-grid").getBoundingClientRect();
      const out = [];
      for (const c of document.querySelectorAll("table.scores th.total-col, table.scores td.total")) {
        const r = c.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${c.textContent}: ${r.left}–${r.right} outside ${box.left}–${box.right}`);
        // A cell in view (inside the table's box, the cycle panel's and the window) is on top.
        else if (r.top >= Math.max(box.top, grid.top) && r.bottom <= Math.min(box.bottom, grid.bottom, innerHeight) && top !== c && !c.contains(top)) out.push(`${c.textContent}: covered by ${top?.tagName}.${top?.className} ${top?.textContent.slice(0, 40)}`);
      }
      return out;
    });
    assert.deepEqual(cut, [], `at ${viewport.width}`);
    await page.locator(".score-wrap").screenshot({ path: join(SHOTS, `lies-score-total-${viewport.width}.png`) });
    await shot(page, `lies-score-${viewport.width}`);
    noErrors(page);
    await page.context().close();
  }
});

test("the Share popover closes on Esc and when another dialog opens; the seed has a visible label", async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    const page = await newPage(env, { viewport });
    await page.goto(env.url);
    await ready(page);
    const seed = page.locator(".field.seed .label");
    assert.ok(await seed.isVisible(), `the seed's label is shown at ${viewport.width}`);
    assert.equal((await seed.textContent()).trim(), "Seed");
    const popover = page.locator(".share-popover");
    const openShare = async () => {
      await page.click('button:has-text("Share")');
      await popover.waitFor({ state: "visible" });
    };
    await openShare();
    await shot(page, `lies-share-${viewport.width}`);
    await page.keyboard.press("Escape");
    await popover.waitFor({ state: "detached" });
    // Esc with the focus in the link's box too.
    await openShare();
    await page.focus(".share-url");
    await page.keyboard.press("Escape");
    await popover.waitFor({ state: "detached" });
    for (const [button, dialog] of [
      ['button:has-text("Embed…")', ".embed-dialog"],
      ['button[aria-label="Keyboard shortcuts"]', ".modal"],
      ['button:has-text("Large cluster…")', ".modal"],
      ['button:has-text("Import…")', ".modal"],
    ]) {
      await openShare();
      await page.click(button);
      await page.waitForSelector(dialog);
      assert.equal(await popover.count(), 0, `the popover closed when ${button} opened its dialog`);
      await page.click(`${dialog} button[aria-label="Close"]`);
      await page.waitForSelector(dialog, { state: "detached" });
    }
    // A node's actions menu, too.
    await openShare();
    await page.click(".node-card .node-menu");
    await page.waitForSelector(".action-menu");
    assert.equal(await popover.count(), 0, "the popover closed when a node's menu opened");
    noErrors(page);
    await page.context().close();
  }
});

/** The embed's host page (another origin) with the embed in a w×h iframe. */
async function embedFrame(page, src, w, h) {
  const host = env.url.replace("127.0.0.1", "localhost") + "__host.html";
  const q = new URLSearchParams({ src, w: String(w), h: String(h), top: "0" });
  await page.goto(`${host}?${q}`);
  const el = await page.waitForSelector("#embed", { state: "attached" });
  const frame = await el.contentFrame();
  await frame.waitForFunction(
    () => {
      const s = document.querySelector(".stage-label");
      const t = s ? s.textContent.trim() : "";
      return t !== "" && t !== "—" && document.querySelectorAll(".node-card").length > 0;
    },
    null,
    { polling: 100 },
  );
  return { el, frame };
}

test("an embed shows no menus it cannot open, and its node cards' status badges are whole", async () => {
  for (const [w, h] of [[800, 500], [480, 360]]) {
    const page = await newPage(env, { viewport: { width: 1000, height: 800 } });
    for (const phase of ["Filter", "PostFilter", "NormalizeScore"]) {
      const cycle = phase === "NormalizeScore" ? 2 : 1;
      const { el, frame } = await embedFrame(page, `${env.url}?embed&preset=tour&autoplay=0&cycle=${cycle}&phase=${phase}`, w, h);
      await frame.waitForFunction((p) => document.querySelector(".stage-label").textContent.trim() === p, phase, { polling: 100 });
      assert.equal(await frame.locator(".node-menu").count(), 0, "no node menus");
      assert.equal(await frame.locator("[aria-haspopup]").count(), 0, "no control opens a menu");
      assert.ok((await frame.locator(".chip").count()) > 0, "pods are shown");
      assert.equal(await frame.locator("button.chip").count(), 0, "pod chips are not buttons");
      const cut = await frame.evaluate(() => {
        const out = [];
        for (const r of document.querySelectorAll(".node-card .role, .node-card .badge")) {
          if (r.getClientRects().length === 0) continue; // hidden at this size
          const card = r.closest(".node-card").getBoundingClientRect();
          const b = r.getBoundingClientRect();
          if (r.scrollWidth > r.clientWidth + 1) out.push(`${r.textContent}: cut (${r.scrollWidth} > ${r.clientWidth})`);
          if (b.left < card.left - 1 || b.right > card.right + 1) out.push(`${r.textContent}: outside its card`);
        }
        return out;
      });
      assert.deepEqual(cut, [], `${w}×${h} at ${phase}`);
      assert.ok((await frame.locator(".node-card .role").count()) > 0, `roles shown at ${phase}`);
      await el.screenshot({ path: join(SHOTS, `lies-embed-${w}x${h}-${phase}.png`) });
    }
    noErrors(page);
    await page.context().close();
  }
});

test("“+ Node” puts each new node in the zone with the fewest nodes, and says which", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const zoneCounts = () =>
    page.$$eval(".cluster-panel section.zone", (zs) => zs.map((z) => [z.getAttribute("aria-label").replace(/^Zone /, ""), z.querySelectorAll(".node-card").length]));
  await page.waitForFunction(() => !document.querySelector('button[aria-label="Add a Node"]').disabled);
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const before = await zoneCounts();
    const fewest = Math.min(...before.map(([, n]) => n));
    const want = before.find(([, n]) => n === fewest)[0];
    const total = before.reduce((a, [, n]) => a + n, 0);
    const run = await runId(page);
    await page.click('button[aria-label="Add a Node"]');
    await page.waitForFunction((w) => (document.querySelector(".toast")?.textContent || "").includes(`A node in ${w}`), want);
    await nextRun(page, run);
    await page.waitForFunction((t) => document.querySelectorAll(".cluster-panel .node-card").length === t + 1, total);
    const after = await zoneCounts();
    assert.deepEqual(
      after,
      before.map(([z, n]) => [z, z === want ? n + 1 : n]),
      `node ${i + 1} went to ${want}`,
    );
    seen.push(want);
  }
  assert.ok(new Set(seen).size >= 2, `the zones rotate: ${seen}`);
  await shot(page, "lies-add-node-zones-1440");
  noErrors(page);
});

test("a pending pod's menu has “Why pending?”, which opens its last failed cycle", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  const oracle = cli(joinParts(await savedParts(page)));
  await page.keyboard.press("End");
  await frameShown(page);
  const chip = page.locator(".queue-panel button.chip.unschedulable, .queue-panel button.chip.backoff, .queue-panel button.chip.queued").first();
  const pod = await chip.getAttribute("data-pod");
  const failed = oracle.events.filter((e) => e.reason === "FailedScheduling" && e.object.split("/")[1] === pod);
  assert.ok(failed.length > 0, `${pod} failed at least once`);
  const want = failed[failed.length - 1].cycle;
  await chip.click();
  const why = page.locator('.action-menu [data-action="why-pending"]');
  await why.waitFor();
  assert.equal((await why.textContent()).trim(), `Why pending? (cycle ${want})`);
  await shot(page, "lies-why-pending-menu-1440");
  await why.click();
  await page.waitForFunction((c) => (document.querySelector(".cycle-title")?.textContent || "").includes(`cycle ${c} `), want);
  await frameShown(page);
  assert.equal(await stage(page), "FailedScheduling");
  assert.equal(await page.locator(".action-menu").count(), 0, "the menu closed");
  // A bound pod's menu has no such item.
  await page.locator(".cluster-panel button.chip").first().click();
  await page.locator(".action-menu .menu-items").waitFor();
  assert.equal(await page.locator('.action-menu [data-action="why-pending"]').count(), 0);
  noErrors(page);
});

test("the clock shows when the first backoff ends, as the queue counts it", async () => {
  const page = await newPage(env);
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  let seen = 0;
  await everyStop(page, async (s) => {
    const end = page.locator(".clock .clock-backoff");
    const backoffs = await page.$$eval(".queue-panel .q-item", (items) =>
      items.map((li) => li.textContent.match(/retry in (\d+)\.(\d{3}) s/)).filter(Boolean).map((m) => Number(m[1]) * 1000 + Number(m[2])),
    );
    if (backoffs.length === 0) {
      assert.equal(await end.count(), 0, `no backoff at stop ${s}`);
      return;
    }
    const clock = Number(await page.getAttribute(".clock .clock-value", "data-clock-ms"));
    assert.equal(Number(await end.getAttribute("data-until-ms")), clock + Math.min(...backoffs), `at stop ${s}`);
    assert.match(await end.textContent(), /^↻ until \d+\.\d{3} s$/);
    assert.match(await end.getAttribute("title"), /^The first backoff ends at t = \d+\.\d{3} s/);
    if (seen === 0) await shot(page, "lies-backoff-clock-1440");
    seen++;
  });
  assert.ok(seen > 0, "the tour has a pod in backoff at some stop");
  noErrors(page);
});
