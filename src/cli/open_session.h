// The Session (src/app/session.h) a measuring command opens from its flags:
// after a killed run's device changes are put back, said on stderr.
#pragma once

#include <memory>
#include <optional>

#include "src/app/session.h"
#include "src/cli/command.h"
#include "src/core/progress.h"
#include "src/model/throttle_spec.h"

namespace disktune::cli {

// `throttle` as app::PlanThrottle returned it for --throttle.
Result<std::unique_ptr<app::Session>> OpenSession(
    CommandContext& ctx, const CommonOptions& opts,
    const std::optional<ThrottleSpec>& throttle, ProgressSink* progress);

}  // namespace disktune::cli
