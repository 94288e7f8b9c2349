#pragma once
// What the log cleaner (actors/log_cleaner.hpp) and the partition actors say to each other.
// Local messages only: a cleaning job holds file descriptors.

#include <cstdint>
#include <memory>

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/atom.hpp>

#include "storage/topic_partition.hpp"

namespace cafka::storage {
class clean_job;
}

namespace cafka {

/// (clean_status_atom, int64_t now_ms) -> clean_candidate
using clean_status_atom = caf::atom_constant<caf::atom("cleanstat")>;
/// (clean_prepare_atom, int64_t now_ms) -> clean_job_handle (empty: nothing due any more)
using clean_prepare_atom = caf::atom_constant<caf::atom("cleanprep")>;
/// (clean_complete_atom, clean_job_handle) -> clean_report
using clean_complete_atom = caf::atom_constant<caf::atom("cleandone")>;

/// How dirty a partition's log is (storage/cleaning_plan.hpp); due = worth a round now.
struct clean_candidate {
  storage::topic_partition tp;
  double dirty_ratio = 0;
  bool due = false;
};

/// One round, prepared by the partition and run by a cleaner worker.
struct clean_job_handle {
  std::shared_ptr<storage::clean_job> job;
};

/// What a round did to a partition.
struct clean_report {
  storage::topic_partition tp;
  bool swapped = false; ///< false: the log changed while the round ran; nothing changed
  int64_t first_dirty = 0;
  int64_t map_end = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t records_read = 0;
  uint64_t records_kept = 0;
};

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::clean_candidate)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::clean_job_handle)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::clean_report)
