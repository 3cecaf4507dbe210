// What the rules (rules.cc, rocksdb_rules.cc) share: the figures' text and
// the facts derived from the input that more than one rule reads. Only the
// rule files include it, so both call these by their plain names.
#pragma once

#include <cstdint>
#include <string>

#include "src/tune/rules.h"

namespace disktune::tune {

std::string Bytes(double b);      // "48 MiB"
std::string Micros(uint64_t ns);  // "250 us"
std::string Percent(double f);    // "40%"
std::string MBps(double bps);     // "150 MB/s"

// Rounds up to a power of two (sizes an operator recognises: 16 MiB).
uint64_t RoundUpPow2(uint64_t v);

// How far reads reach the device at full size: the data exceeds what the
// page cache can hold next to the engine's own budget, or the workload
// evicts it (UTXO pulses).
bool ReadsHitDevice(const RuleInput& in);

}  // namespace disktune::tune
