#pragma once
// Request frames from the wire samples, and the random mutations that the in-process
// mutation test (wire_mutation_test.cpp) and the fuzz client against a running server
// (tests/fuzz/fuzz_client.cpp) apply to them.

#include <cstdint>
#include <random>
#include <vector>

#include "wire_samples.hpp"

namespace cafka::wire::test {

/// A request frame body: header v1 (v2 for flexible versions, client id "mutant",
/// `correlation_id`) then the sample's body.
std::vector<char> frame_of(const wire_sample& s, int32_t correlation_id = 7);

/// One random mutation: bit flips, extreme values over a length-sized window, a
/// truncation, an insertion or a deletion.
void mutate(std::vector<char>& bytes, std::mt19937& gen);

} // namespace cafka::wire::test
