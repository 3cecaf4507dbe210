// Fuzz target for the JSON readers: a result file goes through the bounded
// parser, ReportFromJson and every consumer of a result (text, HTML,
// Markdown and Prometheus renderings, compare, check). Anything but a clean
// Status (or a nlohmann::json exception, which the command line turns into
// one line and exit 2) is a bug: a crash, an abort, a hang, unbounded memory.
//
// LLVMFuzzerTestOneInput is the libFuzzer entry point (build this file with
// clang -fsanitize=fuzzer to explore for hours). The test below drives it in
// the default suite for a bounded time with a structure-aware mutator seeded
// from the crafted result in reports/testdata, from a fixed seed so a failure
// reproduces.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "reports/check.h"
#include "reports/compare.h"
#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/prometheus_report.h"
#include "reports/text_report.h"
#include "src/core/json_input.h"
#include "src/model/report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace disktune;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<nlohmann::json> j = ParseJsonInput(text, "fuzz input");
  if (!j.ok()) return 0;
  try {
    Result<Report> r = ReportFromJson(*j);
    if (!r.ok()) return 0;
    (void)RenderText(*r);
    (void)RenderHtml(*r);
    (void)RenderMarkdown(*r);
    (void)RenderPrometheus(*r);
    (void)CompareReports(*r, *r, "a", "b", CompareOptions{});
    for (const CheckPreset& p : CheckPresets()) {
      auto reqs = PresetRequirements(p.name);
      if (reqs.ok()) (void)EvaluateRequirements(*r, *reqs);
    }
  } catch (const nlohmann::json::exception&) {
    // Handled by the command line: one line, exit 2.
  }
  return 0;
}

namespace disktune {
namespace {

// One random change to a parsed document: a node replaced by a value of
// another type, removed, or nested deeper.
void MutateTree(nlohmann::json& j, std::mt19937_64& rng) {
  nlohmann::json* node = &j;
  // Walk down a random path.
  for (int depth = 0; depth < 12 && node->is_structured() && !node->empty();
       depth++) {
    if (rng() % 4 == 0) break;
    size_t i = rng() % node->size();
    if (node->is_array()) {
      node = &(*node)[i];
    } else {
      auto it = node->begin();
      std::advance(it, static_cast<long>(i));
      node = &it.value();
    }
  }
  switch (rng() % 9) {
    case 0:
      *node = nullptr;
      break;
    case 1:
      *node = static_cast<int64_t>(rng()) >> (rng() % 64);
      break;
    case 2:
      *node = -1.0e308 * static_cast<double>(rng() % 3);
      break;
    case 3:
      *node = std::string(rng() % 3 ? "" : "\xe2\x82\xac x/../..");
      break;
    case 4:
      *node = nlohmann::json::array();
      break;
    case 5:
      *node = nlohmann::json::object({{"x", 1}});
      break;
    case 6:
      *node = rng() % 2 == 0;
      break;
    case 7:
      if (node->is_structured() && !node->empty()) node->erase(node->begin());
      break;
    default:
      for (int k = 0; k < 8; k++) *node = nlohmann::json::array({*node});
      break;
  }
}

void MutateBytes(std::string& s, std::mt19937_64& rng) {
  if (s.empty()) return;
  size_t at = rng() % s.size();
  switch (rng() % 4) {
    case 0:
      s[at] = static_cast<char>(rng());
      break;
    case 1:
      s.erase(at, rng() % 16);
      break;
    case 2:
      s.insert(at, s.substr(rng() % s.size(), rng() % 32));
      break;
    default:
      s.insert(at, 1, "{}[],:\"0-e\\"[rng() % 12]);
      break;
  }
}

TEST(JsonReaderFuzz, BoundedRunFindsNoCrash) {
  std::ifstream in(std::string(DISKTUNE_TEST_SOURCE_DIR) +
                   "/reports/testdata/crafted_report.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string seed_text = ss.str();
  ASSERT_FALSE(seed_text.empty());
  const nlohmann::json seed = nlohmann::json::parse(seed_text);
  std::mt19937_64 rng(20261122);
  // Bounded in time, so the suite stays quick; a failure names the case.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int cases = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::string input;
    if (cases % 4 == 3) {
      input = seed_text;
      for (int k = 0; k < 1 + static_cast<int>(rng() % 8); k++)
        MutateBytes(input, rng);
    } else {
      nlohmann::json doc = seed;
      for (int k = 0; k < 1 + static_cast<int>(rng() % 4); k++)
        MutateTree(doc, rng);
      input = doc.dump();
    }
    SCOPED_TRACE("case " + std::to_string(cases));
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()),
                           input.size());
    cases++;
  }
  EXPECT_GT(cases, 100);
  std::cout << cases << " mutated results read without a crash\n";
}

}  // namespace
}  // namespace disktune
