#pragma once
// Prometheus' text exposition format (version 0.0.4): each family's # HELP and # TYPE
// lines once, before its samples; label values escaped (\\ \" \n); every line ends in \n.
//
//   exposition out;
//   out.family("kafka_server_brokertopicmetrics_messagesin_total", "Messages appended", "counter");
//   out.sample("kafka_server_brokertopicmetrics_messagesin_total", {{"topic", "t"}}, 42);
//   out.text();

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "metrics/broker_metrics.hpp"

namespace cafka::metrics {

using labels = std::vector<std::pair<std::string, std::string>>;

class exposition {
public:
  /// Starts a family; its samples follow. `type`: counter, gauge, histogram, summary.
  void family(const std::string& name, const std::string& help, const char* type);
  void sample(const std::string& name, const labels& ls, double value);
  void sample(const std::string& name, const labels& ls, uint64_t value);
  void sample(const std::string& name, const labels& ls, int64_t value);
  /// A histogram family's samples: name_bucket{le} (cumulative, +Inf = count), name_sum and
  /// name_count, the bounds and sum scaled by `scale` (1e-3: milliseconds to seconds).
  void histogram(const std::string& name, const labels& ls, const histogram_values& h, double scale);

  const std::string& text() const noexcept { return out_; }

private:
  void write_labels(const labels& ls);
  std::string out_;
};

/// The value in the format's syntax: integers without a fraction, NaN, +Inf, -Inf.
std::string format_value(double value);
/// `text` escaped as a label value.
std::string escape_label(const std::string& text);

/// The `q` quantile (0..1) estimated from the histogram's buckets, in milliseconds, as
/// Prometheus' histogram_quantile() does (linear within the bucket; 0 when empty).
double estimate_quantile(const histogram_values& h, double q);

} // namespace cafka::metrics
