#include "src/cli/open_session.h"

#include "src/cli/restore_command.h"

namespace disktune::cli {

Result<std::unique_ptr<app::Session>> OpenSession(
    CommandContext& ctx, const CommonOptions& opts,
    const std::optional<ThrottleSpec>& throttle, ProgressSink* progress) {
  DT_RETURN_IF_ERROR(RecoverFromKilledRun(ctx));
  app::SessionOptions o;
  o.dir = opts.dir;
  o.keep = opts.keep;
  o.throttle = throttle;
  return app::Session::Open(o, progress);
}

}  // namespace disktune::cli
