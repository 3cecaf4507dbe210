// Each engine figure's prediction (src/predict) beside its measurement: a
// table per renderer, and for HTML a chart per engine in the spirit of a
// roofline (each resource's ceiling in ops/s, with the measured and predicted
// figure against them). "" when no result carries a prediction.
#pragma once

#include <string>
#include <vector>

#include "src/model/bench_result.h"

namespace disktune {

// "measured 9,120/s, predicted 9,380/s (0.97), bound sync_latency".
std::string PredictionSummary(const bench::BenchResult& b);

std::string RenderPredictionsText(const std::vector<bench::BenchResult>& rs);
std::string RenderPredictionsMarkdown(
    const std::vector<bench::BenchResult>& rs);
std::string RenderPredictionsHtml(const std::vector<bench::BenchResult>& rs);

}  // namespace disktune
