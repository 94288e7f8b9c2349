// DescribeClientQuotas from the broker's quota registry; AlterClientQuotas through the
// quota actor, answered once the change is stored (actors/quota_admin.hpp).
#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/quota_admin.hpp"
#include "cluster/client_quota_admin.hpp"

namespace cafka {

namespace {

void send(const kafka_reply& reply, const wire::alter_client_quotas_response& resp) {
  auto version = reply.version();
  reply.send([&](wire::byte_writer& w) { wire::encode_alter_client_quotas_response(resp, version, w); });
}

} // namespace

void serve(const kafka_services& s, wire::describe_client_quotas_request&& req, const kafka_reply& reply) {
  auto resp = s.quotas ? cluster::describe_quotas(s.quotas->table(), req)
                       : cluster::describe_quotas(cluster::quota_table{}, req);
  auto version = reply.version();
  reply.send([&](wire::byte_writer& w) { wire::encode_describe_client_quotas_response(resp, version, w); });
}

void serve(const kafka_services& s, wire::alter_client_quotas_request&& req, const kafka_reply& reply) {
  if (!s.quota_admin) {
    send(reply, cluster::failed_alteration(req, "this listener stores no client quotas"));
    return;
  }
  auto entries = std::make_shared<wire::alter_client_quotas_request>(req);
  s.self->request(s.quota_admin, caf::infinite, alter_quotas_atom::value, std::move(req))
    .then([reply](wire::alter_client_quotas_response& resp) { send(reply, resp); },
          [reply, entries](caf::error& err) {
            send(reply, cluster::failed_alteration(*entries, "the quota actor failed: " + describe(err)));
          });
}

} // namespace cafka
