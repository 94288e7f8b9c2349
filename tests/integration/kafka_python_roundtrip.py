"""kafka-python 2.0.2 (Debian's python3-kafka) against a Kafka broker, for cafka's
integration tests (tests/integration/kafka_python_test.cpp runs it with /usr/bin/python3).

  round-trip --bootstrap HOST:PORT --topic T --partitions N [--records 10000]
      KafkaProducer (acks=all) sends keyed records with binary values to the existing
      topic T (N partitions); every send must be acknowledged at consecutive offsets per
      partition. KafkaConsumer without a group (assign + seek_to_beginning) reads them
      back: offsets, order, keys and values are checked record by record, and
      beginning/end offsets against what was acknowledged.
  admin --bootstrap HOST:PORT --topic T
      KafkaAdminClient creates T with 3 partitions (absent before, listed and described
      with 3 partitions after, a second create fails with TopicAlreadyExistsError) and
      deletes it (no longer listed).

Exit status 0 when every check passes; otherwise 1 with the reason on stderr. Every
wait is bounded (client timeouts and explicit deadlines); the caller kills the process
if it still hangs.
"""

import argparse
import logging
import sys
import time
import traceback

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.errors import TopicAlreadyExistsError

CLIENT_TIMEOUTS = dict(request_timeout_ms=30000, api_version_auto_timeout_ms=10000)
ROUND_TRIP_SECONDS = 180
METADATA_SECONDS = 30


