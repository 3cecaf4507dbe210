// The HTML report as a browser shows it: headless Chromium, driven by
// chromedriver over its HTTP API on localhost, opens the page rendered from
// the crafted result and the test checks that every chart is an SVG with a
// non-zero size and bars in it, that no text spills out of its chart, that
// the page fetched nothing (it must open offline) and that the console has no
// errors. A full-page screenshot is kept at <build>/artifacts/report.png.
//
// The page carries no script: the measuring JavaScript is sent by the test
// through WebDriver's execute endpoint. Skips (with the reason) when chromium
// or chromedriver is not installed.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "tests/binary_runner.h"

namespace disktune::testing {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string FindProgram(const std::string& name) {
  const char* path = getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string p = dir + "/" + name;
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return "";
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    close(fd);
    return -1;
  }
  int port = ntohs(a.sin_port);
  close(fd);
  return port;
}

std::string Dechunk(const std::string& body) {
  std::string out;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t eol = body.find("\r\n", pos);
    if (eol == std::string::npos) break;
    size_t n = std::stoul(body.substr(pos, eol - pos), nullptr, 16);
    if (n == 0) break;
    out += body.substr(eol + 2, n);
    pos = eol + 2 + n + 2;
  }
  return out;
}

struct HttpReply {
  int status = 0;  // 0: no connection
  json body;
};

// One request per connection (Connection: close), enough for WebDriver.
HttpReply Http(int port, const std::string& method, const std::string& path,
               const json& body = nullptr) {
  HttpReply reply;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  timeval tv{60, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    close(fd);
    return reply;
  }
  std::string payload = body.is_null() ? "" : body.dump();
  std::string req =
      method + " " + path +
      " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
      "\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: " +
      std::to_string(payload.size()) + "\r\nConnection: close\r\n\r\n" +
      payload;
  size_t sent = 0;
  while (sent < req.size()) {
    ssize_t n = write(fd, req.data() + sent, req.size() - sent);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  // chromedriver may keep the connection open whatever the request says, so
  // the reply ends where its Content-Length (or last chunk) says, not at EOF.
  std::string resp;
  char buf[65536];
  ssize_t n;
  size_t head_end = std::string::npos;
  std::string head;
  while ((n = read(fd, buf, sizeof(buf))) > 0) {
    resp.append(buf, static_cast<size_t>(n));
    if (head_end == std::string::npos) {
      head_end = resp.find("\r\n\r\n");
      if (head_end == std::string::npos) continue;
      head = resp.substr(0, head_end);
      for (char& c : head) c = static_cast<char>(std::tolower(c));
    }
    size_t body_len = resp.size() - head_end - 4;
    if (size_t cl = head.find("content-length:"); cl != std::string::npos) {
      if (body_len >= std::stoul(head.substr(cl + 15))) break;
    } else if (head.find("transfer-encoding: chunked") != std::string::npos) {
      if (resp.size() >= 5 &&
          resp.compare(resp.size() - 5, 5, "0\r\n\r\n") == 0)
        break;
    }
  }
  close(fd);
  if (resp.rfind("HTTP/1.", 0) != 0 || head_end == std::string::npos)
    return reply;
  reply.status = std::stoi(resp.substr(9, 3));
  std::string content = resp.substr(head_end + 4);
  if (head.find("transfer-encoding: chunked") != std::string::npos)
    content = Dechunk(content);
  reply.body = json::parse(content, nullptr, false);
  return reply;
}

std::string Base64Decode(const std::string& in) {
  static const std::string kChars =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int val = 0, bits = -8;
  for (char c : in) {
    size_t d = kChars.find(c);
    if (d == std::string::npos) continue;  // '=' and whitespace
    val = (val << 6) + static_cast<int>(d);
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((val >> bits) & 0xFF));
      bits -= 8;
    }
  }
  return out;
}

