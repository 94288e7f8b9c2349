"""kafka-python 2.0.2 (Debian's python3-kafka) as a group member that commits, for
tests/integration/offsets_failover_test.cpp (run with /usr/bin/python3).

  consume --bootstrap HOST:PORT[,HOST:PORT...] --topic T --group G --count N
      Joins G (auto_offset_reset earliest, no auto commit), polls until it got N records
      (or gives up after 120 s), keeps polling 2 s more so that a re-read would show, prints
      "value V" for every record, then commits synchronously (kafka-python retries a commit
      on COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR / REQUEST_TIMED_OUT after looking for
      the coordinator again) and leaves.

Exit status 0 once the commit succeeded; otherwise 1 with the reason on stderr.
"""

import argparse
import logging
import sys
import time
import traceback

from kafka import KafkaConsumer

CLIENT_TIMEOUTS = dict(request_timeout_ms=30000, api_version_auto_timeout_ms=10000)
GIVE_UP_SECONDS = 120
LINGER_SECONDS = 2


def consume(args):
    consumer = KafkaConsumer(args.topic, bootstrap_servers=args.bootstrap.split(","), group_id=args.group,
                             auto_offset_reset="earliest", enable_auto_commit=False,
                             session_timeout_ms=10000, heartbeat_interval_ms=1000, **CLIENT_TIMEOUTS)
    try:
        got = 0
        deadline = time.monotonic() + GIVE_UP_SECONDS
        linger_until = None
        while time.monotonic() < deadline:
            for _, messages in consumer.poll(timeout_ms=200).items():
                for m in messages:
                    print("value %s" % m.value.decode(), flush=True)
                    got += 1
            if got >= args.count and linger_until is None:
                linger_until = time.monotonic() + LINGER_SECONDS
            if linger_until is not None and time.monotonic() >= linger_until:
                break
        if got < args.count:
            print("kafka_python_commit: got %d of %d records" % (got, args.count), file=sys.stderr)
            return 1
        consumer.commit()
        print("committed", flush=True)
        return 0
    finally:
        consumer.close(autocommit=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("consume")
    p.add_argument("--bootstrap", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--group", required=True)
    p.add_argument("--count", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        return consume(args)
    except Exception:
        print("kafka_python_commit: %s failed:" % args.command, file=sys.stderr)
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
