// `disktune report RESULT.json`: renders a result as text, HTML, Markdown or
// a Prometheus textfile.
#include "reports/html_report.h"
#include "reports/markdown_report.h"
#include "reports/prometheus_report.h"
#include "reports/text_report.h"
#include "src/cli/command.h"
#include "src/cli/report_input.h"

namespace disktune::cli {
namespace {

struct ReportCommandOptions {
  std::string result;
  std::string format = "text";
  std::string out;
  std::string service;
};

int RunReportCommand(const ReportCommandOptions& o, CommandContext& ctx) {
  // Everything the flags can get wrong is refused before the file is read,
  // and nothing is written unless the rendering succeeded.
  static const char* kFormats[] = {"text", "html", "markdown", "prometheus"};
  bool known = false;
  for (const char* f : kFormats) known |= o.format == f;
  if (!known) {
    return Fail(ctx, Status::InvalidArgument(
                         "--format '" + o.format +
                         "' is not a format; valid: text, html, markdown, "
                         "prometheus"));
  }
  if (o.format == "html" && o.out.empty()) {
    return Fail(ctx,
                Status::InvalidArgument("--format html writes a file: pass "
                                        "--out report.html (or --out - for "
                                        "stdout)"));
  }
  if (Status sv = CheckServiceFlag(o.service); !sv.ok()) return Fail(ctx, sv);
  Result<Report> report = LoadResultFile(o.result);
  if (!report.ok()) return Fail(ctx, report.status());
  // A stored summary is the one the run printed; --service asks for another.
  if (!o.service.empty()) ResummarizeReport(o.service, &*report);
  std::string text;
  if (o.format == "text") {
    text = RenderText(*report);
  } else if (o.format == "html") {
    text = RenderHtml(*report);
  } else if (o.format == "markdown") {
    text = RenderMarkdown(*report);
  } else {
    text = RenderPrometheus(*report);
  }
  Status s = WriteOutput(ctx, o.out, text);
  if (!s.ok()) return Fail(ctx, s);
  if (!o.out.empty() && o.out != "-")
    ctx.err << "disktune: wrote " << o.out << "\n";
  return 0;
}

}  // namespace

void SetupReportCommand(CLI::App& app, CommandContext& ctx) {
  auto opts = std::make_shared<ReportCommandOptions>();
  CLI::App* cmd = app.add_subcommand("report",
                                     "render a result JSON as text, a "
                                     "self-contained HTML page, Markdown, or a "
                                     "Prometheus textfile");
  cmd->add_option("RESULT", opts->result,
                  "a result JSON written by probe, bench or run")
      ->required()
      ->type_name("RESULT.json");
  cmd->add_option("--format", opts->format,
                  "text (default), html (one file, opens offline; needs "
                  "--out), markdown (for a "
                  "pull request), prometheus (a node_exporter textfile)")
      ->type_name("FORMAT");
  cmd->add_option(
         "--out", opts->out,
         "write to FILE (atomically) instead of stdout; '-' for stdout")
      ->type_name("FILE");
  AddServiceOption(cmd, &opts->service);
  cmd->callback([opts, &ctx] { ctx.exit_code = RunReportCommand(*opts, ctx); });
}

}  // namespace disktune::cli
