// The one list of the analyses a report carries under "analyses": each kind
// once, with its JSON key, who writes it, where a human report says it, and
// whether the object under the key reads as its struct. Every kind has a
// struct with to/from JSON beside its writer (the header in `header`); the
// renderers iterate this list rather than naming keys, and
// analysis_registry_test holds it equal to the schema's analyses section
// (reports/schema/report.v1.schema.json).
//
// A new analysis: its struct with kKey and to/from JSON in src/model, its
// member in model::Analyses (src/model/analyses.h), a row here, its schema
// entry, and its hooks (kTextHooks in text_report.cc, kMarkdownHooks,
// kHtmlHooks and kPrometheusHooks have one per kind, checked at compile
// time). Until a renderer has words for it, mark it
// as_written: the text, Markdown and HTML reports then show it as written,
// as they show a key no kind describes.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "src/model/analyses.h"

namespace disktune {

enum class AnalysisId {
  kThrottleByProbe,
  kMemoryBudget,
  kRandReadSaturation,
  kPageCache,
  kLeveldb2011,
  kDurability,
  kWriteCache,
  kChecks,
  kWriteCacheAb,
  kFsMatrix,
  kBytesWritten,
};
inline constexpr size_t kAnalysisKinds = 11;

// Where the text, Markdown and HTML reports say an analysis.
enum class AnalysisPlace {
  kBesideProbeTables,  // lines under each probe family's table
  kAfterBenches,       // under the benchmark table
  kAfterProbes,        // after the probe tables, one paragraph each
  kDurability,         // the durability section
  kWrites,             // the closing line on what the run wrote
};

struct AnalysisKind {
  AnalysisId id;
  const char* key;     // under "analyses", the struct's kKey
  const char* header;  // the struct with its to/from JSON
  const char* writer;  // who puts it in a report
  AnalysisPlace place;
  // True when `analyses` holds this kind (with something to say: a memory
  // budget with rows, at least one check).
  bool (*present)(const model::Analyses& analyses);
  // No renderer has words for it yet: the reports show it as written.
  bool as_written = false;
};

// Every kind, in AnalysisId order (the order a renderer says a place's
// analyses in).
const std::array<AnalysisKind, kAnalysisKinds>& AnalysisKinds();
const AnalysisKind& KindOf(AnalysisId id);
// nullptr for a key no kind has (a probe of a later version; renderers show
// it as it is written).
const AnalysisKind* FindAnalysisKind(std::string_view key);
// Whether the human reports show the analysis under `key` as it is written:
// a key no kind describes, or a kind marked as_written.
bool SaidAsWritten(std::string_view key);

}  // namespace disktune
