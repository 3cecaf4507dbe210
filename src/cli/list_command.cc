// `disktune list`: what this build can do — probes, engines, scenarios,
// profiles.
#include "engines/engine.h"
#include "engines/engine_settings.h"
#include "probes/probe.h"
#include "src/bench/scenario.h"
#include "src/bench/scenario_sets.h"
#include "src/cli/command.h"
#include "src/cli/profile_dirs.h"

namespace disktune::cli {
namespace {

struct ListOptions {
  CommonOptions common;
};

void Row(std::ostream& os, std::string_view id, std::string_view text) {
  os << "  " << id << std::string(id.size() < 20 ? 20 - id.size() : 1, ' ')
     << text << "\n";
}

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
  j["engine_settings"] = nlohmann::json::array();
  for (const EngineSettingSpec& es : EngineSettingSpecs()) {
    j["engine_settings"].push_back({{"id", es.name},
                                    {"engine", es.engine},
                                    {"values", es.values},
                                    {"default", es.default_value},
                                    {"description", es.help}});
  }
  j["scenarios"] = nlohmann::json::array();
  for (const auto& sc : bench::Scenarios()) {
    j["scenarios"].push_back(
        {{"id", sc.name}, {"description", sc.help}, {"origin", sc.origin}});
  }
  j["scenario_sets"] = nlohmann::json::array();
  for (const auto& set : bench::ScenarioSets()) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& st : set.steps) steps.push_back(st.scenario);
    j["scenario_sets"].push_back(
        {{"id", set.name}, {"description", set.help}, {"steps", steps}});
  }
  // By name (what --profile and --workload take) with the file it reads.
  const std::vector<ProfileEntry> profiles = ListProfiles();
  j["profiles"] = nlohmann::json::array();
  for (const ProfileEntry& p : profiles) {
    j["profiles"].push_back({{"name", p.name}, {"path", p.path}});
  }
  Status s = EmitJson(ctx, o.common, j);
  if (!s.ok()) return Fail(ctx, s);
  std::ostream* human = HumanStream(ctx, o.common);
  if (!human) return 0;
  *human << "probes:\n";
  for (const auto& p : AllProbes()) Row(*human, p->id(), p->description());
  *human << "engines:\n";
  for (const auto& e : AvailableEngines()) Row(*human, e.id, e.description);
  *human << "engine settings (--engine-setting NAME=VALUE):\n";
  for (const EngineSettingSpec& es : EngineSettingSpecs()) {
    Row(*human, es.name,
        std::string(es.values) + ", default " + std::string(es.default_value) +
            ": " + std::string(es.help));
  }
  *human << "scenarios:\n";
  for (const auto& sc : bench::Scenarios()) Row(*human, sc.name, sc.help);
  *human << "scenario sets:\n";
  for (const auto& set : bench::ScenarioSets()) Row(*human, set.name, set.help);
  *human << "profiles (by name: bench --profile NAME, tune --workload NAME):\n";
  for (const ProfileEntry& p : profiles) Row(*human, p.name, p.path);
  return 0;
}

}  // namespace

void SetupListCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ListOptions>();
  CLI::App* cmd = app.add_subcommand(
      "list", "list the probes, engines, scenarios and profiles of this build");
  AddCommonOptions(cmd, &opts->common, /*with_dir=*/false);
  cmd->callback([opts, &ctx] { ctx.exit_code = RunListCommand(*opts, ctx); });
}

}  // namespace disktune::cli