// chromedriver as a child process, stopped (by its pid) when the test ends.
class ChromeDriver {
 public:
  ChromeDriver(const std::string& bin, int port, const std::string& log)
      : port_(port) {
    pid_ = fork();
    if (pid_ == 0) {
      int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      std::string p = "--port=" + std::to_string(port);
      execl(bin.c_str(), bin.c_str(), p.c_str(), "--allowed-ips=127.0.0.1",
            nullptr);
      _exit(127);
    }
  }
  ~ChromeDriver() {
    if (!session_.empty()) Http(port_, "DELETE", "/session/" + session_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool WaitReady() {
    for (int i = 0; i < 100; i++) {
      HttpReply r = Http(port_, "GET", "/status");
      if (r.status == 200 && r.body.is_object() &&
          r.body["value"].value("ready", false)) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  HttpReply Call(const std::string& method, const std::string& path,
                 const json& body = nullptr) {
    return Http(port_, method, "/session/" + session_ + path, body);
  }
  std::string session_;

 private:
  int port_;
  pid_t pid_ = -1;
};

// Measures in the page: every svg's box, its bars and lines, text that
// leaves its chart, and every resource the page fetched.
constexpr const char* kMeasure = R"js(
const out = {svgs: [], resources: [], height: 0};
for (const s of document.querySelectorAll('svg')) {
  const r = s.getBoundingClientRect();
  const e = {label: s.getAttribute('aria-label') || '', width: r.width, height: r.height,
             bars: 0, zero_bars: 0, marks: 0, spilled: []};
  for (const b of s.querySelectorAll('rect.bar')) {
    const br = b.getBoundingClientRect();
    e.bars++;
    if (!(br.width > 0 && br.height > 0)) e.zero_bars++;
  }
  e.marks = s.querySelectorAll('polyline, circle').length;
  for (const t of s.querySelectorAll('text')) {
    const tr = t.getBoundingClientRect();
    if (tr.left < r.left - 2 || tr.right > r.right + 2 || tr.top < r.top - 2 ||
        tr.bottom > r.bottom + 2) {
      e.spilled.push(t.textContent);
    }
  }
  out.svgs.push(e);
}
out.resources = performance.getEntriesByType('resource').map(x => x.name);
out.height = Math.ceil(document.documentElement.scrollHeight);
return out;
)js";

TEST(HtmlRenderTest, ChartsRenderInChromium) {
  std::string chromium = FindProgram("chromium");
  std::string driver = FindProgram("chromedriver");
  if (chromium.empty() || driver.empty()) {
    GTEST_SKIP()
        << "needs chromium and chromedriver (Debian packages chromium, "
           "chromium-driver; scripts/setup.sh installs them)";
  }
  std::string tmpl = fs::temp_directory_path().string() + "/html_render_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  std::string work = tmpl;
  std::string html = work + "/report.html";
  RunOutput r = RunDisktune(
      {"report", SourceDir() + "/reports/testdata/crafted_report.json",
       "--format", "html", "--out", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  int port = FreePort();
  ASSERT_GT(port, 0);
  {
    ChromeDriver cd(driver, port, work + "/chromedriver.log");
    ASSERT_TRUE(cd.WaitReady())
        << "chromedriver did not start; see " << work << "/chromedriver.log";
    json caps = {
        {"capabilities",
         {{"alwaysMatch",
           {{"goog:chromeOptions",
             {{"binary", chromium},
              {"args",
               {"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--user-data-dir=" + work + "/profile",
                "--window-size=1280,1000"}}}},
            {"goog:loggingPrefs", {{"browser", "ALL"}}}}}}}};
    HttpReply s = Http(port, "POST", "/session", caps);
    ASSERT_EQ(s.status, 200) << s.body.dump();
    cd.session_ = s.body["value"]["sessionId"].get<std::string>();

    HttpReply nav = cd.Call("POST", "/url", {{"url", "file://" + html}});
    ASSERT_EQ(nav.status, 200) << nav.body.dump();
    HttpReply m = cd.Call("POST", "/execute/sync",
                          {{"script", kMeasure}, {"args", json::array()}});
    ASSERT_EQ(m.status, 200) << m.body.dump();
    const json& v = m.body["value"];

    // The crafted report has 13 charts (html_report_test counts them in the
    // text).
    ASSERT_EQ(v["svgs"].size(), 13u) << v.dump();
    for (const json& svg : v["svgs"]) {
      std::string label = svg["label"];
      EXPECT_GT(svg["width"].get<double>(), 100) << label;
      EXPECT_GT(svg["height"].get<double>(), 50) << label;
      EXPECT_GT(svg["bars"].get<int>() + svg["marks"].get<int>(), 0)
          << label << ": empty chart";
      EXPECT_EQ(svg["zero_bars"], 0) << label;
      EXPECT_TRUE(svg["spilled"].empty())
          << label << ": text outside the chart: " << svg["spilled"].dump();
    }
    EXPECT_TRUE(v["resources"].empty())
        << "the page fetched " << v["resources"].dump();

    HttpReply logs = cd.Call("POST", "/se/log", {{"type", "browser"}});
    ASSERT_EQ(logs.status, 200) << logs.body.dump();
    for (const json& e : logs.body["value"]) {
      EXPECT_NE(e.value("level", ""), "SEVERE") << e.dump();
    }

    // The whole page in one screenshot, kept as a test artifact.
    int height = std::min(v["height"].get<int>() + 20, 16000);
    cd.Call("POST", "/window/rect", {{"width", 1280}, {"height", height}});
    HttpReply shot = cd.Call("GET", "/screenshot");
    ASSERT_EQ(shot.status, 200);
    std::string png = Base64Decode(shot.body["value"].get<std::string>());
    ASSERT_EQ(png.substr(1, 3), "PNG");
    std::string artifacts =
        fs::path(DisktuneBin()).parent_path().string() + "/artifacts";
    fs::create_directories(artifacts);
    std::ofstream(artifacts + "/report.png", std::ios::binary) << png;
    std::ofstream(artifacts + "/report.html", std::ios::binary)
        << std::ifstream(html, std::ios::binary).rdbuf();
    std::cout << "screenshot: " << artifacts << "/report.png\n";
  }
  fs::remove_all(work);
}

}  // namespace
}  // namespace disktune::testing
