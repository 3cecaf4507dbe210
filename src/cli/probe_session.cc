#include "src/cli/probe_session.h"

#include "probes/probe_runner.h"
#include "src/app/throttle_session.h"
#include "src/core/output_file.h"

namespace disktune::cli {

Status CheckJsonDestination(const CommonOptions& common) {
  if (common.json_path.empty() || common.json_path == "-") return Status::OK();
  return CheckOutputFile(common.json_path, "--json");
}

Result<ProbeSetup> PlanProbeStep(const CommonOptions& common,
                                 const ProbeFlags& flags) {
  ProbeSetup setup;
  Result<ProbeConfig> config = BuildProbeConfig(flags);
  if (!config.ok()) return config.status();
  Result<std::vector<const Probe*>> probes =
      SelectProbes(flags.probes.empty() ? DefaultProbeIds() : flags.probes);
  if (!probes.ok()) return probes.status().WithContext("--probes");
  DT_RETURN_IF_ERROR(CheckJsonDestination(common));
  Result<std::optional<ThrottleSpec>> throttle =
      app::PlanThrottle(common.throttle);
  if (!throttle.ok()) return throttle.status();
  DT_RETURN_IF_ERROR(app::CheckThrottledProbes(*config, common.throttle));
  if (*throttle) PlanForThrottle(**throttle, &*config);
  setup.plan.config = std::move(*config);
  setup.plan.probes = std::move(*probes);
  setup.throttle = *throttle;
  return setup;
}

}  // namespace disktune::cli
