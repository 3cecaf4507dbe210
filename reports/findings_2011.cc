#include "reports/findings_2011.h"

#include <cmath>
#include <string>

#include "src/core/json_fields.h"

namespace disktune {
namespace {

using nlohmann::json;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// Which of the page's experiments a result of the set belongs to, from the
// parameters it ran with (the set gives each experiment its own).
std::string Experiment(const bench::BenchResult& b) {
  const EngineOptions& o = b.engine_options;
  if (b.params.value_size_bytes >= 100000) return "large values";
  if (b.params.entries_per_batch > 1) return "batch";
  if (b.params.sync) return "sync";
  if (o.write_buffer_bytes() == 120 * kMiB) return "more memory";
  if (o.cache_bytes() == 120 * kMiB) return "larger cache";
  if (o.compression() == Compression::kNone) return "no compression";
  return "baseline";
}

struct Side {
  const char* experiment;
  const char* engine;
  const char* scenario;
};

struct Finding {
  const char* text;
  Side a;  // ratio = ops/s of a / ops/s of b
  Side b;
  double ratio_2011;
};

// The page's figures (ops/s, median of three runs, 1,000,000 entries).
const Finding kFindings[] = {
    {"LevelDB writes in sequential order faster than Kyoto TreeDB",
     {"baseline", "leveldb", "fillseq"},
     {"baseline", "kyotocabinet", "fillseq"},
     779000.0 / 342000},
    {"LevelDB writes in sequential order faster than SQLite",
     {"baseline", "leveldb", "fillseq"},
     {"baseline", "sqlite3", "fillseq"},
     779000.0 / 48600},
    {"LevelDB writes in random order faster than Kyoto TreeDB",
     {"baseline", "leveldb", "fillrandom"},
     {"baseline", "kyotocabinet", "fillrandom"},
     164000.0 / 88500},
    {"LevelDB writes in random order faster than SQLite",
     {"baseline", "leveldb", "fillrandom"},
     {"baseline", "sqlite3", "fillrandom"},
     164000.0 / 9860},
    {"LevelDB reads in sequential order faster than Kyoto TreeDB",
     {"baseline", "leveldb", "readseq"},
     {"baseline", "kyotocabinet", "readseq"},
     4030000.0 / 1010000},
    {"LevelDB reads in sequential order faster than SQLite",
     {"baseline", "leveldb", "readseq"},
     {"baseline", "sqlite3", "readseq"},
     4030000.0 / 383000},
    {"Kyoto TreeDB has faster random reads than LevelDB",
     {"baseline", "kyotocabinet", "readrandom"},
     {"baseline", "leveldb", "readrandom"},
     151000.0 / 129000},
    {"Kyoto TreeDB has faster random reads than SQLite",
     {"baseline", "kyotocabinet", "readrandom"},
     {"baseline", "sqlite3", "readrandom"},
     151000.0 / 134000},
    {"SQLite writes 100,000-byte values in sequential order faster than "
     "LevelDB",
     {"large values", "sqlite3", "fillseq"},
     {"large values", "leveldb", "fillseq"},
     1600.0 / 1100},
    {"SQLite writes 100,000-byte values in random order faster than LevelDB",
     {"large values", "sqlite3", "fillrandom"},
     {"large values", "leveldb", "fillrandom"},
     1600.0 / 480},
    {"Kyoto TreeDB writes 100,000-byte values in random order faster than "
     "LevelDB",
     {"large values", "kyotocabinet", "fillrandom"},
     {"large values", "leveldb", "fillrandom"},
     1100.0 / 480},
    {"LevelDB's batches of 1000 sequential writes are faster than SQLite's",
     {"batch", "leveldb", "fillbatch"},
     {"batch", "sqlite3", "fillbatch"},
     840000.0 / 124000},
    {"LevelDB's batches of 1000 random writes are faster than SQLite's",
     {"batch", "leveldb", "fillrandbatch"},
     {"batch", "sqlite3", "fillrandbatch"},
     221000.0 / 22000},
    {"LevelDB's synchronous random writes are faster than Kyoto TreeDB's",
     {"sync", "leveldb", "fillrandom"},
     {"sync", "kyotocabinet", "fillrandom"},
     100.0 / 8},
    {"Compression makes LevelDB's sequential writes faster",
     {"baseline", "leveldb", "fillseq"},
     {"no compression", "leveldb", "fillseq"},
     779000.0 / 594000},
    {"Compression makes LevelDB's random writes faster",
     {"baseline", "leveldb", "fillrandom"},
     {"no compression", "leveldb", "fillrandom"},
     164000.0 / 135000},
    {"Turning compression off makes Kyoto TreeDB's random writes faster",
     {"no compression", "kyotocabinet", "fillrandom"},
     {"baseline", "kyotocabinet", "fillrandom"},
     159000.0 / 88500},
    {"A 120 MB write buffer makes LevelDB's random writes faster",
     {"more memory", "leveldb", "fillrandom"},
     {"baseline", "leveldb", "fillrandom"},
     355000.0 / 164000},
    {"A 120 MB cache makes LevelDB's random reads faster",
     {"larger cache", "leveldb", "readrandom"},
     {"baseline", "leveldb", "readrandom"},
     190000.0 / 129000},
    {"A 120 MB cache makes Kyoto TreeDB's random reads faster",
     {"larger cache", "kyotocabinet", "readrandom"},
     {"baseline", "kyotocabinet", "readrandom"},
     463000.0 / 151000},
};

// ops/s of the last successful run of `side` (a repeated readrandom counts
// the run after compactions settled).
const bench::BenchResult* Find(const std::vector<bench::BenchResult>& benches,
                               const Side& side) {
  const bench::BenchResult* found = nullptr;
  for (const bench::BenchResult& b : benches) {
    if (b.set != kCompare2011Set || b.engine != side.engine ||
        b.scenario != side.scenario || b.status != bench::RunStatus::kOk ||
        b.metrics.ops_per_sec <= 0 || Experiment(b) != side.experiment) {
      continue;
    }
    found = &b;
  }
  return found;
}

std::string Describe(const Side& s) {
  return std::string(s.engine) + " " + s.scenario + " (" + s.experiment + ")";
}

double Round3(double v) { return std::round(v * 1000) / 1000; }

}  // namespace

std::optional<Findings2011Check> CheckFindings2011(
    const std::vector<bench::BenchResult>& benches) {
  bool any = false;
  for (const bench::BenchResult& b : benches) any |= b.set == kCompare2011Set;
  if (!any) return std::nullopt;
  Findings2011Check c;
  c.source =
      "the 2011 LevelDB benchmark page (LevelDB vs SQLite 3.7.6.3 vs Kyoto "
      "Cabinet TreeDB, 7200 rpm disks, ext3, 1,000,000 entries)";
  c.rule =
      "a finding still holds when the ratio measured here is on the same "
      "side of 1 as the page's";
  int held = 0, measured = 0;
  for (const Finding& f : kFindings) {
    Finding2011 out;
    out.finding = f.text;
    out.compares = Describe(f.a) + " / " + Describe(f.b);
    out.ratio_2011 = Round3(f.ratio_2011);
    const bench::BenchResult* a = Find(benches, f.a);
    const bench::BenchResult* b = Find(benches, f.b);
    if (a == nullptr || b == nullptr) {
      out.verdict = "not measured (" +
                    std::string(a == nullptr ? Describe(f.a) : Describe(f.b)) +
                    " did not run)";
    } else {
      const double r = a->metrics.ops_per_sec / b->metrics.ops_per_sec;
      const bool holds = (r > 1) == (f.ratio_2011 > 1);
      out.ratio_measured = Round3(r);
      out.verdict = holds ? "still holds" : "no longer holds";
      measured++;
      held += holds ? 1 : 0;
    }
    c.findings.push_back(std::move(out));
  }
  c.summary = std::to_string(held) + " of " + std::to_string(measured) +
              " measured findings still hold";
  return c;
}

}  // namespace disktune
