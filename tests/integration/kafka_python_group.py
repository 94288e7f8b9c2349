"""kafka-python 2.0.2 (Debian's python3-kafka) consumer groups against a Kafka broker, for
cafka's integration tests (tests/integration/consumer_group_test.cpp runs it with
/usr/bin/python3).

  takeover --bootstrap HOST:PORT --topic T --group G
      T has 6 partitions. Produces 100 records per partition, then starts three `member`
      processes of group G (session 6 s, heartbeat 1 s). They must come to hold 2
      partitions each, all 6 together. One is killed with SIGKILL; the other two must then
      hold all 6 (3 each) within the session timeout plus a margin, and consume 100 more
      records per partition. Every produced record must have been consumed by some member
      (at least once: members commit automatically after processing).
  member --bootstrap HOST:PORT --topic T --group G [--strategy range|roundrobin]
         [--ready FILE] [--seconds N] [--max-poll-ms MS] [--stall-after-assign S]
      One consumer of T in G (auto_offset_reset earliest). Prints "assigned P,P,..." each
      time its assignment changes and "consumed P O" for every record; creates FILE once it
      holds a partition. Runs until killed, or N seconds. With --stall-after-assign it stops
      polling for S seconds once it holds a partition (printing "stalling"), as a consumer
      stuck in its processing would; its heartbeat thread keeps running.
  slowpoll --bootstrap HOST:PORT --topic T --group G
      T has 6 partitions. Two members share them 3/3; one of them (max.poll.interval.ms 5 s)
      then stops polling for 60 s. As with Kafka, it must leave the group once its poll
      interval is over although its process lives and heartbeats, and the other member must
      come to hold all 6 while it still stalls.

  admin --bootstrap HOST:PORT --topic T --group G
      Starts one `member` process of G and, once it holds all partitions of T, checks what
      KafkaAdminClient shows: list_consumer_groups() has (G, "consumer");
      describe_consumer_groups([G, <unknown group>]) gives G as Stable with that one member
      (kafka-python client id, its subscription to T and its assignment of every partition
      of T) and the unknown group as Dead without members.

  grow --bootstrap HOST:PORT --topic T --group G --to N
      One consumer of G holds every partition of T; KafkaAdminClient.create_partitions then
      grows T to N partitions (and a request for fewer must fail with InvalidPartitionsError).
      A running producer and the consumer (metadata max age 1 s) must pick the new partitions
      up: the producer sends one record to each of the N partitions, the consumer comes to hold
      all N and consumes a record of each new one.

Exit status 0 when every check passes; otherwise 1 with the reason on stderr. Every wait is
bounded; the caller kills the process if it still hangs.
"""

import argparse
import logging
import os
import signal
import subprocess
import sys
import threading
import time
import traceback

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewPartitions
from kafka.errors import InvalidPartitionsError
from kafka.coordinator.assignors.range import RangePartitionAssignor
from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

CLIENT_TIMEOUTS = dict(request_timeout_ms=30000, api_version_auto_timeout_ms=10000)
SESSION_MS = 6000
PARTITIONS = 6
RECORDS_PER_PARTITION = 100
# Generous bounds that only stop a hang; the takeover time is printed, not asserted.
FORM_SECONDS = 90
TAKEOVER_SECONDS = SESSION_MS / 1000 + 30
CONSUME_SECONDS = 90


