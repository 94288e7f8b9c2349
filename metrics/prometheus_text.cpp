#include "metrics/prometheus_text.hpp"

#include <cmath>
#include <cstdio>

namespace cafka::metrics {

std::string format_value(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", value);
  else
    std::snprintf(buf, sizeof buf, "%.9g", value);
  return buf;
}

std::string escape_label(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

void exposition::family(const std::string& name, const std::string& help, const char* type) {
  out_ += "# HELP " + name + " ";
  for (char c : help) // HELP text escapes backslash and newline only
    out_ += c == '\\' ? std::string{"\\\\"} : c == '\n' ? std::string{"\\n"} : std::string(1, c);
  out_ += "\n# TYPE " + name + " " + type + "\n";
}

void exposition::write_labels(const labels& ls) {
  if (ls.empty())
    return;
  out_ += '{';
  for (size_t i = 0; i < ls.size(); ++i) {
    if (i > 0)
      out_ += ',';
    out_ += ls[i].first + "=\"" + escape_label(ls[i].second) + '"';
  }
  out_ += '}';
}

void exposition::sample(const std::string& name, const labels& ls, double value) {
  out_ += name;
  write_labels(ls);
  out_ += ' ' + format_value(value) + '\n';
}

void exposition::sample(const std::string& name, const labels& ls, uint64_t value) {
  out_ += name;
  write_labels(ls);
  out_ += ' ' + std::to_string(value) + '\n';
}

void exposition::sample(const std::string& name, const labels& ls, int64_t value) {
  out_ += name;
  write_labels(ls);
  out_ += ' ' + std::to_string(value) + '\n';
}

void exposition::histogram(const std::string& name, const labels& ls, const histogram_values& h, double scale) {
  uint64_t cumulative = 0;
  auto with_le = ls;
  with_le.emplace_back("le", "");
  for (size_t i = 0; i < latency_bounds_ms.size(); ++i) {
    cumulative += h.buckets[i];
    with_le.back().second = format_value(latency_bounds_ms[i] * scale);
    sample(name + "_bucket", with_le, cumulative);
  }
  with_le.back().second = "+Inf";
  sample(name + "_bucket", with_le, h.count);
  sample(name + "_sum", ls, h.sum_ms * scale);
  sample(name + "_count", ls, h.count);
}

double estimate_quantile(const histogram_values& h, double q) {
  if (h.count == 0)
    return 0;
  auto rank = q * static_cast<double>(h.count);
  uint64_t below = 0;
  for (size_t i = 0; i < h.buckets.size(); ++i) {
    auto in = h.buckets[i];
    if (in > 0 && static_cast<double>(below + in) >= rank) {
      if (i == latency_bounds_ms.size()) // in +Inf: the highest finite bound, as Prometheus
        return latency_bounds_ms.back();
      double lower = i == 0 ? 0 : latency_bounds_ms[i - 1];
      double upper = latency_bounds_ms[i];
      return lower + (upper - lower) * (rank - static_cast<double>(below)) / static_cast<double>(in);
    }
    below += in;
  }
  return latency_bounds_ms.back();
}

} // namespace cafka::metrics
