#pragma once
// The client's type-ID block: the message types a subscription or producer may send
// across actor boundaries. It takes the IDs right after cafka's block
// (actors/type_ids.hpp); configure_client() registers both. producer_record and
// send_callback are local-only unsafe types (record_metadata.hpp) and not listed.

#include <vector>

#include <caf/type_id.hpp>

#include "actors/type_ids.hpp"
#include "client/consumer_records.hpp"
#include "client/group_messages.hpp"
#include "client/record_metadata.hpp"

CAF_BEGIN_TYPE_ID_BLOCK(cafka_client, caf::id_block::cafka_last_type_id + 1)
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::start_position))
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::consumer_records))
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::consumer_error))
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::record_metadata))
  CAF_ADD_TYPE_ID(cafka_client, (std::vector<cafka::client::record_metadata>))
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::partitions_assigned))
  CAF_ADD_TYPE_ID(cafka_client, (cafka::client::partitions_revoked))
CAF_END_TYPE_ID_BLOCK(cafka_client)

static_assert(caf::id_block::cafka_client_first_type_id > caf::id_block::cafka_last_type_id,
              "the client's type IDs must follow cafka's");