class Mismatch(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Mismatch(message)


def key_of(i):
    return b"key-%d" % (i % 101)


def value_of(i):
    # A readable prefix, then 0..60 bytes covering NUL and high bytes.
    return b"value-%d:" % i + bytes((i * 31 + j * 7) % 256 for j in range(i % 61))


def wait_until(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return
        check(time.monotonic() < deadline, "gave up waiting (%d s) for %s" % (seconds, what))
        time.sleep(0.2)


def produce(bootstrap, topic, records):
    """Sends every record; returns {partition: [record number in offset order]}."""
    producer = KafkaProducer(bootstrap_servers=[bootstrap], acks="all", linger_ms=5,
                             max_block_ms=30000, **CLIENT_TIMEOUTS)
    try:
        futures = [producer.send(topic, key=key_of(i), value=value_of(i)) for i in range(records)]
        producer.flush(timeout=ROUND_TRIP_SECONDS)
        by_partition = {}
        for i, future in enumerate(futures):
            check(future.is_done, "record #%d is still unacknowledged after flush" % i)
            metadata = future.get(timeout=1)  # raises the send's error, if any
            sent = by_partition.setdefault(metadata.partition, [])
            check(metadata.offset == len(sent),
                  "record #%d acknowledged at %d/%d, expected offset %d"
                  % (i, metadata.partition, metadata.offset, len(sent)))
            sent.append(i)
        return by_partition
    finally:
        producer.close(timeout=10)


def consume_and_check(bootstrap, topic, partitions, expected):
    consumer = KafkaConsumer(bootstrap_servers=[bootstrap], group_id=None, enable_auto_commit=False,
                             auto_offset_reset="earliest", **CLIENT_TIMEOUTS)
    try:
        known = set()

        def metadata_ready():
            known.clear()
            known.update(consumer.partitions_for_topic(topic) or ())
            return bool(known)

        wait_until(metadata_ready, METADATA_SECONDS, "metadata of " + topic)
        check(known == set(range(partitions)), "%s has partitions %s, expected 0..%d"
              % (topic, sorted(known), partitions - 1))
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning()

        begin = consumer.beginning_offsets(tps)
        end = consumer.end_offsets(tps)
        for tp in tps:
            check(begin[tp] == 0, "%s starts at %d" % (tp, begin[tp]))
            want = len(expected.get(tp.partition, []))
            check(end[tp] == want, "%s ends at %d, expected %d" % (tp, end[tp], want))

        total = sum(len(v) for v in expected.values())
        next_index = {p: 0 for p in range(partitions)}
        got = 0
        deadline = time.monotonic() + ROUND_TRIP_SECONDS
        while got < total:
            check(time.monotonic() < deadline,
                  "only %d of %d records consumed before the deadline (%s)" % (got, total, next_index))
            for tp, messages in consumer.poll(timeout_ms=1000).items():
                check(tp.topic == topic and tp.partition in next_index, "record from %s" % (tp,))
                sent = expected.get(tp.partition, [])
                for m in messages:
                    n = next_index[tp.partition]
                    check(m.offset == n, "%s: offset %d where %d was next" % (tp, m.offset, n))
                    check(n < len(sent), "%s: more records than produced" % (tp,))
                    i = sent[n]
                    check(m.key == key_of(i), "%s/%d: key %r, expected %r" % (tp, n, m.key, key_of(i)))
                    check(m.value == value_of(i), "%s/%d: value of record #%d differs" % (tp, n, i))
                    next_index[tp.partition] = n + 1
                    got += 1
        # Nothing beyond what was produced.
        extra = consumer.poll(timeout_ms=500)
        check(not any(extra.values()), "records beyond the produced ones: %s" % (extra,))
        return got
    finally:
        consumer.close(autocommit=False)


def round_trip(args):
    expected = produce(args.bootstrap, args.topic, args.records)
    check(sum(len(v) for v in expected.values()) == args.records, "not every record was acknowledged")
    check(set(expected) <= set(range(args.partitions)),
          "records went to partitions %s of %d" % (sorted(expected), args.partitions))
    got = consume_and_check(args.bootstrap, args.topic, args.partitions, expected)
    print("round trip ok: %d records over %d partitions" % (got, len(expected)))


def admin(args):
    client = KafkaAdminClient(bootstrap_servers=[args.bootstrap], **CLIENT_TIMEOUTS)
    try:
        name = args.topic
        check(name not in client.list_topics(), "%s exists before it was created" % name)
        client.create_topics([NewTopic(name, num_partitions=3, replication_factor=1)], timeout_ms=30000)
        wait_until(lambda: name in client.list_topics(), METADATA_SECONDS, "%s to be listed" % name)
        described = client.describe_topics([name])
        check(len(described) == 1 and described[0]["topic"] == name, "describe_topics: %s" % described)
        check(described[0]["error_code"] == 0, "describe_topics: error %d" % described[0]["error_code"])
        indexes = sorted(p["partition"] for p in described[0]["partitions"])
        check(indexes == [0, 1, 2], "%s has partitions %s, expected [0, 1, 2]" % (name, indexes))
        try:
            client.create_topics([NewTopic(name, num_partitions=3, replication_factor=1)], timeout_ms=30000)
            raise Mismatch("creating %s a second time succeeded" % name)
        except TopicAlreadyExistsError:
            pass
        client.delete_topics([name], timeout_ms=30000)
        wait_until(lambda: name not in client.list_topics(), METADATA_SECONDS, "%s to disappear" % name)
        print("admin ok: created, listed, described and deleted %s" % name)
    finally:
        client.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rt = sub.add_parser("round-trip")
    rt.add_argument("--bootstrap", required=True)
    rt.add_argument("--topic", required=True)
    rt.add_argument("--partitions", type=int, required=True)
    rt.add_argument("--records", type=int, default=10000)
    ad = sub.add_parser("admin")
    ad.add_argument("--bootstrap", required=True)
    ad.add_argument("--topic", required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        round_trip(args) if args.command == "round-trip" else admin(args)
    except Mismatch as e:
        print("kafka_python_roundtrip: %s: %s" % (args.command, e), file=sys.stderr)
        return 1
    except Exception:  # a client error: show where it came from
        print("kafka_python_roundtrip: %s failed:" % args.command, file=sys.stderr)
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
