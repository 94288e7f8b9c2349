// kafkajs (npm, installed by scripts/setup.sh into .node/) against a cafka broker, run by
// tests/integration/kafkajs_test.cpp:
//   node kafkajs_scenarios.js BOOTSTRAP admin TOPIC     create (2 partitions, retention.ms), describe
//                                               configs, create partitions (4), delete
//   node kafkajs_scenarios.js BOOTSTRAP produce TOPIC N [FROM]
//                                               N gzip records value-FROM.., keys k<i % 5>,
//                                               header h=v<i>
//   node kafkajs_scenarios.js BOOTSTRAP group TOPIC N    two members of one group share the topic's
//                                               N records (commits), both leave
//   node kafkajs_scenarios.js BOOTSTRAP resume TOPIC M FROM
//                                               a new member of the group gets exactly the M
//                                               records produced after the commits (value-FROM..)
//   node kafkajs_scenarios.js BOOTSTRAP txn TOPIC N   an idempotent producer sends N records (idem-i); a
//                                               transactional one commits N (c-i) with the group's
//                                               offset 5 of partition 0 (sendOffsets), aborts N (a-i),
//                                               commits N (d-i); a read_committed consumer counts them
// Each prints what it saw as "key=value" lines and exits 1 with a message on a failure; the
// whole run gives up after 120 s.
'use strict';
const { Kafka, CompressionTypes, ConfigResourceTypes, logLevel } = require('kafkajs');

const [bootstrap, scenario, topic, countText, fromText] = process.argv.slice(2);
const count = Number(countText || 0);
const from = Number(fromText || 0);
const group = topic + '-group';
const kafka = new Kafka({ clientId: 'cafka-kafkajs-test', brokers: [bootstrap], logLevel: logLevel.WARN });

function check(condition, what) {
  if (!condition) throw new Error(what);
}

async function admin() {
  const a = kafka.admin();
  await a.connect();
  const created = await a.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: 2, replicationFactor: 1, configEntries: [{ name: 'retention.ms', value: '3600000' }] }],
  });
  check(created, 'createTopics did not create ' + topic);
  const described = await a.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }],
  });
  const entries = described.resources[0].configEntries;
  const retention = entries.find((e) => e.configName === 'retention.ms');
  check(retention && retention.configValue === '3600000', 'retention.ms: ' + JSON.stringify(retention));
  console.log('configs=' + entries.length);
  console.log('retention.ms=' + retention.configValue);
  await a.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
  const md = await a.fetchTopicMetadata({ topics: [topic] });
  console.log('partitions=' + md.topics[0].partitions.length);
  check(md.topics[0].partitions.length === 4, 'partitions after createPartitions');
  await a.deleteTopics({ topics: [topic] });
  const left = await a.listTopics();
  check(!left.includes(topic), topic + ' still listed after deleteTopics');
  console.log('deleted=' + topic);
  await a.disconnect();
}

async function produce() {
  const p = kafka.producer();
  await p.connect();
  const messages = [];
  for (let i = from; i < from + count; ++i)
    messages.push({ key: 'k' + (i % 5), value: 'value-' + i, headers: { h: 'v' + i } });
  const acks = await p.send({ topic, acks: -1, compression: CompressionTypes.GZIP, messages });
  console.log('batches=' + acks.length);
  await p.disconnect();
}

// Consumes with `members` members until `expected` records arrived; returns value -> times.
async function consume(members, expected) {
  const seen = new Map();
  const assigned = [];
  let total = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const consumers = [];
  for (let m = 0; m < members; ++m) {
    const c = kafka.consumer({ groupId: group, sessionTimeout: 10000, heartbeatInterval: 1000 });
    c.on(c.events.GROUP_JOIN, (e) => (assigned[m] = e.payload.memberAssignment[topic] || []));
    await c.connect();
    await c.subscribe({ topic, fromBeginning: true });
    await c.run({
      autoCommit: true,
      eachMessage: async ({ message }) => {
        const v = message.value.toString();
        seen.set(v, (seen.get(v) || 0) + 1);
        if (++total >= expected) done();
      },
    });
    consumers.push(c);
  }
  await all;
  // The first member may have read everything before the second joined: wait (bounded) for
  // the rebalance that gives each member its share, then let the last commits go out.
  const held = () => assigned.map((a) => (a || []).length);
  // One generation's shares: every member holds some, no partition twice.
  const settled = () => {
    const all = assigned.flatMap((a) => a || []);
    return held().filter((n) => n > 0).length === members && new Set(all).size === all.length;
  };
  for (let i = 0; i < 300 && members > 1 && !settled(); ++i)
    await new Promise((r) => setTimeout(r, 100));
  const shares = held().join(','); // before leaving: each departure rebalances the others
  await new Promise((r) => setTimeout(r, 1000));
  for (const c of consumers) await c.disconnect(); // commits what was consumed, leaves the group
  console.log('members=' + members);
  console.log('assigned=' + shares);
  return seen;
}

async function group_scenario() {
  const seen = await consume(2, count);
  check(seen.size === count, 'distinct records ' + seen.size + ' of ' + count);
  console.log('records=' + seen.size);
}

async function resume() {
  const seen = await consume(1, count);
  for (const [v, times] of seen) {
    check(Number(v.split('-')[1]) >= from, v + ' was committed before, and came again');
    check(times === 1, v + ' came ' + times + ' times');
  }
  console.log('records=' + seen.size);
}

async function txn() {
  const idempotent = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await idempotent.connect();
  const values = (prefix) => Array.from({ length: count }, (_, i) => ({ value: prefix + '-' + i }));
  await idempotent.send({ topic, acks: -1, messages: values('idem') });
  await idempotent.disconnect();
  const producer = kafka.producer({ transactionalId: topic + '-txn', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let t = await producer.transaction();
  await t.send({ topic, messages: values('c') });
  await t.sendOffsets({ consumerGroupId: group, topics: [{ topic, partitions: [{ partition: 0, offset: '5' }] }] });
  await t.commit();
  t = await producer.transaction();
  await t.send({ topic, messages: values('a') });
  await t.abort();
  t = await producer.transaction();
  await t.send({ topic, messages: values('d') });
  await t.commit();
  await producer.disconnect();

  const seen = new Map();
  let total = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const c = kafka.consumer({ groupId: group + '-reader', readUncommitted: false });
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({
    eachMessage: async ({ message }) => {
      const prefix = message.value.toString().split('-')[0];
      seen.set(prefix, (seen.get(prefix) || 0) + 1);
      if (++total >= 3 * count) done();
    },
  });
  await all;
  await new Promise((r) => setTimeout(r, 1000)); // anything aborted would come by now
  await c.disconnect();
  for (const prefix of ['idem', 'c', 'a', 'd']) console.log(prefix + '=' + (seen.get(prefix) || 0));
  const a = kafka.admin();
  await a.connect();
  const offsets = await a.fetchOffsets({ groupId: group, topics: [topic] });
  const p0 = offsets[0].partitions.find((p) => p.partition === 0);
  console.log('committed=' + (p0 ? p0.offset : 'none'));
  await a.disconnect();
}

const scenarios = { admin, produce, group: group_scenario, resume, txn };
setTimeout(() => {
  console.error('kafkajs ' + scenario + ': gave up after 120 s');
  process.exit(1);
}, 120000).unref();
scenarios[scenario]()
  .then(() => process.exit(0))
  .catch((e) => {
    console.error('kafkajs ' + scenario + ': ' + (e && e.stack ? e.stack : e));
    process.exit(1);
  });
