"""kafka-python 2.0.2's KafkaAdminClient reading and changing configs on a cafka broker, for
tests/integration/configs_test.cpp (run with /usr/bin/python3).

  --bootstrap HOST:PORT --topic T --broker ID
      describe_configs of topic T and of broker ID (DescribeConfigs v2, synonyms), then
      alter_configs of T (AlterConfigs v1: the whole override set is replaced) and a bad value.

Prints one line per finding ("key=value source=N" for the keys looked at, "alter error=N",
"bad error=N"); the caller checks them. Exit 1 with the reason on stderr when a call fails.
"""

import argparse
import sys
import traceback

from kafka import KafkaAdminClient
from kafka.admin import ConfigResource, ConfigResourceType

WATCHED = ("retention.ms", "segment.bytes", "cleanup.policy", "leader.replication.throttled.rate", "num.partitions")


def print_configs(label, responses):
    for response in responses:
        for error_code, _message, _type, name, entries in response.resources:
            if error_code != 0:
                print(f"{label} {name} error={error_code}")
                continue
            print(f"{label} {name} entries={len(entries)}")
            for entry in entries:
                key, value, _read_only, source = entry[0], entry[1], entry[2], entry[3]
                if key in WATCHED:
                    print(f"{label} {key}={value} source={source}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bootstrap", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--broker", required=True)
    args = parser.parse_args()
    admin = KafkaAdminClient(bootstrap_servers=args.bootstrap, request_timeout_ms=30000,
                             api_version_auto_timeout_ms=10000)
    try:
        print_configs("before", admin.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, args.topic)], include_synonyms=True))
        print_configs("broker", admin.describe_configs(
            [ConfigResource(ConfigResourceType.BROKER, args.broker)], include_synonyms=True))
        altered = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, args.topic,
                                                      configs={"retention.ms": "7200000"})])
        for error_code, _message, _type, _name in altered.resources:
            print(f"alter error={error_code}")
        print_configs("after", admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, args.topic)]))
        bad = admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, args.topic,
                                                  configs={"retention.ms": "soon"})])
        for error_code, message, _type, _name in bad.resources:
            print(f"bad error={error_code} message={message}")
    finally:
        admin.close()


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001 - the caller wants the reason
        traceback.print_exc()
        sys.exit(1)