class Mismatch(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Mismatch(message)


def wait_until(predicate, seconds, what):
    """Waits for predicate(); `what()` describes what is missing when it gives up."""
    deadline = time.monotonic() + seconds
    while not predicate():
        check(time.monotonic() < deadline, "gave up waiting (%d s) for %s" % (seconds, what()))
        time.sleep(0.1)


# -- member ---------------------------------------------------------------------------------

def member(args):
    assignors = {"range": [RangePartitionAssignor], "roundrobin": [RoundRobinPartitionAssignor],
                 "default": [RangePartitionAssignor, RoundRobinPartitionAssignor]}[args.strategy]
    consumer = KafkaConsumer(args.topic, bootstrap_servers=[args.bootstrap], group_id=args.group,
                             session_timeout_ms=SESSION_MS, heartbeat_interval_ms=1000,
                             max_poll_interval_ms=args.max_poll_ms,
                             auto_offset_reset="earliest", partition_assignment_strategy=assignors,
                             **CLIENT_TIMEOUTS)
    deadline = time.monotonic() + args.seconds
    shown = None
    try:
        while time.monotonic() < deadline:
            for tp, messages in consumer.poll(timeout_ms=200).items():
                for m in messages:
                    print("consumed %d %d" % (tp.partition, m.offset), flush=True)
            held = sorted(tp.partition for tp in consumer.assignment())
            if held != shown:
                shown = held
                print("assigned " + ",".join(str(p) for p in held), flush=True)
                if held and args.ready:
                    open(args.ready, "w").close()
                if held and args.stall_after_assign:
                    print("stalling", flush=True)
                    time.sleep(args.stall_after_assign)
                    args.stall_after_assign = 0
    finally:
        consumer.close()


# -- takeover -------------------------------------------------------------------------------

class Member:
    """A `member` process and what it printed, read by a thread."""

    def __init__(self, name, args, extra=()):
        self.name = name
        self.lock = threading.Lock()
        self.assigned = None  # the last assignment printed
        self.stalling = False
        self.consumed = set()  # (partition, offset)
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "member", "--bootstrap", args.bootstrap,
             "--topic", args.topic, "--group", args.group] + list(extra),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.errors = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            words = line.split()
            with self.lock:
                if words and words[0] == "stalling":
                    self.stalling = True
                elif words and words[0] == "assigned":
                    self.assigned = [int(p) for p in words[1].split(",")] if len(words) > 1 else []
                elif len(words) == 3 and words[0] == "consumed":
                    self.consumed.add((int(words[1]), int(words[2])))

    def _read_errors(self):
        for line in self.proc.stderr:
            with self.lock:
                self.errors.append(line)

    def holds(self):
        with self.lock:
            return list(self.assigned or [])

    def is_stalling(self):
        with self.lock:
            return self.stalling

    def seen(self):
        with self.lock:
            return set(self.consumed)

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def split_evenly(members, per_member):
    """Each member holds `per_member` partitions and together they hold each partition once."""
    held = [m.holds() for m in members]
    return (all(len(h) == per_member for h in held)
            and sorted(p for h in held for p in h) == list(range(PARTITIONS)))


def produce(bootstrap, topic, start):
    """RECORDS_PER_PARTITION records into every partition; returns the offsets they got."""
    producer = KafkaProducer(bootstrap_servers=[bootstrap], acks="all", linger_ms=5,
                             max_block_ms=30000, **CLIENT_TIMEOUTS)
    try:
        futures = [producer.send(topic, value=b"record-%d-%d" % (p, start + i), partition=p)
                   for p in range(PARTITIONS) for i in range(RECORDS_PER_PARTITION)]
        producer.flush(timeout=60)
        return {(f.get(timeout=1).partition, f.get(timeout=1).offset) for f in futures}
    finally:
        producer.close(timeout=10)


def takeover(args):
    produced = produce(args.bootstrap, args.topic, 0)
    members = [Member("member-%d" % i, args) for i in range(3)]
    try:
        wait_until(lambda: split_evenly(members, 2), FORM_SECONDS,
                   lambda: "3 members holding 2 partitions each (they hold %s)" % [m.holds() for m in members])
        print("formed: %s" % [m.holds() for m in members])
        victim, survivors = members[0], members[1:]
        victim.stop(signal.SIGKILL)
        killed_at = time.monotonic()
        wait_until(lambda: split_evenly(survivors, 3), TAKEOVER_SECONDS,
                   lambda: "2 members holding 3 partitions each after the kill (they hold %s)"
                   % [m.holds() for m in survivors])
        print("taken over after %.1f s: %s" % (time.monotonic() - killed_at, [m.holds() for m in survivors]))
        produced |= produce(args.bootstrap, args.topic, RECORDS_PER_PARTITION)

        def consumed():
            return set().union(*(m.seen() for m in members))

        wait_until(lambda: produced <= consumed(), CONSUME_SECONDS,
                   lambda: "every record consumed (%d of %d)" % (len(produced & consumed()), len(produced)))
        check(consumed() <= produced, "consumed records that were never produced: %s"
              % sorted(consumed() - produced)[:10])
        print("takeover ok: 3 members held 2 partitions each, 2 took over all %d, %d records consumed"
              % (PARTITIONS, len(produced)))
    finally:
        for m in members:
            m.stop()
        for m in members:
            if m.errors and any("Traceback" in line for line in m.errors):
                print("%s stderr:\n%s" % (m.name, "".join(m.errors)), file=sys.stderr)


