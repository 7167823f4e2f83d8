// Browser tests of two editing promises of issue 17: a leading comment in any tab is the
// scenario's story ("About this scenario"), and the configuration templates offer both to change
// the default profile and to add a second one (and say where to go when the Config tab already
// holds a configuration, instead of adding a second one the loader would refuse).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { start, stop, newPage, noErrors, shot, ready, pause, runId, nextRun, savedParts } from "./helpers.mjs";

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await stop(env);
});

const NODES = `# Two nodes; the story is written in the Nodes tab.
apiVersion: v1
kind: Node
metadata:
  name: ed-node-a
  labels: {kubernetes.io/hostname: ed-node-a, topology.kubernetes.io/zone: zone-a}
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: ed-node-b
  labels: {kubernetes.io/hostname: ed-node-b, topology.kubernetes.io/zone: zone-b}
status:
  capacity: {cpu: "4", memory: 8Gi, pods: "110"}
`;
const PODS = `apiVersion: v1
kind: Pod
metadata: {name: ed-web}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
`;

function seed(parts) {
  return `(() => {
    if (!localStorage.getItem("schedlab.scenario.v1")) {
      localStorage.setItem("schedlab.scenario.v1", JSON.stringify({ parts: ${JSON.stringify(parts)}, seed: 1 }));
    }
  })()`;
}

test("a leading comment in the Nodes tab is the story; + Default profile and + Second profile", async () => {
  const page = await newPage(env, { init: seed({ nodes: NODES, pods: PODS, other: "", config: "" }) });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.waitForSelector(".story");
  assert.match(await page.textContent(".story"), /Two nodes; the story is written in the Nodes tab\./);

  // + Default profile: a configuration whose default-scheduler profile packs (MostAllocated).
  await page.waitForSelector('button[aria-label="Add a Default profile"]:not([disabled])');
  let before = await runId(page);
  await page.click('button[aria-label="Add a Default profile"]');
  await page.waitForFunction(() => {
    const s = JSON.parse(localStorage.getItem("schedlab.scenario.v1") || "{}");
    return s.parts && /kind: KubeSchedulerConfiguration/.test(s.parts.config);
  });
  await nextRun(page, before);
  let config = (await savedParts(page)).config;
  assert.match(config, /- schedulerName: default-scheduler\n  pluginConfig:/);
  assert.doesNotMatch(config, /bin-packing/);
  // The story is still the Nodes tab's (the template's comment is not at its start).
  assert.match(await page.textContent(".story"), /Two nodes; the story is written in the Nodes tab\./);

  // + Second profile with a configuration there: nothing is added, the toast says where to go.
  await page.click('button[aria-label="Add a Second profile"]');
  await page.waitForFunction(() => /already has a KubeSchedulerConfiguration/.test(document.body.textContent));
  assert.equal((await savedParts(page)).config, config, "the configuration is unchanged");
  await shot(page, "editing-profile-templates-1440");
  noErrors(page);
});

test("+ Second profile on a scenario without a configuration keeps default-scheduler and adds bin-packing", async () => {
  const page = await newPage(env, { init: seed({ nodes: NODES, pods: PODS, other: "", config: "" }) });
  await page.goto(env.url);
  await ready(page);
  await pause(page);
  await page.waitForSelector('button[aria-label="Add a Second profile"]:not([disabled])');
  const before = await runId(page);
  await page.click('button[aria-label="Add a Second profile"]');
  await nextRun(page, before);
  const config = (await savedParts(page)).config;
  assert.match(config, /- schedulerName: default-scheduler\n- schedulerName: bin-packing/);
  noErrors(page);
});
