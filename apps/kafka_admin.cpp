#include "apps/kafka_admin.hpp"

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <sstream>

#include "apps/rdkafka_handle.hpp"
#include "apps/tool_args.hpp"

namespace cafka::tools {

namespace {

template <class T, void (*Destroy)(T*)>
struct destroy_with {
  void operator()(T* x) const { Destroy(x); }
};
template <class T, void (*Destroy)(T*)>
using owned = std::unique_ptr<T, destroy_with<T, Destroy>>;

using admin_options = owned<rd_kafka_AdminOptions_t, rd_kafka_AdminOptions_destroy>;
using event = owned<rd_kafka_event_t, rd_kafka_event_destroy>;
using queue = owned<rd_kafka_queue_t, rd_kafka_queue_destroy>;
using partition_list = owned<rd_kafka_topic_partition_list_t, rd_kafka_topic_partition_list_destroy>;

[[noreturn]] void throw_failure(rd_kafka_resp_err_t err, const char* message) {
  throw kafka_failure(error_name(err), message && *message ? message : rd_kafka_err2str(err));
}

void check(rd_kafka_resp_err_t err, const char* message = nullptr) {
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw_failure(err, message);
}

void check(const rd_kafka_error_t* error) {
  if (error)
    throw_failure(rd_kafka_error_code(error), rd_kafka_error_string(error));
}

partition_list to_list(const std::vector<storage::topic_partition>& tps) {
  partition_list out{rd_kafka_topic_partition_list_new(static_cast<int>(tps.size()))};
  for (auto& tp : tps)
    rd_kafka_topic_partition_list_add(out.get(), tp.topic.c_str(), tp.partition);
  return out;
}

} // namespace

struct kafka_admin::impl {
  rd_kafka_t* rk = nullptr;
  int request_timeout_ms = 30000;

  ~impl() {
    if (rk)
      rd_kafka_destroy(rk);
  }

  admin_options options(rd_kafka_admin_op_t op) {
    admin_options opts{rd_kafka_AdminOptions_new(rk, op)};
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(opts.get(), request_timeout_ms, errstr, sizeof errstr);
    if (op == RD_KAFKA_ADMIN_OP_CREATETOPICS || op == RD_KAFKA_ADMIN_OP_DELETETOPICS
        || op == RD_KAFKA_ADMIN_OP_CREATEPARTITIONS) // answered once the change is made
      rd_kafka_AdminOptions_set_operation_timeout(opts.get(), request_timeout_ms, errstr, sizeof errstr);
    return opts;
  }

  // Waits for the result of an admin call made on `q`; throws on a request-level error.
  event wait(const queue& q) {
    event ev{rd_kafka_queue_poll(q.get(), request_timeout_ms + 5000)};
    if (!ev)
      throw kafka_failure("REQUEST_TIMED_OUT", "no answer in time");
    check(rd_kafka_event_error(ev.get()), rd_kafka_event_error_string(ev.get()));
    return ev;
  }

  void check_topic_results(const rd_kafka_topic_result_t** results, size_t n) {
    for (size_t i = 0; i < n; ++i)
      check(rd_kafka_topic_result_error(results[i]), rd_kafka_topic_result_error_string(results[i]));
  }