# -- slowpoll ------------------------------------------------------------------------------

def slowpoll(args):
    produce(args.bootstrap, args.topic, 0)
    steady = Member("steady", args)
    members = [steady]
    try:
        # The slow one joins second, so that it stalls in a group of two.
        wait_until(lambda: sorted(steady.holds()) == list(range(PARTITIONS)), FORM_SECONDS,
                   lambda: "the first member holding all %d (it holds %s)" % (PARTITIONS, steady.holds()))
        slow = Member("slow", args, ["--max-poll-ms", "5000", "--stall-after-assign", "60"])
        members.append(slow)
        wait_until(lambda: slow.is_stalling() and split_evenly(members, 3), FORM_SECONDS,
                   lambda: "2 members holding 3 partitions each (they hold %s)" % [m.holds() for m in members])
        stalled_at = time.monotonic()
        print("formed: %s" % [m.holds() for m in members])
        wait_until(lambda: sorted(steady.holds()) == list(range(PARTITIONS)), 5 + TAKEOVER_SECONDS,
                   lambda: "the steady member holding all %d (it holds %s)" % (PARTITIONS, steady.holds()))
        check(slow.proc.poll() is None, "the stalled member's process ended")
        check(slow.is_stalling(), "the stalled member stopped stalling")
        print("slowpoll ok: the stalled member left after its poll interval; the other took over all %d "
              "after %.1f s" % (PARTITIONS, time.monotonic() - stalled_at))
    finally:
        for m in members:
            m.stop()


# -- admin ----------------------------------------------------------------------------------

def admin(args):
    member = Member("member", args)
    client = None
    try:
        probe = KafkaConsumer(bootstrap_servers=[args.bootstrap], **CLIENT_TIMEOUTS)
        partitions = sorted(probe.partitions_for_topic(args.topic) or [])
        probe.close()
        check(partitions, "topic %s has no partitions" % args.topic)
        wait_until(lambda: member.holds() == partitions, FORM_SECONDS,
                   lambda: "the member holding %s (it holds %s)" % (partitions, member.holds()))
        client = KafkaAdminClient(bootstrap_servers=[args.bootstrap], **CLIENT_TIMEOUTS)

        listed = client.list_consumer_groups()
        print("listed: %s" % sorted(listed))
        check((args.group, "consumer") in listed, "%s not listed as a consumer group" % args.group)

        unknown = args.group + "-never-joined"
        described = client.describe_consumer_groups([args.group, unknown])
        print("described: %s" % (described,))
        check(len(described) == 2, "2 descriptions expected")
        group, dead = described
        check(group.error_code == 0 and group.group == args.group, "error or wrong group: %s" % (group,))
        check(group.state == "Stable", "state %s, not Stable" % group.state)
        check(group.protocol_type == "consumer", "protocol type %r" % group.protocol_type)
        check(group.protocol in ("range", "roundrobin"), "protocol %r" % group.protocol)
        check(len(group.members) == 1, "%d members, not 1" % len(group.members))
        m = group.members[0]
        check(m.member_id and m.client_id.startswith("kafka-python"), "member %s" % (m,))
        check(m.client_host, "no client host")
        check(list(m.member_metadata.subscription) == [args.topic],
              "subscription %s" % (m.member_metadata.subscription,))
        held = sorted(tp.partition for tp in m.member_assignment.partitions() if tp.topic == args.topic)
        check(held == partitions, "assignment %s, not %s" % (held, partitions))
        check(dead.error_code == 0 and dead.group == unknown and dead.state == "Dead"
              and not dead.members and dead.protocol_type == "", "unknown group: %s" % (dead,))
        print("admin ok: %s listed, described Stable with 1 member holding %d partitions, %s Dead"
              % (args.group, len(partitions), unknown))
    finally:
        if client is not None:
            client.close()
        member.stop()
        if member.errors and any("Traceback" in line for line in member.errors):
            print("member stderr:\n%s" % "".join(member.errors), file=sys.stderr)

