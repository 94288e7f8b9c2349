"""kafka-python 2.0.2 (Debian's python3-kafka) reads a whole topic for cafka's integration tests
(tests/integration/replication_test.cpp runs it with /usr/bin/python3).

  kafka_python_read_all.py --bootstrap HOST:PORT[,HOST:PORT...] --topic T --partitions N

A KafkaConsumer without a group (assign + seek_to_beginning) reads every partition from its
beginning offset to its end offset (ListOffsets latest, i.e. the high watermark, taken once at
the start) and prints one line per record: "<partition> <offset> <value>" (the value as text, NULL for a
tombstone).
The caller does the checking. Exit status 0 once every partition reached its end offset;
otherwise 1 with the reason on stderr. Every wait is bounded.
"""

import argparse
import logging
import sys
import time
import traceback

from kafka import KafkaConsumer, TopicPartition

CLIENT_TIMEOUTS = dict(request_timeout_ms=30000, api_version_auto_timeout_ms=10000)
READ_SECONDS = 180
METADATA_SECONDS = 30


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--partitions", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    consumer = None
    try:
        consumer = KafkaConsumer(bootstrap_servers=args.bootstrap.split(","), group_id=None,
                                 enable_auto_commit=False, auto_offset_reset="earliest", **CLIENT_TIMEOUTS)
        deadline = time.monotonic() + METADATA_SECONDS
        while not consumer.partitions_for_topic(args.topic):
            if time.monotonic() > deadline:
                raise RuntimeError("no metadata for %s" % args.topic)
            time.sleep(0.2)
        tps = [TopicPartition(args.topic, p) for p in range(args.partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning()
        end = consumer.end_offsets(tps)
        out = []
        deadline = time.monotonic() + READ_SECONDS
        while any(consumer.position(tp) < end[tp] for tp in tps):
            if time.monotonic() > deadline:
                left = {tp.partition: (consumer.position(tp), end[tp]) for tp in tps}
                raise RuntimeError("not at the end before the deadline (position, end): %s" % left)
            for tp, messages in consumer.poll(timeout_ms=1000, max_records=5000).items():
                for m in messages:
                    if m.offset < end[tp]:
                        value = m.value.decode() if m.value is not None else "NULL"  # a tombstone
                        out.append("%d %d %s" % (tp.partition, m.offset, value))
        sys.stdout.write("".join(line + "\n" for line in out))
        return 0
    except Exception:
        print("kafka_python_read_all failed:", file=sys.stderr)
        traceback.print_exc()
        return 1
    finally:
        if consumer is not None:
            consumer.close(autocommit=False)


if __name__ == "__main__":
    sys.exit(main())
