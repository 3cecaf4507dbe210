#include "src/tune/verify.h"

#include <algorithm>
#include <cmath>

#include "src/bench/repeat_stats.h"

namespace disktune::tune {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Round3(double v) { return std::round(v * 1000) / 1000; }

}  // namespace

Gain PairedGain(const std::vector<double>& candidate,
                const std::vector<double>& baseline) {
  Gain g;
  size_t n = std::min(candidate.size(), baseline.size());
  g.repeats = static_cast<int>(n);
  if (n == 0) return g;
  std::vector<double> ratios, logs;
  for (size_t i = 0; i < n; i++) {
    double r = candidate[i] / baseline[i];
    ratios.push_back(r);
    logs.push_back(std::log(r));
  }
  g.median = Median(ratios);
  if (n < 2) {
    g.ci95_low = g.ci95_high = g.median;
    return g;
  }
  double mean = 0;
  for (double x : logs) mean += x;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double x : logs) ss += (x - mean) * (x - mean);
  double sd = std::sqrt(ss / static_cast<double>(n - 1));
  double half = bench::StudentT95(static_cast<int>(n - 1)) * sd /
                std::sqrt(static_cast<double>(n));
  g.ci95_low = std::exp(mean - half);
  g.ci95_high = std::exp(mean + half);
  return g;
}

Gain Inverse(const Gain& g) {
  Gain out = g;
  out.median = 1 / g.median;
  out.ci95_low = 1 / g.ci95_high;
  out.ci95_high = 1 / g.ci95_low;
  return out;
}

std::vector<Gain> BlockedGains(const std::vector<std::vector<double>>& scores) {
  const size_t c = scores.size();
  const size_t r = c > 0 ? scores[0].size() : 0;
  std::vector<Gain> out;
  if (c < 2 || r < 1) return out;
  std::vector<std::vector<double>> y(c, std::vector<double>(r));
  for (size_t i = 0; i < c; i++) {
    for (size_t k = 0; k < r; k++) y[i][k] = std::log(scores[i][k]);
  }
  std::vector<double> row(c, 0), col(r, 0);
  double grand = 0;
  for (size_t i = 0; i < c; i++) {
    for (size_t k = 0; k < r; k++) {
      row[i] += y[i][k] / static_cast<double>(r);
      col[k] += y[i][k] / static_cast<double>(c);
      grand += y[i][k] / static_cast<double>(c * r);
    }
  }
  double ss = 0;
  for (size_t i = 0; i < c; i++) {
    for (size_t k = 0; k < r; k++) {
      double e = y[i][k] - row[i] - col[k] + grand;
      ss += e * e;
    }
  }
  const int df = static_cast<int>((c - 1) * (r - 1));
  const double sigma = df > 0 ? std::sqrt(ss / df) : 0;
  const double se = sigma * std::sqrt(2.0 / static_cast<double>(r));
  const double t = df > 0 ? bench::StudentT95(df) : 0;
  for (size_t i = 1; i < c; i++) {
    Gain g;
    g.repeats = static_cast<int>(r);
    std::vector<double> ratios;
    for (size_t k = 0; k < r; k++)
      ratios.push_back(scores[0][k] / scores[i][k]);
    g.median = Median(ratios);
    double d = row[0] - row[i];
    if (df > 0) {
      g.ci95_low = std::exp(d - t * se);
      g.ci95_high = std::exp(d + t * se);
    } else {
      g.ci95_low = g.ci95_high = g.median;
    }
    out.push_back(g);
  }
  return out;
}

std::vector<size_t> RoundOrder(size_t n, size_t round) {
  std::vector<size_t> order(n);
  // A Latin square: over n rounds every config runs once in every position,
  // and with two configs the rounds go A B, B A, A B, so linear drift
  // cancels.
  for (size_t i = 0; i < n; i++) order[i] = (i + round) % n;
  return order;
}

model::GainFigure GainFigureOf(const Gain& g) {
  return {.median = Round3(g.median),
          .ci95_low = Round3(g.ci95_low),
          .ci95_high = Round3(g.ci95_high),
          .repeats = g.repeats};
}

nlohmann::json GainToJson(const Gain& g) {
  return model::GainFigureToJson(GainFigureOf(g));
}

}  // namespace disktune::tune