# -- grow -----------------------------------------------------------------------------------

def grow(args):
    consumer = KafkaConsumer(args.topic, bootstrap_servers=[args.bootstrap], group_id=args.group,
                             session_timeout_ms=SESSION_MS, heartbeat_interval_ms=1000,
                             auto_offset_reset="earliest", metadata_max_age_ms=1000, **CLIENT_TIMEOUTS)
    producer = KafkaProducer(bootstrap_servers=[args.bootstrap], acks="all", metadata_max_age_ms=1000,
                             max_block_ms=30000, **CLIENT_TIMEOUTS)
    client = KafkaAdminClient(bootstrap_servers=[args.bootstrap], **CLIENT_TIMEOUTS)
    consumed = set()  # partitions a record was consumed from

    def held():
        return sorted(tp.partition for tp in consumer.assignment())

    def poll_until(predicate, seconds, what):
        deadline = time.monotonic() + seconds
        while not predicate():
            check(time.monotonic() < deadline, "gave up waiting (%d s) for %s" % (seconds, what()))
            for tp, messages in consumer.poll(timeout_ms=100).items():
                if messages:
                    consumed.add(tp.partition)

    try:
        before = sorted(producer.partitions_for(args.topic))
        check(before and len(before) < args.to, "topic %s has %s partitions" % (args.topic, before))
        poll_until(lambda: held() == before, FORM_SECONDS,
                   lambda: "the consumer holding %s (it holds %s)" % (before, held()))
        client.create_partitions({args.topic: NewPartitions(total_count=args.to)})
        grown_at = time.monotonic()
        try:
            client.create_partitions({args.topic: NewPartitions(total_count=args.to - 1)})
            check(False, "growing %s to %d partitions after %d was accepted" % (args.topic, args.to - 1, args.to))
        except InvalidPartitionsError as e:
            print("fewer refused: %s" % e)
        everything = list(range(args.to))
        poll_until(lambda: sorted(producer.partitions_for(args.topic)) == everything, FORM_SECONDS,
                   lambda: "the producer seeing %d partitions (it sees %s)"
                   % (args.to, sorted(producer.partitions_for(args.topic))))
        print("producer saw %d partitions after %.1f s" % (args.to, time.monotonic() - grown_at))
        sent = [producer.send(args.topic, value=b"grown-%d" % p, partition=p) for p in everything]
        producer.flush(timeout=60)
        for f in sent:
            f.get(timeout=1)
        new = set(range(len(before), args.to))
        poll_until(lambda: held() == everything and new <= consumed, FORM_SECONDS,
                   lambda: "the consumer holding %s and reading %s (it holds %s, read %s)"
                   % (everything, sorted(new), held(), sorted(consumed)))
        print("consumer held and read all %d partitions after %.1f s" % (args.to, time.monotonic() - grown_at))
    finally:
        client.close()
        producer.close(timeout=10)
        consumer.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("takeover", "member", "admin", "slowpoll", "grow"):
        p = sub.add_parser(name)
        p.add_argument("--bootstrap", required=True)
        p.add_argument("--topic", required=True)
        p.add_argument("--group", required=True)
        if name == "member":
            p.add_argument("--strategy", choices=["default", "range", "roundrobin"], default="default")
            p.add_argument("--ready")
            p.add_argument("--seconds", type=float, default=600)
            p.add_argument("--max-poll-ms", type=int, default=300000)
            p.add_argument("--stall-after-assign", type=float, default=0)
        if name == "grow":
            p.add_argument("--to", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.command == "member":
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        {"takeover": takeover, "member": member, "admin": admin, "slowpoll": slowpoll,
         "grow": grow}[args.command](args)
    except Mismatch as e:
        print("kafka_python_group: %s: %s" % (args.command, e), file=sys.stderr)
        return 1
    except Exception:  # a client error: show where it came from
        print("kafka_python_group: %s failed:" % args.command, file=sys.stderr)
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
