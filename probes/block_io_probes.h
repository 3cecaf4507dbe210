// The four block I/O probes share one implementation (BlockIoProbe) and differ
// only in the points they measure, listed as data in their own files.
#pragma once

#include <functional>
#include <vector>

#include "probes/block_io_point.h"
#include "probes/probe.h"

namespace disktune {

std::vector<BlockPoint> SeqReadPoints(const ProbeConfig& config);
std::vector<BlockPoint> RandReadPoints(const ProbeConfig& config);
std::vector<BlockPoint> SeqWritePoints(const ProbeConfig& config);
std::vector<BlockPoint> RandWritePoints(const ProbeConfig& config);
void AnalyzeRandRead(const std::vector<ProbeResult>& results,
                     model::Analyses* analyses);

class BlockIoProbe : public Probe {
 public:
  using PointsFn = std::vector<BlockPoint> (*)(const ProbeConfig&);
  using AnalyzeFn = void (*)(const std::vector<ProbeResult>&, model::Analyses*);
  BlockIoProbe(std::string_view id, std::string_view description,
               PointsFn points, AnalyzeFn analyze = nullptr)
      : id_(id),
        description_(description),
        points_(points),
        analyze_(analyze) {}

  std::string_view id() const override { return id_; }
  std::string_view description() const override { return description_; }
  int PointCount(const ProbeConfig& config) const override {
    return static_cast<int>(points_(config).size());
  }
  void PlanPoints(const ProbeConfig& config,
                  std::vector<PlannedStep>* steps) const override;
  Status Run(ProbeContext& ctx,
             std::vector<ProbeResult>* results) const override;
  void Analyze(const std::vector<ProbeResult>& results,
               model::Analyses* analyses) const override {
    if (analyze_) analyze_(results, analyses);
  }

 private:
  std::string_view id_, description_;
  PointsFn points_;
  AnalyzeFn analyze_;
};

}  // namespace disktune
