#pragma once
// Operational log lines on stderr: "2026-11-29T08:00:00.123Z cafka: <message>".
// One fprintf per line, so lines from different threads do not interleave.

namespace cafka {

void log_line(const char* format, ...) __attribute__((format(printf, 1, 2)));

} // namespace cafka
