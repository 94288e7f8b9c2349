#pragma once
// Whether librdkafka (in kcat or in-process) enabled LZ4 for a broker, read from its
// `debug=feature` log. librdkafka silently sends uncompressed batches when the broker's
// ApiVersions lack what its LZ4 feature needs (e.g. FindCoordinator v0), and records
// still round-trip, so only this log shows that LZ4 was really exercised. (Its
// "not compressing batch" notice is no substitute: it is rate-limited by a timer that
// keeps it silent on a machine up for less than a day.)

#include <sstream>
#include <string>

namespace cafka::test {

/// True if a line of `log` ends in "Enabling feature LZ4", which librdkafka logs when
/// it checked the broker's ApiVersions for what LZ4 needs.
inline bool rdkafka_enabled_lz4(const std::string& log) {
  static const std::string marker = "Enabling feature LZ4";
  std::istringstream in{log};
  for (std::string line; std::getline(in, line);)
    if (line.size() >= marker.size() && line.compare(line.size() - marker.size(), marker.size(), marker) == 0)
      return true;
  return false;
}

} // namespace cafka::test
