// The look the two HTML pages share (the report, reports/html_report.h, and
// the fleet page, reports/fleet_render.h): the body, the centred main column
// and the page title. Each page's own rules follow it in its <style>.
#pragma once

namespace disktune {

inline constexpr const char* kPageFrameCss = R"css(
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222;
       margin: 0; background: #fafafa; }
main { max-width: 1180px; margin: 0 auto; padding: 8px 24px 48px; background: #fff; }
h1 { font-size: 26px; margin: 18px 0 4px; }
)css";

}  // namespace disktune
