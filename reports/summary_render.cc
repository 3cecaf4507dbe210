// The summary as the first screen of the text, Markdown and HTML reports:
// the same lines in each, so no format answers differently.
#include <algorithm>

#include "reports/char_escape.h"
#include "reports/render_util.h"
#include "reports/summarize.h"
#include "reports/svg_chart.h"

namespace disktune {
namespace {

constexpr size_t kGatesShown = 3;

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(c));
  return s;
}

std::string OutcomeLabel(const std::string& outcome) {
  if (outcome == "not_measured") return "NOT MEASURED";
  return Upper(outcome);
}

std::string GateText(const SummaryGate& g) {
  std::string t = g.expression + ": ";
  if (g.measured.empty()) return t + (g.detail.empty() ? "-" : g.detail);
  t += g.measured;
  if (!g.part.empty()) t += " " + g.part;
  t += " on " + g.resolved;
  if (g.samples) {
    t += ", " + Thousands(static_cast<double>(*g.samples)) + " samples";
    if (g.samples_needed && *g.samples < *g.samples_needed) {
      t += " (fewer than the " +
           Thousands(static_cast<double>(*g.samples_needed)) + " it needs)";
    }
  }
  if (g.outcome == "unreliable" && !g.detail.empty()) t += "; " + g.detail;
  return t;
}

std::string DurabilityText(const SummaryDurability& d) {
  std::string t = d.title;
  std::string why;
  if (d.flushes_per_sync) {
    why = Fixed(*d.flushes_per_sync, 2) + " device flushes per sync";
    if (!d.disk.empty()) why += " on " + d.disk;
  }
  if (d.volatile_cache.value_or(false)) {
    why += std::string(why.empty() ? "" : "; ") +
           "the disk's write cache is volatile: durable writes depend on "
           "those flushes";
  }
  return why.empty() ? t : t + " (" + why + ")";
}

std::string BoundText(const Summary& s) {
  if (s.bounds.empty()) {
    return "not predicted (the bench figures in this report carry no "
           "prediction)";
  }
  std::string t;
  for (size_t i = 0; i < s.bounds.size(); i++) {
    const SummaryBound& b = s.bounds[i];
    bool new_engine = i == 0 || s.bounds[i - 1].engine != b.engine;
    t += (i ? (new_engine ? "; " : ", ") : "") +
         (new_engine ? b.engine + ": " : std::string()) + b.bound + " (" +
         b.scenario + ")";
  }
  return t;
}

std::string SetText(const SummarySetting& s) {
  if (s.action == "apply_profile") {
    std::string t =
        "apply " +
        (s.profile_path.empty() ? std::string("the profile") : s.profile_path);
    if (!s.changes.empty()) {
      std::string c;
      for (const auto& x : s.changes) c += (c.empty() ? "" : ", ") + x;
      t += " (" + c + ")";
    }
    return t + (s.reason.empty() ? "" : ": " + s.reason);
  }
  if (s.action == "keep_defaults") {
    std::string t = "keep the defaults";
    // The tuner's verdict often ends by saying so itself.
    std::string reason = s.reason;
    const std::string tail = ": keep the defaults";
    if (reason.size() >= tail.size() &&
        reason.compare(reason.size() - tail.size(), tail.size(), tail) == 0)
      reason.resize(reason.size() - tail.size());
    if (!reason.empty()) t += ": " + reason;
    if (!s.profile_path.empty())
      t += " (the profile, " + s.profile_path + ", records them)";
    return t;
  }
  return "nothing measured to set: " + s.reason;
}

std::string ConditionsText(const SummaryConditions& c) {
  auto load = [](const std::optional<double>& v) {
    return v ? Fixed(*v, 2) : std::string("not recorded");
  };
  std::string t = "1-minute load " + load(c.load_average_1m_before) +
                  " before, " + load(c.load_average_1m_after) + " after, on " +
                  std::to_string(c.cpu_count) + " CPUs (busy above " +
                  Fixed(c.busy_above_load, 2) + "): ";
  if (!c.other_io.empty()) t = c.other_io + "; " + t;
  return t + (c.busy ? "BUSY, a missed gate is not a verdict on the disk"
                     : "quiet");
}

struct Line {
  std::string label;
  std::string text;
};

std::vector<Line> Lines(const Summary& s) {
  std::vector<Line> out;
  out.push_back({"verdict", s.headline + " (gates: check preset " + s.gate_set +
                                ", service from " + s.service_from + ")"});
  for (size_t i = 0; i < s.gates.size() && i < kGatesShown; i++) {
    out.push_back({OutcomeLabel(s.gates[i].outcome), GateText(s.gates[i])});
  }
  if (s.gates.size() > kGatesShown) {
    out.push_back({"", std::to_string(s.gates.size() - kGatesShown) +
                           " more gates in the JSON"});
  }
  out.push_back({"durability",
                 s.durability ? DurabilityText(*s.durability)
                              : "not measured (the fsync probe's flush check "
                                "did not run: disktune probe or run does)"});
  out.push_back({"bound", BoundText(s)});
  out.push_back({"set", SetText(s.set)});
  out.push_back({"conditions", ConditionsText(s.conditions)});
  return out;
}

std::string HtmlEscape(std::string_view s) { return svg::Escape(s); }

std::string MdEscape(std::string_view s) {
  return EscapeChars(
      s,
      {{'|', "\\|"}, {'\n', " "}, {'<', "&lt;"}, {'>', "&gt;"}, {'`', "\\`"}});
}

}  // namespace

std::string SummaryText(const Summary& s) {
  std::string out;
  for (const Line& l : Lines(s)) {
    std::string label = l.label.empty() ? "" : l.label + ":";
    label.resize(std::max<size_t>(label.size(), 14), ' ');
    out += label + l.text + "\n";
  }
  return out;
}

std::string SummaryMarkdown(const Summary& s) {
  std::string out = "### Verdict\n\n| | |\n| --- | --- |\n";
  for (const Line& l : Lines(s)) {
    out += "| **" + MdEscape(l.label) + "** | " + MdEscape(l.text) + " |\n";
  }
  return out;
}

std::string SummaryHtml(const Summary& s) {
  std::string cls = s.verdict == "fit"       ? "pass"
                    : s.verdict == "not_fit" ? "fail"
                                             : "warn";
  std::string out = "<section id=\"verdict\"><h2>Verdict</h2>\n<table>\n";
  bool first = true;
  for (const Line& l : Lines(s)) {
    std::string td = first ? "<td class=\"" + cls + "\"><b>" : "<td>";
    out += "<tr><th>" + HtmlEscape(l.label) + "</th>" + td +
           HtmlEscape(l.text) + (first ? "</b>" : "") + "</td></tr>\n";
    first = false;
  }
  return out + "</table>\n</section>\n";
}

}  // namespace disktune
