// Result files written before ProbeParams carried a durability point's
// filesystem, cache state and variant encoded them in the point's name only.
// This is the one place that reads them back from names; everything else
// reads ProbeParams.
#pragma once

#include "src/model/probe_result.h"

namespace disktune {

// Fills the typed fields an fsync result's name encodes and its params left
// unset ("fsync.fs.<fs>.", ".cache_off.", "fsync.pg.<comparison>",
// ".write_cache_ab", ".fillsync.<engine>"). Fields already set are kept, so
// results written by this version pass through unchanged.
void FillParamsFromLegacyName(ProbeResult* r);

}  // namespace disktune