  void check_group_result(const rd_kafka_group_result_t** results, size_t n) {
    for (size_t i = 0; i < n; ++i)
      check(rd_kafka_group_result_error(results[i]));
  }
};

kafka_admin::kafka_admin(const std::string& bootstrap, int connect_timeout_ms, int request_timeout_ms)
    : impl_(std::make_unique<impl>()) {
  impl_->request_timeout_ms = request_timeout_ms;
  impl_->rk = make_rdkafka(RD_KAFKA_PRODUCER, {{"bootstrap.servers", bootstrap},
                                               {"client.id", "cafka-tools"},
                                               {"socket.timeout.ms", std::to_string(std::max(request_timeout_ms, 10))},
                                               {"log_level", "0"}}) // trouble is reported by the calls, once
                 .release();
  if (auto why = unreachable(impl_->rk, connect_timeout_ms))
    throw *why;
}

kafka_admin::~kafka_admin() = default;

kafka_metadata kafka_admin::metadata() {
  const rd_kafka_metadata_t* md = nullptr;
  check(rd_kafka_metadata(impl_->rk, 1, nullptr, &md, impl_->request_timeout_ms));
  owned<const rd_kafka_metadata_t, rd_kafka_metadata_destroy> guard{md};
  kafka_metadata out;
  for (int i = 0; i < md->broker_cnt; ++i)
    out.brokers.push_back({md->brokers[i].id, md->brokers[i].host, md->brokers[i].port});
  for (int i = 0; i < md->topic_cnt; ++i) {
    auto& t = md->topics[i];
    kafka_topic topic{t.topic, t.err ? error_name(t.err) : "", {}};
    for (int j = 0; j < t.partition_cnt; ++j) {
      auto& p = t.partitions[j];
      kafka_partition part{p.id, p.err ? error_name(p.err) : "", p.leader, {}, {}};
      part.replicas.assign(p.replicas, p.replicas + p.replica_cnt);
      part.isr.assign(p.isrs, p.isrs + p.isr_cnt);
      topic.partitions.push_back(std::move(part));
    }
    std::sort(topic.partitions.begin(), topic.partitions.end(), [](auto& a, auto& b) { return a.id < b.id; });
    out.topics.push_back(std::move(topic));
  }
  std::sort(out.topics.begin(), out.topics.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return out;
}

void kafka_admin::create_topic(const new_topic& t) {
  char errstr[512] = "";
  bool assigned = !t.assignments.empty();
  auto partitions = assigned ? static_cast<int>(t.assignments.size()) : t.partitions;
  owned<rd_kafka_NewTopic_t, rd_kafka_NewTopic_destroy> nt{
    rd_kafka_NewTopic_new(t.name.c_str(), partitions, assigned ? -1 : t.replication_factor, errstr, sizeof errstr)};
  if (!nt)
    throw kafka_failure("INVALID_REQUEST", errstr);
  for (size_t p = 0; p < t.assignments.size(); ++p) {
    auto& ids = t.assignments[p];
    check(rd_kafka_NewTopic_set_replica_assignment(nt.get(), static_cast<int32_t>(p), const_cast<int32_t*>(ids.data()),
                                                   ids.size(), errstr, sizeof errstr),
          errstr);
  }
  for (auto& [k, v] : t.configs)
    check(rd_kafka_NewTopic_set_config(nt.get(), k.c_str(), v.c_str()));
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = nt.get();
  rd_kafka_CreateTopics(impl_->rk, &raw, 1, impl_->options(RD_KAFKA_ADMIN_OP_CREATETOPICS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &n);
  impl_->check_topic_results(results, n);
}

void kafka_admin::delete_topic(const std::string& name) {
  owned<rd_kafka_DeleteTopic_t, rd_kafka_DeleteTopic_destroy> dt{rd_kafka_DeleteTopic_new(name.c_str())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = dt.get();
  rd_kafka_DeleteTopics(impl_->rk, &raw, 1, impl_->options(RD_KAFKA_ADMIN_OP_DELETETOPICS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** results = rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev.get()), &n);
  impl_->check_topic_results(results, n);
}

void kafka_admin::create_partitions(const std::string& topic, int32_t total,
                                    const std::vector<std::vector<int32_t>>& assignments) {
  char errstr[512] = "";
  owned<rd_kafka_NewPartitions_t, rd_kafka_NewPartitions_destroy> np{
    rd_kafka_NewPartitions_new(topic.c_str(), static_cast<size_t>(total), errstr, sizeof errstr)};
  if (!np)
    throw kafka_failure("INVALID_REQUEST", errstr);
  for (size_t i = 0; i < assignments.size(); ++i) {
    auto& ids = assignments[i];
    check(rd_kafka_NewPartitions_set_replica_assignment(np.get(), static_cast<int32_t>(i),
                                                        const_cast<int32_t*>(ids.data()), ids.size(), errstr,
                                                        sizeof errstr),
          errstr);
  }
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = np.get();
  rd_kafka_CreatePartitions(impl_->rk, &raw, 1, impl_->options(RD_KAFKA_ADMIN_OP_CREATEPARTITIONS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** results = rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(ev.get()), &n);
  impl_->check_topic_results(results, n);
}

std::map<std::string, std::string> kafka_admin::topic_overrides(const std::string& topic) {
  owned<rd_kafka_ConfigResource_t, rd_kafka_ConfigResource_destroy> res{
    rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = res.get();
  rd_kafka_DescribeConfigs(impl_->rk, &raw, 1, impl_->options(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** described = rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &n);
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < n; ++i) {
    check(rd_kafka_ConfigResource_error(described[i]), rd_kafka_ConfigResource_error_string(described[i]));
    size_t entries = 0;
    auto** configs = rd_kafka_ConfigResource_configs(described[i], &entries);
    for (size_t j = 0; j < entries; ++j)
      if (rd_kafka_ConfigEntry_source(configs[j]) == RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG) {
        auto* value = rd_kafka_ConfigEntry_value(configs[j]);
        out[rd_kafka_ConfigEntry_name(configs[j])] = value ? value : "";
      }
  }
  return out;
}

std::pair<int64_t, int64_t> kafka_admin::watermarks(const storage::topic_partition& tp) {
  int64_t low = -1, high = -1;
  check(rd_kafka_query_watermark_offsets(impl_->rk, tp.topic.c_str(), tp.partition, &low, &high,
                                         impl_->request_timeout_ms));
  return {low, high};
}

std::vector<group_listing> kafka_admin::list_groups() {
  queue q{rd_kafka_queue_new(impl_->rk)};
  rd_kafka_ListConsumerGroups(impl_->rk, impl_->options(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS).get(), q.get());
  auto ev = impl_->wait(q);
  auto* result = rd_kafka_event_ListConsumerGroups_result(ev.get());
  size_t errors = 0;
  auto** errs = rd_kafka_ListConsumerGroups_result_errors(result, &errors);
  if (errors > 0) // a broker that could not be asked: its groups are unknown
    check(errs[0]);
  size_t n = 0;
  auto** valid = rd_kafka_ListConsumerGroups_result_valid(result, &n);
  std::vector<group_listing> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back({rd_kafka_ConsumerGroupListing_group_id(valid[i]),
                   rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupListing_state(valid[i]))});
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.id < b.id; });
  out.erase(std::unique(out.begin(), out.end(), [](auto& a, auto& b) { return a.id == b.id; }), out.end());
  return out;
}

group_info kafka_admin::describe_group(const std::string& id) {
  queue q{rd_kafka_queue_new(impl_->rk)};
  const char* groups[] = {id.c_str()};
  rd_kafka_DescribeConsumerGroups(impl_->rk, groups, 1,
                                  impl_->options(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** described = rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
  if (n != 1)
    throw kafka_failure("UNKNOWN_SERVER_ERROR", "no description of group '" + id + "'");
  auto* d = described[0];
  check(rd_kafka_ConsumerGroupDescription_error(d));
  group_info out;
  out.id = id;
  out.state = rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(d));
  if (auto* assignor = rd_kafka_ConsumerGroupDescription_partition_assignor(d))
    out.assignor = assignor;
  for (size_t i = 0; i < rd_kafka_ConsumerGroupDescription_member_count(d); ++i) {
    auto* m = rd_kafka_ConsumerGroupDescription_member(d, i);
    group_member member{rd_kafka_MemberDescription_consumer_id(m), rd_kafka_MemberDescription_client_id(m),
                        rd_kafka_MemberDescription_host(m), {}};
    if (auto* a = rd_kafka_MemberDescription_assignment(m))
      if (auto* list = rd_kafka_MemberAssignment_partitions(a))
        for (int j = 0; j < list->cnt; ++j)
          member.assignment.push_back({list->elems[j].topic, list->elems[j].partition});
    out.members.push_back(std::move(member));
  }
  return out;
}

std::map<storage::topic_partition, int64_t> kafka_admin::committed_offsets(const std::string& id) {
  owned<rd_kafka_ListConsumerGroupOffsets_t, rd_kafka_ListConsumerGroupOffsets_destroy> ask{
    rd_kafka_ListConsumerGroupOffsets_new(id.c_str(), nullptr)}; // every partition
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = ask.get();
  rd_kafka_ListConsumerGroupOffsets(impl_->rk, &raw, 1,
                                    impl_->options(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** groups = rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev.get()), &n);
  impl_->check_group_result(groups, n);
  std::map<storage::topic_partition, int64_t> out;
  for (size_t i = 0; i < n; ++i)
    if (auto* list = rd_kafka_group_result_partitions(groups[i]))
      for (int j = 0; j < list->cnt; ++j)
        if (list->elems[j].offset >= 0)
          out[{list->elems[j].topic, list->elems[j].partition}] = list->elems[j].offset;
  return out;
}

void kafka_admin::alter_offsets(const std::string& id, const std::map<storage::topic_partition, int64_t>& offsets) {
  partition_list list{rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size()))};
  for (auto& [tp, offset] : offsets)
    rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition)->offset = offset;
  owned<rd_kafka_AlterConsumerGroupOffsets_t, rd_kafka_AlterConsumerGroupOffsets_destroy> alter{
    rd_kafka_AlterConsumerGroupOffsets_new(id.c_str(), list.get())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = alter.get();
  rd_kafka_AlterConsumerGroupOffsets(impl_->rk, &raw, 1,
                                     impl_->options(RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** groups = rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
  impl_->check_group_result(groups, n);
  for (size_t i = 0; i < n; ++i)
    if (auto* parts = rd_kafka_group_result_partitions(groups[i]))
      for (int j = 0; j < parts->cnt; ++j)
        check(parts->elems[j].err);
}

std::map<storage::topic_partition, kafka_admin::deleted_records>
kafka_admin::delete_records(const std::vector<std::pair<storage::topic_partition, int64_t>>& before_offsets) {
  partition_list list{rd_kafka_topic_partition_list_new(static_cast<int>(before_offsets.size()))};
  for (auto& [tp, offset] : before_offsets)
    rd_kafka_topic_partition_list_add(list.get(), tp.topic.c_str(), tp.partition)->offset = offset;
  owned<rd_kafka_DeleteRecords_t, rd_kafka_DeleteRecords_destroy> del{rd_kafka_DeleteRecords_new(list.get())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = del.get();
  auto opts = impl_->options(RD_KAFKA_ADMIN_OP_DELETERECORDS);
  char errstr[256];
  // How long the leaders wait for their followers to delete too.
  rd_kafka_AdminOptions_set_operation_timeout(opts.get(), impl_->request_timeout_ms, errstr, sizeof errstr);
  rd_kafka_DeleteRecords(impl_->rk, &raw, 1, opts.get(), q.get());
  auto ev = impl_->wait(q);
  std::map<storage::topic_partition, deleted_records> out;
  if (auto* parts = rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(ev.get())))
    for (int i = 0; i < parts->cnt; ++i) {
      auto& e = parts->elems[i];
      out[{e.topic, e.partition}] = e.err ? deleted_records{-1, error_name(e.err)} : deleted_records{e.offset, ""};
    }
  return out;
}

void kafka_admin::delete_group(const std::string& id) {
  owned<rd_kafka_DeleteGroup_t, rd_kafka_DeleteGroup_destroy> del{rd_kafka_DeleteGroup_new(id.c_str())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = del.get();
  rd_kafka_DeleteGroups(impl_->rk, &raw, 1, impl_->options(RD_KAFKA_ADMIN_OP_DELETEGROUPS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** groups = rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev.get()), &n);
  impl_->check_group_result(groups, n);
}

std::map<storage::topic_partition, std::string>
kafka_admin::delete_offsets(const std::string& id, const std::vector<storage::topic_partition>& tps) {
  auto list = to_list(tps);
  owned<rd_kafka_DeleteConsumerGroupOffsets_t, rd_kafka_DeleteConsumerGroupOffsets_destroy> del{
    rd_kafka_DeleteConsumerGroupOffsets_new(id.c_str(), list.get())};
  queue q{rd_kafka_queue_new(impl_->rk)};
  auto* raw = del.get();
  rd_kafka_DeleteConsumerGroupOffsets(impl_->rk, &raw, 1,
                                      impl_->options(RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS).get(), q.get());
  auto ev = impl_->wait(q);
  size_t n = 0;
  auto** groups
    = rd_kafka_DeleteConsumerGroupOffsets_result_groups(rd_kafka_event_DeleteConsumerGroupOffsets_result(ev.get()), &n);
  impl_->check_group_result(groups, n);
  std::map<storage::topic_partition, std::string> out;
  for (size_t i = 0; i < n; ++i)
    if (auto* parts = rd_kafka_group_result_partitions(groups[i]))
      for (int j = 0; j < parts->cnt; ++j)
        out[{parts->elems[j].topic, parts->elems[j].partition}] = parts->elems[j].err ? error_name(parts->elems[j].err) : "";
  return out;
}

std::unique_ptr<kafka_admin> reach_admin(const char* tool, const std::string& bootstrap, int connect_timeout_ms,
                                         int request_timeout_ms) {
  try {
    return std::make_unique<kafka_admin>(bootstrap, connect_timeout_ms, request_timeout_ms);
  } catch (const kafka_failure& f) {
    fail(tool, "cannot reach broker at " + bootstrap + ": " + f.what());
  }
}

std::vector<std::vector<int32_t>> parse_replica_assignment(const std::string& text) {
  std::vector<std::vector<int32_t>> out;
  std::stringstream partitions{text};
  for (std::string partition; std::getline(partitions, partition, ',');) {
    std::vector<int32_t> brokers;
    std::stringstream ids{partition};
    for (std::string id; std::getline(ids, id, ':');)
      brokers.push_back(static_cast<int32_t>(parse_integer(id, "replica-assignment", 0, 2147483647)));
    out.push_back(std::move(brokers));
  }
  if (out.empty() || text.back() == ',')
    throw usage_error("--replica-assignment: expected broker ids like 1:2:3,2:3:1");
  return out;
}

} // namespace cafka::tools
