#include "src/model/throttle_by_probe_lines.h"

#include "src/model/throttle_spec.h"

namespace disktune {

std::string ProbeAccountingLine(const ProbeAccounting& p) {
  return "throttle, " + p.probe + " (" + std::to_string(p.points) +
         (p.points == 1 ? " point" : " points") +
         "): " + DescribeAccounting(p.accounting);
}

std::string FillAccountingLine(const ThrottleAccounting& a) {
  return "throttle, test file fill: " + DescribeAccounting(a);
}

}  // namespace disktune
