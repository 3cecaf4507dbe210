// `disktune list`: what this build can do — probes, engines, scenarios, profiles.
#include "engines/engine.h"
#include "probes/probe.h"
#include "src/cli/command.h"

namespace disktune::cli {
namespace {

struct ListOptions {
  CommonOptions common;
};

int RunListCommand(const ListOptions& o, CommandContext& ctx) {
  nlohmann::json j;
  j["probes"] = nlohmann::json::array();
  for (const auto& p : AllProbes()) {
    j["probes"].push_back({{"id", p->id()}, {"description", p->description()}});
  }
  j["engines"] = nlohmann::json::array();
  for (const auto& e : AvailableEngines()) {
    j["engines"].push_back({{"id", e.id},
                            {"description", e.description},
                            {"in_memory_mode", e.has_in_memory_mode}});
  }
  Status s = EmitJson(ctx, o.common, j);
  if (!s.ok()) return Fail(ctx, s);
  std::ostream* human = HumanStream(ctx, o.common);
  if (!human) return 0;
  *human << "probes:\n";
  for (const auto& p : AllProbes()) {
    *human << "  " << std::string(p->id()) << std::string(14 - std::min<size_t>(13, p->id().size()), ' ')
           << p->description() << "\n";
  }
  *human << "engines:\n";
  for (const auto& e : AvailableEngines()) {
    *human << "  " << std::string(e.id) << std::string(14 - std::min<size_t>(13, e.id.size()), ' ')
           << e.description << "\n";
  }
  return 0;
}

}  // namespace

void SetupListCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ListOptions>();
  CLI::App* cmd =
      app.add_subcommand("list", "list the probes, engines, scenarios and profiles of this build");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/false);
  cmd->callback([opts, &ctx] { ctx.exit_code = RunListCommand(*opts, ctx); });
}

}  // namespace disktune::cli
